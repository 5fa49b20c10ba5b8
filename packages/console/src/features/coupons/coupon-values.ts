import type { DiscountType } from '../../api/domain';

/** A coupon as its form holds it (text as typed) and as the API takes it. */

export const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
export const WHOLE = /^\d{1,9}$/;

export interface CouponValues {
  code: string;
  discount_type: DiscountType;
  discount_value: string;
  minimum_order_amount: string;
  maximum_discount_amount: string;
  usage_limit: string;
  usage_limit_per_user: string;
  starts_at: string;
  expires_at: string;
  is_active: boolean;
}

export interface CouponFacts {
  code: string;
  discount_type: DiscountType;
  discount_value: string;
  minimum_order_amount: string | null;
  maximum_discount_amount: string | null;
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  starts_at: string | null;
  expires_at: string | null;
  is_active: boolean;
}

/**
 * `2026-11-24T10:00:00.000Z` as a datetime-local value read in UTC, and back. Every date and time the
 * console takes or shows is UTC, whatever the browser's time zone (the inputs say so).
 */
export const toUtcInput = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16) : '');
export const fromUtcInput = (value: string) => (value ? new Date(`${value.slice(0, 16)}:00Z`).toISOString() : null);

/** The form's values for a coupon, or for a new one (a percentage, active at once, no limits). */
export const couponValues = (c: CouponFacts | null): CouponValues => ({
  code: c?.code ?? '',
  discount_type: c?.discount_type ?? 'PERCENTAGE',
  discount_value: c?.discount_value ?? '',
  minimum_order_amount: c?.minimum_order_amount ?? '',
  maximum_discount_amount: c?.maximum_discount_amount ?? '',
  usage_limit: c?.usage_limit === null || c?.usage_limit === undefined ? '' : String(c.usage_limit),
  usage_limit_per_user: c?.usage_limit_per_user === null || c?.usage_limit_per_user === undefined ? '' : String(c.usage_limit_per_user),
  starts_at: toUtcInput(c?.starts_at ?? null),
  expires_at: toUtcInput(c?.expires_at ?? null),
  is_active: c?.is_active ?? true,
});

/** The body the API takes: empty optional fields are "no limit" (null). */
export const couponBody = (v: CouponValues) => ({
  code: v.code.trim(),
  discount_type: v.discount_type,
  discount_value: v.discount_value.trim(),
  minimum_order_amount: v.minimum_order_amount.trim() || null,
  maximum_discount_amount: v.maximum_discount_amount.trim() || null,
  usage_limit: v.usage_limit.trim() ? Number(v.usage_limit) : null,
  usage_limit_per_user: v.usage_limit_per_user.trim() ? Number(v.usage_limit_per_user) : null,
  starts_at: fromUtcInput(v.starts_at),
  expires_at: fromUtcInput(v.expires_at),
  is_active: v.is_active,
});

export type CouponBody = ReturnType<typeof couponBody>;
