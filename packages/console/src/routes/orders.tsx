import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { date, oneOf, page, text } from '../lib/search';
import { staffRoute } from './staff';

export const ORDER_STATUSES = ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED'] as const;
export const ORDER_SORTS = ['-placed_at', 'placed_at', '-total', 'total'] as const;

export interface OrdersSearch {
  page?: number | undefined;
  status?: (typeof ORDER_STATUSES)[number] | undefined;
  q?: string | undefined;
  /** Calendar days in the browser's time zone, both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
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
    sort: oneOf(search.sort, ORDER_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/orders'), 'OrdersScreen'),
});

export const orderRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders/$orderId',
  component: lazyRouteComponent(() => import('../screens/order'), 'OrderScreen'),
});
