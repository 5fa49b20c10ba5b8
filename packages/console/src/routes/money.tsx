import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { moneySearch } from '../features/money/search';
import { staffRoute, superOnly } from './staff';

export const moneyRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/money',
  beforeLoad: superOnly,
  validateSearch: moneySearch,
  component: lazyRouteComponent(() => import('../features/money/money-screen'), 'MoneyScreen'),
});
