import type { Config } from '../config.js';
import type { Db, Trx } from '../db/database.js';
import { findActiveAddress } from '../addresses/repository.js';
import { toAddressSnapshot, type AddressSnapshot } from '../addresses/schemas.js';
import { toLineItem } from '../cart/lines.js';
import { lockedCartLines, orderedLinesRemoval, type CartLineRow } from '../cart/repository.js';
import { applyCoupon, recordCouponUse } from '../coupons/redemption.js';
import { reserveStock } from '../inventory/stock-repository.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { cartEmpty, insufficientStock, notFound, totalChanged, validationError, variantUnavailable } from '../lib/errors.js';
import { runIdempotent, type IdempotencyRequest, type IdempotentResult } from '../idempotency/idempotency.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { fromCents, toCents } from '../lib/money.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import { queuedEmailFrom } from '../outbox/repository.js';
import { computedObject, eventFrom, recordEvent } from '../events/repository.js';
import type { EventOrder } from '../events/catalog.js';
import { orderEmailLines } from './order-emails.js';
import { insertPlacedOrder, newOrder } from './placement-repository.js';
import { amountsOf, priceOrder, pricedLines, subtotalOf } from './pricing.js';
import type { Order, PlaceOrder } from './schemas.js';

/** The largest amount an order column (NUMERIC(12, 2)) holds, in cents. */
const MAX_ORDER_AMOUNT = 999_999_999_999;

export interface CheckoutDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'commerce'>;
}

/**
 * POST /orders (contract section 8). One transaction: the cart, the coupon
 * (row-locked), the order with its snapshots, the coupon use, the email in
 * the outbox, the order.placed event, and last the stock reservation, so the inventory rows, the
 * hottest locks, are held only for the final statement and the commit.
 * Any failure rolls everything back: no reservation, no coupon use, cart intact.
 */
export function createCheckout({ db, clock, limiter, config }: CheckoutDeps) {
  function checkSellable(lines: CartLineRow[]): void {
    const off = lines.filter((line) => !line.on_sale);
    if (off.length > 0) {
      throw variantUnavailable(
        off.map((line) => ({ field: 'items', message: 'no longer on sale', variant_public_id: line.variant_public_id, sku: line.sku })),
      );
    }
  }

  /**
   * The address to ship to, if it is the customer's and live. Read before the
   * transaction, which need not wait on it; a missing one is refused inside,
   * after an idempotent retry has had the chance to replay.
   */
  async function shippingAddress(ctx: AuthedCtx, addressPublicId: string): Promise<AddressSnapshot | null> {
    const address = isPublicId('adr', addressPublicId) ? await findActiveAddress(db, ctx.actor.userId, addressPublicId) : undefined;
    return address ? toAddressSnapshot(address) : null;
  }

  /**
   * The transaction, in a fixed number of round trips whatever the cart
   * holds: the cart (locked), the coupon when there is one (coupons), the
   * order with its items and history in one statement, the emptied cart
   * lines (cart), the email (outbox), the coupon use (coupons), and last the
   * stock reservation in one statement (inventory), so the inventory rows,
   * the hottest locks, are held only for that statement and the commit.
   * Each table is written by its owner's function.
   */
  async function place(trx: Trx, ctx: AuthedCtx, input: PlaceOrder, snapshot: AddressSnapshot | null): Promise<Order> {
    if (!snapshot) throw notFound('Address');
    const userId = ctx.actor.userId;
    const lines = await lockedCartLines(trx, userId);
    if (lines.length === 0) throw cartEmpty();
    checkSellable(lines);

    const priced = pricedLines(lines);
    const applied = input.coupon_code
      ? await applyCoupon(trx, {
          code: input.coupon_code,
          userId,
          subtotal: subtotalOf(priced),
          currency: config.commerce.currency,
          now: clock.now(),
        })
      : null;
    const totals = priceOrder(priced, applied?.discount ?? 0, config.commerce);
    // Order amounts are stored as NUMERIC(12, 2); a larger order is refused rather than failing with a 500.
    if (Math.max(totals.subtotal, totals.total) > MAX_ORDER_AMOUNT) {
      throw validationError(`An order cannot exceed ${fromCents(MAX_ORDER_AMOUNT)}`, [
        { field: 'items', message: 'the order total is too large; lower the quantities' },
      ]);
    }
    // Priced from the rows this transaction read, so the total checked is the total stored.
    const expected = input.expected_total === undefined ? null : toCents(input.expected_total);
    if (expected !== null && totals.total > expected) throw totalChanged(fromCents(expected), fromCents(totals.total));

    // The order's money fields as stored and as answered.
    const amounts = amountsOf(totals);
    // The items as the customer sees them; the rows add the keys and the cost at the time of sale.
    const items = lines.map(toLineItem);
    const publicId = newPublicId('ord');
    const order = await insertPlacedOrder(
      trx,
      {
        publicId,
        userId,
        amounts,
        currency: config.commerce.currency,
        coupon: applied ? { id: applied.coupon.id, code: applied.coupon.code } : null,
        shippingAddress: snapshot,
        paymentMethod: input.payment_method,
        notes: input.notes ?? null,
        lines: lines.map((line, i) => ({ ...line, line_total: items[i]!.line_total })),
      },
      // Written by their owners' SQL in the same statement: the emptied lines, the confirmation with the order's
      // new number, and the order.placed event with its number and time.
      [
        orderedLinesRemoval(
          userId,
          lines.map((line) => line.variant_id),
        ),
        queuedEmailFrom(
          'order_placed',
          ctx.actor.email,
          {
            order_public_id: publicId,
            order_number: newOrder.orderNumber,
            // Every amount, not just the total, so the email's lines reconcile with it.
            ...amounts,
            coupon_code: applied?.coupon.code ?? null,
            currency: config.commerce.currency,
            items: orderEmailLines(items),
            shipping_address: snapshot,
          },
          newOrder.rows,
        ),
        eventFrom(
          'order.placed',
          publicId,
          {
            order: computedObject<EventOrder>(
              {
                public_id: publicId,
                status: 'PLACED',
                customer: { public_id: ctx.actor.publicId, email: ctx.actor.email },
                items,
                ...amounts,
                currency: config.commerce.currency,
                coupon_code: applied?.coupon.code ?? null,
                shipping_address: snapshot,
                payment: { method: input.payment_method, status: 'PAID' },
                notes: input.notes ?? null,
                shipment: null,
              },
              { order_number: newOrder.orderNumber, placed_at: newOrder.placedAt },
            ),
          },
          newOrder.rows,
        ),
      ],
    );
    if (applied) {
      await recordCouponUse(trx, applied, { userId, orderId: order.id, discount: amounts.discount_total });
      // The coupon's row is locked (applyCoupon), so this is the use that reached its limit, exactly once.
      const { coupon } = applied;
      if (coupon.usage_limit !== null && coupon.times_used + 1 >= coupon.usage_limit) {
        await recordEvent(trx, 'coupon.exhausted', coupon.public_id, {
          coupon: { public_id: coupon.public_id, code: coupon.code, usage_limit: coupon.usage_limit, times_used: coupon.times_used + 1 },
          order_public_id: publicId,
        });
      }
    }

    const shortages = await reserveStock(
      trx,
      lines.map((line) => ({ variantId: line.variant_id, quantity: line.quantity })),
      order.id,
      userId,
    );
    if (shortages.length > 0) {
      const byId = new Map(lines.map((line) => [line.variant_id, line]));
      throw insufficientStock(
        'Not enough stock for some items',
        shortages.map((s) => ({
          field: 'items',
          message: `only ${s.available} available`,
          variant_public_id: byId.get(s.variantId)!.variant_public_id,
          sku: byId.get(s.variantId)!.sku,
          requested: s.requested,
          available: s.available,
        })),
      );
    }

    // Everything the answer holds was written above: no need to read it back.
    return {
      public_id: order.public_id,
      order_number: order.order_number,
      status: 'PLACED',
      items,
      ...amounts,
      currency: config.commerce.currency,
      coupon_code: applied?.coupon.code ?? null,
      shipping_address: snapshot,
      payment: { method: input.payment_method, status: 'PAID' },
      notes: input.notes ?? null,
      shipment: null,
      status_history: [
        { status: 'PLACED', at: order.placed_at.toISOString(), by: { public_id: ctx.actor.publicId, role: ctx.actor.role }, note: null },
      ],
      placed_at: order.placed_at.toISOString(),
      updated_at: order.updated_at.toISOString(),
    };
  }

  return {
    async placeOrder(ctx: AuthedCtx, input: PlaceOrder, idempotency: IdempotencyRequest | null): Promise<IdempotentResult<Order>> {
      await limiter.hit(db, 'CHECKOUT', ctx.actor.publicId, { enforce: true });
      const snapshot = await shippingAddress(ctx, input.address_public_id);
      return runIdempotent(db, ctx.actor.userId, idempotency, 201, clock.now(), (trx) => place(trx, ctx, input, snapshot));
    },
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
