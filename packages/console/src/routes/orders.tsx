import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { ordersSearch } from '../features/orders/search';
import { staffRoute } from './staff';

export const ordersRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders',
  validateSearch: ordersSearch,
  component: lazyRouteComponent(() => import('../features/orders/orders-screen'), 'OrdersScreen'),
});

export const orderRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/orders/$orderId',
  component: lazyRouteComponent(() => import('../features/orders/order-screen'), 'OrderScreen'),
});
