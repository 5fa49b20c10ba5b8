import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { date, page, text } from '../lib/search';
import { staffRoute, superOnly } from './staff';

export const accountRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/account',
  component: lazyRouteComponent(() => import('../screens/account'), 'AccountScreen'),
});

export interface AuditSearch {
  page?: number | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  entity?: string | undefined;
  entity_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const auditRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/audit',
  beforeLoad: superOnly,
  validateSearch: (search: Record<string, unknown>): AuditSearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    actor: text(search.actor),
    action: text(search.action, 100),
    entity: text(search.entity, 50),
    entity_id: text(search.entity_id, 100),
    from: date(search.from),
    to: date(search.to),
  }),
  component: lazyRouteComponent(() => import('../screens/audit'), 'AuditScreen'),
});
