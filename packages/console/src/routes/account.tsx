import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { auditSearch } from '../features/audit/search';
import { staffRoute, superOnlyScreen } from './staff';

export const accountRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/account',
  component: lazyScreen(() => import('../features/account/account-screen'), 'AccountScreen'),
});

export const auditRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/audit',
  validateSearch: auditSearch,
  component: superOnlyScreen(
    'The audit log',
    lazyScreen(() => import('../features/audit/audit-screen'), 'AuditScreen'),
  ),
});
