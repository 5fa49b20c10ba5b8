import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { oneOf } from '../lib/search';
import { staffRoute } from './staff';

export const PERIODS = ['today', '7d', '30d', '90d'] as const;
export type Period = (typeof PERIODS)[number];

export const dashboardRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/',
  validateSearch: (search: Record<string, unknown>): { period?: Period | undefined } => ({ period: oneOf(search.period, PERIODS) }),
  component: lazyRouteComponent(() => import('../screens/dashboard'), 'DashboardScreen'),
});
