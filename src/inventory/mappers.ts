import type { InventoryRecordRow } from './repository.js';
import type { InventoryRecord, StockStatus } from './schemas.js';

/** An inventory record as the API shows it (admin inventory, and each variant's stock in the admin catalog). */
export function toInventoryRecord(row: InventoryRecordRow): InventoryRecord {
  return {
    variant_public_id: row.variant_public_id,
    product_public_id: row.product_public_id,
    product_name: row.product_name,
    sku: row.sku,
    quantity_on_hand: row.quantity_on_hand,
    quantity_reserved: row.quantity_reserved,
    quantity_available: row.quantity_available,
    reorder_level: row.reorder_level,
    stock_status: row.stock_status,
    created_at: row.created_at.toISOString(),
    last_stock_update: row.last_stock_update.toISOString(),
  };
}

/** Mirrors the SQL function stock_status() (migration 0002), for a record read without it. */
export function stockStatus(available: number, reorderLevel: number | null): StockStatus {
  if (available <= 0) return 'OUT_OF_STOCK';
  if (reorderLevel !== null && available <= reorderLevel) return 'LOW_STOCK';
  return 'IN_STOCK';
}
