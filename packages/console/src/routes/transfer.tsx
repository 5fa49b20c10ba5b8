import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { staffRoute } from './staff';

export const transferRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/import-export',
  component: lazyScreen(() => import('../features/transfer/transfer-screen'), 'TransferScreen'),
});
