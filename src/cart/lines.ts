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

export function toCart(rows: CartLineRow[], currency: string): Cart {
  const items = rows.map((row) => {
    const enough = row.stock_available >= row.quantity;
    return {
      ...toLineItem(row),
      available: row.on_sale && enough,
      // The count only when the line asks for more than there is, as checkout's INSUFFICIENT_STOCK tells it.
      quantity_available: row.on_sale && !enough ? Math.max(0, row.stock_available) : null,
    };
  });
  const subtotal = items.reduce((sum, item) => sum + toCents(item.line_total), 0);
  const count = items.reduce((sum, item) => sum + item.quantity, 0);
  return { items, subtotal: fromCents(subtotal), currency, item_count: count };
}
