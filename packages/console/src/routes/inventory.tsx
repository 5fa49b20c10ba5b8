import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { inventorySearch, stockRecordSearch } from '../features/inventory/search';
import { staffRoute } from './staff';

export const inventoryRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/inventory',
  validateSearch: inventorySearch,
  component: lazyScreen(() => import('../features/inventory/inventory-screen'), 'InventoryScreen'),
});

export const stockRecordRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/inventory/$variantId',
  validateSearch: stockRecordSearch,
  component: lazyScreen(() => import('../features/inventory/stock-record-screen'), 'StockRecordScreen'),
});
