import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { dashboardSearch } from '../features/dashboard/search';
import { staffRoute } from './staff';

export const dashboardRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/',
  validateSearch: dashboardSearch,
  component: lazyScreen(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen'),
});
