import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { cartLines } from '../cart/repository.js';
import { previewCoupon } from '../coupons/redemption.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import { amountsOf, priceOrder, pricedLines, subtotalOf } from './pricing.js';
import type { OrderQuote } from './schemas.js';

/**
 * What placing an order from the cart now would cost (GET /cart/quote): the
 * totals checkout computes (src/orders/checkout.ts, the same pricing and
 * coupon rules), so a storefront shows the discount, shipping, tax and
 * total before the shopper commits, and never does money arithmetic of its
 * own. It reserves and writes nothing; checkout checks everything again. A
 * quote that tries a coupon code counts against the account's checkout limit
 * (RATE_LIMIT_CHECKOUT), as trying the code at checkout would: guessing codes
 * costs the same either way.
 */
export function createQuote({
  db,
  clock,
  config,
  limiter,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'commerce'>;
  limiter: RateLimiter;
}) {
  return async (ctx: AuthedCtx, couponCode: string | undefined): Promise<OrderQuote> => {
    if (couponCode) await limiter.hit(db, 'CHECKOUT', ctx.actor.publicId, { enforce: true });
    const lines = await cartLines(db, ctx.actor.userId).execute();
    const priced = pricedLines(lines);
    const coupon = couponCode
      ? await previewCoupon(db, {
          code: couponCode,
          userId: ctx.actor.userId,
          subtotal: subtotalOf(priced),
          currency: config.commerce.currency,
          now: clock.now(),
        })
      : null;
    return {
      ...amountsOf(priceOrder(priced, coupon?.discount ?? 0, config.commerce)),
      currency: config.commerce.currency,
      coupon_code: coupon?.coupon.code ?? null,
      item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    };
  };
}

export type Quote = ReturnType<typeof createQuote>;
