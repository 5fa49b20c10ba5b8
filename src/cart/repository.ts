import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { MAX_LINE_QUANTITY } from './schemas.js';

/** A variant (`v`) of a product (`p`) a customer may buy now, and how many are available (`i`, its stock record). */
const onSale = sql<boolean>`(v.status = 'ACTIVE' AND v.deleted_at IS NULL AND p.status = 'ACTIVE' AND p.deleted_at IS NULL)`;
const stockAvailable = sql<number>`coalesce(i.quantity_on_hand - i.quantity_reserved, 0)`;

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
      onSale.as('on_sale'),
      stockAvailable.as('stock_available'),
    ])
    .where('ci.user_id', '=', userId)
    .orderBy('ci.added_at')
    .orderBy('v.public_id');
}
export type CartLineRow = Awaited<ReturnType<ReturnType<typeof cartLines>['execute']>>[number];

/**
 * The cart's lines for checkout, its rows locked (src/db/LOCKING.md step 4): a second checkout of
 * the same cart waits here, then finds it emptied.
 */
export function lockedCartLines(db: Executor, userId: number): Promise<CartLineRow[]> {
  return cartLines(db, userId).forUpdate('ci').execute();
}

/** Whether each variant is on sale, and how many are available now (a variant not found is left out). */
export function variantsAvailability(db: Executor, variantPublicIds: readonly string[]) {
  return db
    .selectFrom('variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .leftJoin('inventory as i', 'i.variant_id', 'v.id')
    .select(['v.public_id', onSale.as('on_sale'), stockAvailable.as('stock_available')])
    .where('v.public_id', 'in', [...variantPublicIds])
    .execute();
}

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

/**
 * Adds to a line in one upsert that only inserts a variant on sale, refuses a
 * line above 999 and a new line in a cart of `maxLines` (`cart_line_fits`,
 * migration 0030, counts under the account's cart lock); returns nothing
 * when it wrote nothing (any of the three).
 */
export function addToLine(db: Executor, userId: number, variantPublicId: string, quantity: number, maxLines: number, now: Date) {
  return db
    .insertInto('cart_items')
    .columns(['user_id', 'variant_id', 'quantity'])
    .expression(
      db
        .selectFrom('variants as v')
        .innerJoin('products as p', 'p.id', 'v.product_id')
        .select([sql<number>`${userId}::bigint`.as('user_id'), 'v.id', sql<number>`${quantity}::int`.as('quantity')])
        .where('v.public_id', '=', variantPublicId)
        .where('v.status', '=', 'ACTIVE')
        .where('v.deleted_at', 'is', null)
        .where('p.status', '=', 'ACTIVE')
        .where('p.deleted_at', 'is', null)
        .where(sql<boolean>`cart_line_fits(${userId}::bigint, v.id, ${maxLines}::int)`),
    )
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'variant_id'])
        .doUpdateSet({ quantity: sql`cart_items.quantity + excluded.quantity`, updated_at: now })
        .where(sql<boolean>`cart_items.quantity + excluded.quantity <= ${MAX_LINE_QUANTITY}`),
    )
    .returning('quantity')
    .executeTakeFirst();
}

/** How many lines the cart holds, and how many units the variant's line holds (0: no line). */
export function cartRoom(db: Executor, userId: number, variantPublicId: string) {
  return db
    .selectFrom('cart_items as c')
    .innerJoin('variants as v', 'v.id', 'c.variant_id')
    .select([
      sql<number>`count(*)::int`.as('lines'),
      sql<number>`coalesce(sum(c.quantity) FILTER (WHERE v.public_id = ${variantPublicId}), 0)::int`.as('held'),
    ])
    .where('c.user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Sets a line's quantity; returns nothing when the cart has no such line. */
export function setLineQuantity(db: Executor, userId: number, variantPublicId: string, quantity: number, now: Date) {
  return db
    .updateTable('cart_items')
    .set({ quantity, updated_at: now })
    .where('user_id', '=', userId)
    .where('variant_id', '=', (eb) => eb.selectFrom('variants').select('id').where('public_id', '=', variantPublicId))
    .returning('quantity')
    .executeTakeFirst();
}

/** Removes a line; returns nothing when the cart has no such line. */
export function removeLine(db: Executor, userId: number, variantPublicId: string) {
  return db
    .deleteFrom('cart_items')
    .where('user_id', '=', userId)
    .where('variant_id', '=', (eb) => eb.selectFrom('variants').select('id').where('public_id', '=', variantPublicId))
    .returning('quantity')
    .executeTakeFirst();
}

export async function clearCart(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('cart_items').where('user_id', '=', userId).execute();
}

/**
 * The removal of the lines an order took, as one part of checkout's own
 * statement (a data-modifying CTE, no round trip of its own). Only those
 * variants: a line added meanwhile by another request stays in the cart.
 */
export function orderedLinesRemoval(userId: number, variantIds: readonly number[]) {
  return sql`DELETE FROM cart_items WHERE user_id = ${userId} AND variant_id = ANY(${[...variantIds]}::bigint[])`;
}
