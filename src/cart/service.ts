import type { Config } from '../config.js';
import type { Db, Executor } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { cartFull, concurrentChange, notFound, validationError } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { availabilityOf, toCart } from './lines.js';
import {
  addToLine,
  cartLines,
  cartRoom,
  clearCart,
  removeLine,
  sellableVariant,
  setLineQuantity,
  variantsAvailability,
} from './repository.js';
import {
  MAX_LINE_QUANTITY,
  type Availability,
  type AvailabilityQuestion,
  type Cart,
  type CartItemAdd,
  type CartItemSet,
} from './schemas.js';
import { transaction } from '../db/transaction.js';
import { runIdempotent, type IdempotencyRequest, type IdempotentResult } from '../idempotency/idempotency.js';

/** The shopping cart (contract section 8): prices are live until checkout. */
export function createCartService({ db, clock, config }: { db: Db; clock: Clock; config: Pick<Config, 'commerce' | 'maxCartLines'> }) {
  const read = async (executor: Executor, userId: number) => toCart(await cartLines(executor, userId).execute(), config.commerce.currency);

  return {
    get: (ctx: AuthedCtx) => read(db, ctx.actor.userId),

    /** For lines kept outside the API (a visitor's cart): what a cart line would say of each, read in one statement. */
    async availability(question: AvailabilityQuestion): Promise<Availability> {
      const ids = question.items.map((item) => item.variant_public_id).filter((id) => isPublicId('var', id));
      const rows = new Map((ids.length > 0 ? await variantsAvailability(db, ids) : []).map((row) => [row.public_id, row]));
      return {
        items: question.items.map((item) => ({
          variant_public_id: item.variant_public_id,
          ...availabilityOf(rows.get(item.variant_public_id), item.quantity),
        })),
      };
    },

    /**
     * One upsert that only inserts a variant on sale, refuses a line above
     * 999 and a new line in a full cart (MAX_CART_LINES, counted under the
     * account's cart lock so racing adds cannot overshoot); nothing changes in
     * any case. Which it was is asked only when the upsert wrote nothing (the
     * rare path), and a refusal the cart no longer gives is tried again. With an
     * Idempotency-Key the add is made once however often it is sent (a retry
     * after a lost answer, a form sent twice), and every answer is the cart as
     * it is now: the key keeps no copy of it (a cart may be long, and keys
     * live 24 hours). Without a key the add stays outside a transaction, as
     * cheap as it was.
     */
    async add(ctx: AuthedCtx, input: CartItemAdd, idempotency: IdempotencyRequest | null = null): Promise<IdempotentResult<Cart>> {
      if (!isPublicId('var', input.variant_public_id)) throw notFound('Variant');
      const addNow = async (executor: Executor) => {
        const { userId } = ctx.actor;
        for (let attempt = 1; ; attempt++) {
          if (await addToLine(executor, userId, input.variant_public_id, input.quantity, config.maxCartLines, clock.now())) return;
          // Nothing written. Why is read after the statement, so the cart may have moved since (a checkout
          // emptied the line, another tab removed one): a refusal that no longer holds is tried again.
          if (!(await sellableVariant(executor, input.variant_public_id))) throw notFound('Variant');
          const room = await cartRoom(executor, userId, input.variant_public_id);
          if (room.held === 0 && room.lines >= config.maxCartLines) throw cartFull(config.maxCartLines, room.lines);
          if (room.held + input.quantity > MAX_LINE_QUANTITY) {
            throw validationError(`A cart line holds at most ${MAX_LINE_QUANTITY} units`, [
              { field: 'quantity', message: `the line would exceed ${MAX_LINE_QUANTITY}` },
            ]);
          }
          if (attempt === 3) throw concurrentChange('The cart changed while the item was being added; send the add again');
        }
      };
      let replayed = false;
      if (!idempotency) await addNow(db);
      else ({ replayed } = await runIdempotent(db, ctx.actor.userId, idempotency, 200, clock.now(), (trx) => addNow(trx).then(() => null)));
      return { status: 200, data: await read(db, ctx.actor.userId), replayed };
    },

    async setQuantity(ctx: AuthedCtx, variantPublicId: string, input: CartItemSet): Promise<Cart> {
      return transaction(db, async (trx) => {
        const updated = isPublicId('var', variantPublicId)
          ? await setLineQuantity(trx, ctx.actor.userId, variantPublicId, input.quantity, clock.now())
          : undefined;
        if (!updated) throw notFound('Cart item');
        return read(trx, ctx.actor.userId);
      });
    },

    async removeLine(ctx: AuthedCtx, variantPublicId: string): Promise<Cart> {
      return transaction(db, async (trx) => {
        const removed = isPublicId('var', variantPublicId) ? await removeLine(trx, ctx.actor.userId, variantPublicId) : undefined;
        if (!removed) throw notFound('Cart item');
        return read(trx, ctx.actor.userId);
      });
    },

    clear: (ctx: AuthedCtx): Promise<void> => clearCart(db, ctx.actor.userId),
  };
}

export type CartService = ReturnType<typeof createCartService>;
