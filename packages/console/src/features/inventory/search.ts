import { STOCK_STATUSES, valuesOf, type SortOf, type StockStatus } from '../../api/domain';
import { oneOf, pageOrNone, text } from '../../lib/search';

export const INVENTORY_SORTS = valuesOf<SortOf<'/api/v1/admin/inventory'>>()([
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
]);

export interface InventorySearch {
  page?: number | undefined;
  q?: string | undefined;
  /** The API's `stock_status`: `/inventory?stock_status=LOW_STOCK` is the low-stock view. */
  stock_status?: StockStatus | undefined;
  sort?: (typeof INVENTORY_SORTS)[number] | undefined;
}

export const inventorySearch = (search: Record<string, unknown>): InventorySearch => ({
  page: pageOrNone(search.page),
  q: text(search.q),
  stock_status: oneOf(search.stock_status, STOCK_STATUSES),
  sort: oneOf(search.sort, INVENTORY_SORTS),
});

/** A stock record's URL: the page of its movements. */
export const stockRecordSearch = (search: Record<string, unknown>): { page?: number | undefined } => ({ page: pageOrNone(search.page) });
