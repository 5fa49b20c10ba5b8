import type { CouponRow } from '../db/schema.js';
import { percentOf, toCents, type Cents } from '../lib/money.js';

/** Pure coupon rules (contract section 9), shared by the admin API and checkout. */

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
