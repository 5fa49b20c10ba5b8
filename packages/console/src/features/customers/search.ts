import { ACCOUNT_STATUSES, ROLE_FILTERS, valuesOf, type AccountStatus, type RoleFilter, type SortOf } from '../../api/domain';
import { date, instant, oneOf, pageOrNone, text } from '../../lib/search';

export const ACCOUNT_SORTS = valuesOf<SortOf<'/api/v1/admin/users'>>()(['-created_at', 'created_at', 'name', '-name', 'email', '-email']);

export interface CustomersSearch {
  page?: number | undefined;
  q?: string | undefined;
  role?: RoleFilter | undefined;
  status?: AccountStatus | undefined;
  /** Joined on these UTC calendar days, both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** Joined at or after this instant: a dashboard period's start, as its "new customers" figure counts. */
  since?: string | undefined;
  sort?: (typeof ACCOUNT_SORTS)[number] | undefined;
}

export const customersSearch = (search: Record<string, unknown>): CustomersSearch => ({
  page: pageOrNone(search.page),
  q: text(search.q),
  role: oneOf(search.role, ROLE_FILTERS),
  status: oneOf(search.status, ACCOUNT_STATUSES),
  from: date(search.from),
  to: date(search.to),
  since: instant(search.since),
  sort: oneOf(search.sort, ACCOUNT_SORTS),
});

/** A customer's URL: the page of their orders. */
export const customerSearch = (search: Record<string, unknown>): { page?: number | undefined } => ({ page: pageOrNone(search.page) });
