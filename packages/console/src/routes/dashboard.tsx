import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { dashboardSearch } from '../features/dashboard/search';
import { staffRoute } from './staff';

export const dashboardRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/',
  validateSearch: dashboardSearch,
  component: lazyRouteComponent(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen'),
});
