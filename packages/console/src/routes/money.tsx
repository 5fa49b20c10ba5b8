import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { moneySearch } from '../features/money/search';
import { staffRoute, superOnlyScreen } from './staff';

export const moneyRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/money',
  validateSearch: moneySearch,
  component: superOnlyScreen(
    'Money',
    lazyScreen(() => import('../features/money/money-screen'), 'MoneyScreen'),
  ),
});
