import type { Executor, Trx } from '../db/database.js';
import type { CouponRow } from '../db/schema.js';
import { invalidCoupon } from '../lib/errors.js';
import type { Cents } from '../lib/money.js';
import { countAccountUses, findCouponByCode, insertUse, lockCoupon, lockCouponByCode, releaseUse } from './repository.js';
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

/** Locks and checks the coupon with this code (any letter case) for an order of `subtotal` by `userId`; returns its discount. */
export async function applyCoupon(trx: Trx, input: { code: string; userId: number; subtotal: Cents; now: Date }): Promise<AppliedCoupon> {
  const coupon = await lockCouponByCode(trx, input.code.trim().toUpperCase());
  if (!coupon) throw invalidCoupon('unknown code');
  checkCouponApplies(coupon, input.now, input.subtotal);
  if (coupon.usage_limit_per_user !== null) checkAccountUses(coupon, await countAccountUses(trx, coupon.id, input.userId));
  return { coupon, discount: discountFor(coupon, input.subtotal) };
}

/**
 * The same checks and discount as applyCoupon, without the lock: what the coupon would take off an
 * order placed now (a quote). Checkout checks again under the lock, so a use taken in between still
 * refuses the order.
 */
export async function previewCoupon(db: Executor, input: { code: string; userId: number; subtotal: Cents; now: Date }) {
  const coupon = await findCouponByCode(db, input.code.trim().toUpperCase());
  if (!coupon) throw invalidCoupon('unknown code');
  checkCouponApplies(coupon, input.now, input.subtotal);
  if (coupon.usage_limit_per_user !== null) checkAccountUses(coupon, await countAccountUses(db, coupon.id, input.userId));
  return { code: coupon.code, discount: discountFor(coupon, input.subtotal) };
}

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
