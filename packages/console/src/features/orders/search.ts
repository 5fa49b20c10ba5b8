import { ORDER_STATUSES, valuesOf, type OrderStatus, type SortOf } from '../../api/domain';
import { date, instant, oneOf, pageOrNone, text } from '../../lib/search';

export const ORDER_SORTS = valuesOf<SortOf<'/api/v1/admin/orders'>>()(['-placed_at', 'placed_at', '-total', 'total']);

export interface OrdersSearch {
  page?: number | undefined;
  status?: OrderStatus | undefined;
  q?: string | undefined;
  /** UTC calendar days, both inclusive (as the dashboard counts days). */
  from?: string | undefined;
  to?: string | undefined;
  /** An exact start (ISO instant): a dashboard period (the last 7 days runs from now minus 7 × 24 hours). */
  since?: string | undefined;
  sort?: (typeof ORDER_SORTS)[number] | undefined;
}

/** The orders list's URL: malformed values fall back to the defaults. */
export const ordersSearch = (search: Record<string, unknown>): OrdersSearch => ({
  page: pageOrNone(search.page),
  status: oneOf(search.status, ORDER_STATUSES),
  q: text(search.q),
  from: date(search.from),
  to: date(search.to),
  since: instant(search.since),
  sort: oneOf(search.sort, ORDER_SORTS),
});
