import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db, Executor } from '../db/database.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, validationError } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { fromCents, toCents } from '../lib/money.js';
import { cartLines, sellableVariant, type CartLineRow } from './repository.js';
import type { Cart, CartItemAdd, CartItemSet, LineItem } from './schemas.js';
import { transaction } from '../db/transaction.js';

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
  const items = rows.map((row) => ({ ...toLineItem(row), available: row.on_sale && row.stock_available >= row.quantity }));
  const subtotal = items.reduce((sum, item) => sum + toCents(item.line_total), 0);
  const count = items.reduce((sum, item) => sum + item.quantity, 0);
  return { items, subtotal: fromCents(subtotal), currency, item_count: count };
}

/** The shopping cart (contract section 8): prices are live until checkout. */
export function createCartService({ db, config }: { db: Db; config: Pick<Config, 'commerce'> }) {
  const read = async (executor: Executor, userId: number) => toCart(await cartLines(executor, userId).execute(), config.commerce.currency);

  return {
    get: (ctx: AuthedCtx) => read(db, ctx.actor.userId),

    /** Adds to the line in one statement; a line above 999 is refused and nothing changes. */
    /**
     * One upsert that only inserts a variant on sale and refuses a line above
     * 999; nothing changes in either case. Which of the two it was is asked
     * only when the upsert wrote nothing (the rare path).
     */
    async add(ctx: AuthedCtx, input: CartItemAdd): Promise<Cart> {
      if (!isPublicId('var', input.variant_public_id)) throw notFound('Variant');
      const line = await db
        .insertInto('cart_items')
        .columns(['user_id', 'variant_id', 'quantity'])
        .expression(
          db
            .selectFrom('variants as v')
            .innerJoin('products as p', 'p.id', 'v.product_id')
            .select([sql<number>`${ctx.actor.userId}::bigint`.as('user_id'), 'v.id', sql<number>`${input.quantity}::int`.as('quantity')])
            .where('v.public_id', '=', input.variant_public_id)
            .where('v.status', '=', 'ACTIVE')
            .where('v.deleted_at', 'is', null)
            .where('p.status', '=', 'ACTIVE')
            .where('p.deleted_at', 'is', null),
        )
        .onConflict((oc) =>
          oc.columns(['user_id', 'variant_id']).doUpdateSet({
            quantity: sql`cart_items.quantity + excluded.quantity`,
            updated_at: new Date(),
          }).where(sql<boolean>`cart_items.quantity + excluded.quantity <= 999`),
        )
        .returning('quantity')
        .executeTakeFirst();
      if (!line) {
        if (!(await sellableVariant(db, input.variant_public_id))) throw notFound('Variant');
        throw validationError('A cart line holds at most 999 units', [{ field: 'quantity', message: 'the line would exceed 999' }]);
      }
      return read(db, ctx.actor.userId);
    },

    async setQuantity(ctx: AuthedCtx, variantPublicId: string, input: CartItemSet): Promise<Cart> {
      return transaction(db, async (trx) => {
        const updated = isPublicId('var', variantPublicId)
          ? await trx
              .updateTable('cart_items')
              .set({ quantity: input.quantity, updated_at: new Date() })
              .where('user_id', '=', ctx.actor.userId)
              .where('variant_id', '=', (eb) => eb.selectFrom('variants').select('id').where('public_id', '=', variantPublicId))
              .returning('quantity')
              .executeTakeFirst()
          : undefined;
        if (!updated) throw notFound('Cart item');
        return read(trx, ctx.actor.userId);
      });
    },

    async removeLine(ctx: AuthedCtx, variantPublicId: string): Promise<Cart> {
      return transaction(db, async (trx) => {
        const removed = isPublicId('var', variantPublicId)
          ? await trx
              .deleteFrom('cart_items')
              .where('user_id', '=', ctx.actor.userId)
              .where('variant_id', '=', (eb) => eb.selectFrom('variants').select('id').where('public_id', '=', variantPublicId))
              .returning('quantity')
              .executeTakeFirst()
          : undefined;
        if (!removed) throw notFound('Cart item');
        return read(trx, ctx.actor.userId);
      });
    },

    async clear(ctx: AuthedCtx): Promise<void> {
      await db.deleteFrom('cart_items').where('user_id', '=', ctx.actor.userId).execute();
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;
