import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { ordersSearch } from '../features/orders/search';
import { staffRoute } from './staff';

export const ordersRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders',
  validateSearch: ordersSearch,
  component: lazyScreen(() => import('../features/orders/orders-screen'), 'OrdersScreen'),
});

export const orderRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders/$orderId',
  component: lazyScreen(() => import('../features/orders/order-screen'), 'OrderScreen'),
});
