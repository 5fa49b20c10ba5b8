import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** A cart is the account's cart_items rows, read with live prices and stock. */
export function cartLines(db: Executor, userId: number) {
  return db
    .selectFrom('cart_items as ci')
    .innerJoin('variants as v', 'v.id', 'ci.variant_id')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .leftJoin('inventory as i', 'i.variant_id', 'v.id')
    .select([
      'ci.variant_id',
      'ci.quantity',
      'v.public_id as variant_public_id',
      'v.product_id',
      'p.public_id as product_public_id',
      'p.name as product_name',
      'v.sku',
      'v.options',
      'v.price',
      'v.cost_price',
      sql<boolean>`(v.status = 'ACTIVE' AND v.deleted_at IS NULL AND p.status = 'ACTIVE' AND p.deleted_at IS NULL)`.as('on_sale'),
      sql<number>`coalesce(i.quantity_on_hand - i.quantity_reserved, 0)`.as('stock_available'),
    ])
    .where('ci.user_id', '=', userId)
    .orderBy('ci.added_at')
    .orderBy('v.public_id');
}
export type CartLineRow = Awaited<ReturnType<ReturnType<typeof cartLines>['execute']>>[number];

/** A variant a customer may put in a cart: live and on sale. */
export function sellableVariant(db: Executor, variantPublicId: string) {
  return db
    .selectFrom('variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select('v.id')
    .where('v.public_id', '=', variantPublicId)
    .where('v.status', '=', 'ACTIVE')
    .where('v.deleted_at', 'is', null)
    .where('p.status', '=', 'ACTIVE')
    .where('p.deleted_at', 'is', null)
    .executeTakeFirst();
}
