import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { customerSearch, customersSearch } from '../features/customers/search';
import { staffRoute } from './staff';

export const customersRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/customers',
  validateSearch: customersSearch,
  component: lazyScreen(() => import('../features/customers/customers-screen'), 'CustomersScreen'),
});

export const customerRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/customers/$userId',
  validateSearch: customerSearch,
  component: lazyScreen(() => import('../features/customers/customer-screen'), 'CustomerScreen'),
});
