import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { date, instant, oneOf, page, text } from '../lib/search';
import { staffRoute } from './staff';

export const ROLES = ['CUSTOMER', 'ADMIN', 'SUPER_ADMIN'] as const;
export const ACCOUNT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export const ACCOUNT_SORTS = ['-created_at', 'created_at', 'name', '-name', 'email', '-email'] as const;

export interface CustomersSearch {
  page?: number | undefined;
  q?: string | undefined;
  role?: (typeof ROLES)[number] | undefined;
  status?: (typeof ACCOUNT_STATUSES)[number] | undefined;
  /** Joined on these UTC calendar days, both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** Joined at or after this instant: a dashboard period's start, as its "new customers" figure counts. */
  since?: string | undefined;
  sort?: (typeof ACCOUNT_SORTS)[number] | undefined;
}

export const customersRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/customers',
  validateSearch: (search: Record<string, unknown>): CustomersSearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    q: text(search.q),
    role: oneOf(search.role, ROLES),
    status: oneOf(search.status, ACCOUNT_STATUSES),
    from: date(search.from),
    to: date(search.to),
    since: instant(search.since),
    sort: oneOf(search.sort, ACCOUNT_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/customers'), 'CustomersScreen'),
});

export const customerRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/customers/$userId',
  validateSearch: (search: Record<string, unknown>): { page?: number | undefined } => ({
    page: search.page === undefined ? undefined : page(search.page),
  }),
  component: lazyRouteComponent(() => import('../screens/customer'), 'CustomerScreen'),
});
