import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { customerSearch, customersSearch } from '../features/customers/search';
import { staffRoute } from './staff';

export const customersRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/customers',
  validateSearch: customersSearch,
  component: lazyRouteComponent(() => import('../features/customers/customers-screen'), 'CustomersScreen'),
});

export const customerRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/customers/$userId',
  validateSearch: customerSearch,
  component: lazyRouteComponent(() => import('../features/customers/customer-screen'), 'CustomerScreen'),
});
