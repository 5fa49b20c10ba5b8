import { fromCents, toCents } from '../lib/money.js';
import type { CartLineRow } from './repository.js';
import type { Cart, LineItem } from './schemas.js';

/** A cart row as a line item at its current price (the cart shows it; checkout keeps it). */
export function toLineItem(row: CartLineRow): LineItem {
  return {
    variant_public_id: row.variant_public_id,
    product_public_id: row.product_public_id,
    product_name: row.product_name,
    sku: row.sku,
    options: row.options,
    unit_price: row.price,
    quantity: row.quantity,
    line_total: fromCents(toCents(row.price) * row.quantity),
  };
}

/**
 * Whether a quantity of a variant can be bought now, as a cart line says it: the count only when the
 * line asks for more than there is, as checkout's INSUFFICIENT_STOCK tells it.
 */
export function availabilityOf(row: { on_sale: boolean; stock_available: number } | undefined, quantity: number) {
  const enough = row !== undefined && row.stock_available >= quantity;
  return {
    available: row !== undefined && row.on_sale && enough,
    quantity_available: row !== undefined && row.on_sale && !enough ? Math.max(0, row.stock_available) : null,
  };
}

export function toCart(rows: CartLineRow[], currency: string): Cart {
  const items = rows.map((row) => ({ ...toLineItem(row), ...availabilityOf(row, row.quantity) }));
  const subtotal = items.reduce((sum, item) => sum + toCents(item.line_total), 0);
  const count = items.reduce((sum, item) => sum + item.quantity, 0);
  return { items, subtotal: fromCents(subtotal), currency, item_count: count };
}
