import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { inventorySearch, stockRecordSearch } from '../features/inventory/search';
import { staffRoute } from './staff';

export const inventoryRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/inventory',
  validateSearch: inventorySearch,
  component: lazyRouteComponent(() => import('../features/inventory/inventory-screen'), 'InventoryScreen'),
});

export const stockRecordRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/inventory/$variantId',
  validateSearch: stockRecordSearch,
  component: lazyRouteComponent(() => import('../features/inventory/stock-record-screen'), 'StockRecordScreen'),
});
