import type { CouponRow } from '../db/schema.js';
import { couponExhausted, invalidCoupon, validationError } from '../lib/errors.js';
import { percentOf, toCents, type Cents } from '../lib/money.js';

/**
 * Every coupon rule (contract section 9), pure: what a coupon's status is,
 * what it takes off a subtotal, whether an order may use it, and which
 * coupon definitions the admin API accepts. The data functions around them
 * are in repository.ts (SQL) and redemption.ts (checkout's use of a coupon).
 */

export type CouponStatus = 'INACTIVE' | 'SCHEDULED' | 'EXPIRED' | 'EXHAUSTED' | 'ACTIVE';

type CouponFacts = Pick<CouponRow, 'is_active' | 'starts_at' | 'expires_at' | 'usage_limit' | 'times_used' | 'deleted_at'>;

/** The first rule that applies wins: switched off, past its end, used up, not yet started, else active. */
export function couponStatus(coupon: CouponFacts, now: Date): CouponStatus {
  if (!coupon.is_active || coupon.deleted_at) return 'INACTIVE';
  if (coupon.expires_at && new Date(coupon.expires_at) <= now) return 'EXPIRED';
  if (coupon.usage_limit !== null && coupon.times_used >= coupon.usage_limit) return 'EXHAUSTED';
  if (coupon.starts_at && new Date(coupon.starts_at) > now) return 'SCHEDULED';
  return 'ACTIVE';
}

type DiscountFacts = Pick<CouponRow, 'discount_type' | 'discount_value' | 'maximum_discount_amount'>;

/** The discount on a subtotal: percentage rounded half up, capped by the maximum, never above the subtotal. */
export function discountFor(coupon: DiscountFacts, subtotal: Cents): Cents {
  let discount = coupon.discount_type === 'PERCENTAGE' ? percentOf(subtotal, coupon.discount_value) : toCents(coupon.discount_value);
  if (coupon.maximum_discount_amount !== null) discount = Math.min(discount, toCents(coupon.maximum_discount_amount));
  return Math.min(discount, subtotal);
}

/**
 * Refuses a coupon an order may not use: not active (400 INVALID_COUPON,
 * with the reason), used up (409 COUPON_EXHAUSTED) or a subtotal below its
 * minimum (400). The per-account limit is checkAccountUses.
 */
export function checkCouponApplies(
  coupon: CouponFacts & Pick<CouponRow, 'minimum_order_amount'>,
  now: Date,
  subtotal: Cents,
  currency: string,
): void {
  const status = couponStatus(coupon, now);
  if (status === 'INACTIVE') throw invalidCoupon('the coupon is not active');
  if (status === 'EXPIRED') throw invalidCoupon('the coupon has expired');
  if (status === 'SCHEDULED') throw invalidCoupon('the coupon is not valid yet');
  if (status === 'EXHAUSTED') throw couponExhausted(false);
  if (coupon.minimum_order_amount !== null && subtotal < toCents(coupon.minimum_order_amount)) {
    throw invalidCoupon(`the order subtotal must be at least ${coupon.minimum_order_amount} ${currency}`, {
      minimum_order_amount: coupon.minimum_order_amount,
      currency,
    });
  }
}

/** Refuses a coupon the account has used (uses not given back) as often as it allows (409 COUPON_EXHAUSTED). */
export function checkAccountUses(coupon: Pick<CouponRow, 'usage_limit_per_user'>, usedByAccount: number): void {
  if (coupon.usage_limit_per_user !== null && usedByAccount >= coupon.usage_limit_per_user) throw couponExhausted(true);
}

/** A coupon definition as the admin API holds it, after a create or a patch is merged. */
interface CouponDefinition {
  discount_type: string;
  discount_value: string;
  maximum_discount_amount?: string | null;
  starts_at?: string | Date | null;
  expires_at?: string | Date | null;
  usage_limit?: number | null;
}

/** Checks that hold across fields; `timesUsed` (an edit) also keeps the usage limit at or above the uses already made. */
export function checkCouponDefinition(c: CouponDefinition, timesUsed = 0): void {
  if (Number(c.discount_value) <= 0)
    throw validationError('discount_value must be above zero', [{ field: 'discount_value', message: 'must be > 0' }]);
  // A cap of zero would make the coupon worthless (and the database refuses it).
  if (c.maximum_discount_amount !== undefined && c.maximum_discount_amount !== null && Number(c.maximum_discount_amount) <= 0) {
    throw validationError('maximum_discount_amount must be above zero', [
      { field: 'maximum_discount_amount', message: 'must be > 0 (or null for no cap)' },
    ]);
  }
  if (c.discount_type === 'PERCENTAGE' && Number(c.discount_value) > 100) {
    throw validationError('A percentage discount is at most 100', [{ field: 'discount_value', message: 'must be <= 100 for PERCENTAGE' }]);
  }
  if (c.starts_at && c.expires_at && new Date(c.starts_at) >= new Date(c.expires_at)) {
    throw validationError('expires_at must be after starts_at', [{ field: 'expires_at', message: 'must be after starts_at' }]);
  }
  if (c.usage_limit !== undefined && c.usage_limit !== null && c.usage_limit < timesUsed) {
    throw validationError('usage_limit cannot be below the uses already made', [
      { field: 'usage_limit', message: `must be at least ${timesUsed}` },
    ]);
  }
}
