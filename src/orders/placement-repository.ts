import { sql, type RawBuilder } from 'kysely';
import type { Trx } from '../db/database.js';
import type { CartLineRow } from '../cart/repository.js';
import { isoTimestamp } from '../events/repository.js';

/** Everything a placed order stores, computed by checkout before it writes. */
export interface PlacedOrder {
  publicId: string;
  userId: number;
  amounts: { subtotal: string; discount_total: string; shipping_total: string; tax_total: string; total: string };
  currency: string;
  coupon: { id: number; code: string } | null;
  shippingAddress: object;
  paymentMethod: string;
  notes: string | null;
  /** The cart lines as read under lock, with each line's total. */
  lines: (CartLineRow & { line_total: string })[];
}

/** The new order's row, for the parts that run alongside it: its source, and what the statement generates (number, time). */
export const newOrder = {
  rows: sql`new_order`,
  orderNumber: sql<string>`new_order.order_number`,
  placedAt: isoTimestamp(sql`new_order.placed_at`),
};

/**
 * Writes a placed order in one statement: the order, its items (from the
 * lines checkout read under lock, so prices match the totals it computed),
 * its first status, and the parts other owners hand in to run with it
 * (`alongside`: the emptied cart lines, the confirmation email, the
 * order.placed event). One round
 * trip instead of five keeps the transaction, and the cart locks it holds,
 * short; each part's SQL stays in its owner's repository. A part may read
 * the new order as `new_order` (its generated number, say).
 */
export async function insertPlacedOrder(trx: Trx, order: PlacedOrder, alongside: readonly RawBuilder<unknown>[] = []) {
  const { lines } = order;
  const column = <T>(pick: (line: PlacedOrder['lines'][number]) => T) => lines.map(pick);
  const result = await sql<{ id: number; public_id: string; order_number: string; placed_at: Date; updated_at: Date }>`
    WITH new_order AS (
      INSERT INTO orders (public_id, order_number, user_id, status, subtotal, discount_total, shipping_total, tax_total, total,
                          currency, coupon_id, coupon_code, shipping_address, payment_method, payment_status, notes)
      VALUES (${order.publicId}, 'ORD-' || lpad(nextval('order_number_seq')::text, 6, '0'), ${order.userId}, 'PLACED',
              ${order.amounts.subtotal}, ${order.amounts.discount_total}, ${order.amounts.shipping_total}, ${order.amounts.tax_total},
              ${order.amounts.total}, ${order.currency}, ${order.coupon?.id ?? null}, ${order.coupon?.code ?? null},
              ${JSON.stringify(order.shippingAddress)}, ${order.paymentMethod}, 'PAID', ${order.notes})
      RETURNING id, public_id, order_number, placed_at, updated_at
    ),
    items AS (
      INSERT INTO order_items (order_id, variant_id, product_id, product_name, sku, options, unit_price, unit_cost, quantity, line_total)
      SELECT o.id, l.variant_id, l.product_id, l.product_name, l.sku, l.options::jsonb, l.unit_price, l.unit_cost, l.quantity, l.line_total
      FROM new_order o,
           unnest(${column((l) => l.variant_id)}::bigint[], ${column((l) => l.product_id)}::bigint[], ${column((l) => l.product_name)}::text[],
                  ${column((l) => l.sku)}::text[], ${column((l) => JSON.stringify(l.options))}::text[], ${column((l) => l.price)}::numeric[],
                  ${column((l) => l.cost_price)}::numeric[], ${column((l) => l.quantity)}::int[], ${column((l) => l.line_total)}::numeric[])
             AS l(variant_id, product_id, product_name, sku, options, unit_price, unit_cost, quantity, line_total)
    ),
    history AS (
      INSERT INTO order_status_history (order_id, status, actor_user_id) SELECT id, 'PLACED', ${order.userId} FROM new_order
    )${sql.join(
      alongside.map((part, i) => sql`, ${sql.raw(`part_${i}`)} AS (${part})`),
      sql``,
    )}
    SELECT id, public_id, order_number, placed_at, updated_at FROM new_order
  `.execute(trx);
  return result.rows[0]!;
}
