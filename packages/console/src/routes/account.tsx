import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { auditSearch } from '../features/audit/search';
import { staffRoute, superOnly } from './staff';

export const accountRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/account',
  component: lazyRouteComponent(() => import('../features/account/account-screen'), 'AccountScreen'),
});

export const auditRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/audit',
  beforeLoad: superOnly,
  validateSearch: auditSearch,
  component: lazyRouteComponent(() => import('../features/audit/audit-screen'), 'AuditScreen'),
});
