import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { date, instant, oneOf, page, text } from '../lib/search';
import { staffRoute } from './staff';

export const ORDER_STATUSES = ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED'] as const;
export const ORDER_SORTS = ['-placed_at', 'placed_at', '-total', 'total'] as const;

export interface OrdersSearch {
  page?: number | undefined;
  status?: (typeof ORDER_STATUSES)[number] | undefined;
  q?: string | undefined;
  /** UTC calendar days, both inclusive (as the dashboard counts days). */
  from?: string | undefined;
  to?: string | undefined;
  /** An exact start (ISO instant): a dashboard period (the last 7 days runs from now minus 7 × 24 hours). */
  since?: string | undefined;
  sort?: (typeof ORDER_SORTS)[number] | undefined;
}

export const ordersRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders',
  validateSearch: (search: Record<string, unknown>): OrdersSearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    status: oneOf(search.status, ORDER_STATUSES),
    q: text(search.q),
    from: date(search.from),
    to: date(search.to),
    since: instant(search.since),
    sort: oneOf(search.sort, ORDER_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/orders'), 'OrdersScreen'),
});

export const orderRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders/$orderId',
  component: lazyRouteComponent(() => import('../screens/order'), 'OrderScreen'),
});
