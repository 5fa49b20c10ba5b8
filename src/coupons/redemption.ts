import type { Executor, Trx } from '../db/database.js';
import type { CouponRow } from '../db/schema.js';
import { invalidCoupon } from '../lib/errors.js';
import type { Cents } from '../lib/money.js';
import { countAccountUses, findCouponByCode, insertUse, lockCoupon, releaseUse } from './repository.js';
import { checkAccountUses, checkCouponApplies, discountFor } from './rules.js';

/**
 * An order's use of a coupon, inside the order's transaction: checkout
 * applies it (the coupon row locked, so usage limits hold under any
 * concurrency) and records the use once the order exists; cancellation gives
 * the use back. The coupon row is locked before any inventory row, the lock
 * order both take.
 */
export interface AppliedCoupon {
  coupon: CouponRow;
  discount: Cents;
}

/** `currency`: the shop's, for the words of a refusal. */
type CouponRequest = { code: string; userId: number; subtotal: Cents; currency: string; now: Date };

/** The coupon with this code (any letter case), checked for an order of `subtotal` by `userId`, with its discount. */
async function checkedCoupon(db: Executor, input: CouponRequest, lock: boolean): Promise<AppliedCoupon> {
  const coupon = await findCouponByCode(db, input.code.trim().toUpperCase(), lock);
  if (!coupon) throw invalidCoupon('unknown code');
  checkCouponApplies(coupon, input.now, input.subtotal, input.currency);
  if (coupon.usage_limit_per_user !== null) checkAccountUses(coupon, await countAccountUses(db, coupon.id, input.userId));
  return { coupon, discount: discountFor(coupon, input.subtotal) };
}

/** Locks and checks the coupon for the order being placed; returns it with its discount. */
export const applyCoupon = (trx: Trx, input: CouponRequest): Promise<AppliedCoupon> => checkedCoupon(trx, input, true);

/**
 * The same checks and discount without the lock: what the coupon would take off an order placed now
 * (a quote). Checkout checks again under the lock, so a use taken in between still refuses the order.
 */
export const previewCoupon = (db: Executor, input: CouponRequest): Promise<AppliedCoupon> => checkedCoupon(db, input, false);

/** Records the applied coupon's use by the order (after applyCoupon, in the same transaction). */
export function recordCouponUse(
  trx: Trx,
  applied: AppliedCoupon,
  use: { userId: number; orderId: number; discount: string },
): Promise<void> {
  return insertUse(trx, { couponId: applied.coupon.id, ...use });
}

/** Gives back an order's use of its coupon (a cancellation); a use already given back stays as it is. */
export async function releaseCouponUse(trx: Trx, couponId: number, orderId: number, now: Date): Promise<void> {
  await lockCoupon(trx, couponId);
  await releaseUse(trx, couponId, orderId, now);
}
