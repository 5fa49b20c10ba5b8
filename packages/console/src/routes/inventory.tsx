import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { oneOf, page, text } from '../lib/search';
import { staffRoute } from './staff';

export const STOCK_STATUSES = ['IN_STOCK', 'LOW_STOCK', 'OUT_OF_STOCK'] as const;
export const INVENTORY_SORTS = [
  'product_name',
  '-product_name',
  'sku',
  '-sku',
  'quantity_on_hand',
  '-quantity_on_hand',
  'quantity_available',
  '-quantity_available',
  'last_stock_update',
  '-last_stock_update',
] as const;

export interface InventorySearch {
  page?: number | undefined;
  q?: string | undefined;
  /** The API's `stock_status`: `/inventory?stock_status=LOW_STOCK` is the low-stock view. */
  stock_status?: (typeof STOCK_STATUSES)[number] | undefined;
  sort?: (typeof INVENTORY_SORTS)[number] | undefined;
}

export const inventoryRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/inventory',
  validateSearch: (search: Record<string, unknown>): InventorySearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    q: text(search.q),
    stock_status: oneOf(search.stock_status, STOCK_STATUSES),
    sort: oneOf(search.sort, INVENTORY_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/inventory'), 'InventoryScreen'),
});

export const stockRecordRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/inventory/$variantId',
  validateSearch: (search: Record<string, unknown>): { page?: number | undefined } => ({
    page: search.page === undefined ? undefined : page(search.page),
  }),
  component: lazyRouteComponent(() => import('../screens/stock-record'), 'StockRecordScreen'),
});
