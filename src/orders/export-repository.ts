import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { OrderStatus } from './schemas.js';

/** The orders export: every order matching the filters, oldest first, read by key a batch at a time. */

export interface OrderExportFilters {
  status?: OrderStatus | undefined;
  placed_from?: string | undefined;
  placed_to?: string | undefined;
}

export const ORDER_CSV_COLUMNS = [
  'order_number',
  'public_id',
  'placed_at',
  'status',
  'customer_email',
  'customer_public_id',
  'items',
  'subtotal',
  'discount',
  'shipping',
  'tax',
  'total',
  'currency',
  'coupon_code',
  'payment_status',
  'carrier',
  'tracking_number',
  'ship_to_name',
  'ship_to_city',
  'ship_to_country',
] as const;

function matching(db: Executor, f: OrderExportFilters) {
  return db
    .selectFrom('orders as o')
    .$if(f.status !== undefined, (q) => q.where('o.status', '=', f.status!))
    .$if(f.placed_from !== undefined, (q) => q.where('o.placed_at', '>=', new Date(f.placed_from!)))
    .$if(f.placed_to !== undefined, (q) => q.where('o.placed_at', '<', new Date(f.placed_to!)));
}

export async function countOrdersForExport(db: Executor, f: OrderExportFilters): Promise<number> {
  return (
    await matching(db, f)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}

export async function* orderExportBatches(db: Executor, f: OrderExportFilters, size = 500): AsyncGenerator<Record<string, unknown>[]> {
  for (let after = 0; ;) {
    const rows = await matching(db, f)
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .select([
        'o.id',
        'o.order_number',
        'o.public_id',
        'o.placed_at',
        'o.status',
        'u.email as customer_email',
        'u.public_id as customer_public_id',
        'o.subtotal',
        'o.discount_total',
        'o.shipping_total',
        'o.tax_total',
        'o.total',
        'o.currency',
        'o.coupon_code',
        'o.payment_status',
        'o.carrier',
        'o.tracking_number',
        'o.shipping_address',
        (eb) =>
          eb
            .selectFrom('order_items as oi')
            .select(sql<number>`coalesce(sum(oi.quantity), 0)::int`.as('n'))
            .whereRef('oi.order_id', '=', 'o.id')
            .as('items'),
      ])
      .where('o.id', '>', after)
      .orderBy('o.id')
      .limit(size)
      .execute();
    if (rows.length > 0) {
      yield rows.map((o) => {
        const address = o.shipping_address as Record<string, unknown>;
        return {
          ...o,
          placed_at: o.placed_at.toISOString(),
          discount: o.discount_total,
          shipping: o.shipping_total,
          tax: o.tax_total,
          ship_to_name: address.recipient_name,
          ship_to_city: address.city,
          ship_to_country: address.country,
        };
      });
    }
    if (rows.length < size) return;
    after = rows.at(-1)!.id;
  }
}
