import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkAccountUses, checkCouponApplies, checkCouponDefinition, couponStatus, discountFor } from '../../src/coupons/rules.js';
import { AppError } from '../../src/lib/errors.js';
import { fromCents } from '../../src/lib/money.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const BEFORE = '2026-05-01T00:00:00Z';
const AFTER = '2026-07-01T00:00:00Z';

const coupon = (facts: Record<string, unknown> = {}) =>
  ({
    is_active: true,
    deleted_at: null,
    starts_at: null,
    expires_at: null,
    usage_limit: null,
    times_used: 0,
    minimum_order_amount: null,
    usage_limit_per_user: null,
    discount_type: 'PERCENTAGE',
    discount_value: '10',
    maximum_discount_amount: null,
    ...facts,
  }) as any;

const codeOf = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error.code;
  }
  return 'none';
};

test('the first rule that applies sets the status: off, ended, used up, not started, else active', () => {
  assert.equal(couponStatus(coupon(), NOW), 'ACTIVE');
  assert.equal(couponStatus(coupon({ is_active: false, expires_at: BEFORE }), NOW), 'INACTIVE');
  assert.equal(couponStatus(coupon({ deleted_at: BEFORE }), NOW), 'INACTIVE');
  assert.equal(couponStatus(coupon({ expires_at: BEFORE, usage_limit: 1, times_used: 1 }), NOW), 'EXPIRED');
  assert.equal(couponStatus(coupon({ expires_at: NOW.toISOString() }), NOW), 'EXPIRED', 'its end is exclusive');
  assert.equal(couponStatus(coupon({ usage_limit: 2, times_used: 2, starts_at: AFTER }), NOW), 'EXHAUSTED');
  assert.equal(couponStatus(coupon({ starts_at: AFTER }), NOW), 'SCHEDULED');
  assert.equal(couponStatus(coupon({ starts_at: NOW.toISOString() }), NOW), 'ACTIVE', 'its start is inclusive');
});

test('a discount is never negative, never above the subtotal, never above its cap', () => {
  const definition = fc.record({
    discount_type: fc.constantFrom('PERCENTAGE', 'FIXED_AMOUNT'),
    discount_value: fc.integer({ min: 1, max: 10_000 }).map(fromCents),
    maximum_discount_amount: fc.option(fc.integer({ min: 1, max: 100_000 }).map(fromCents), { nil: null }),
  });
  fc.assert(
    fc.property(definition, fc.integer({ min: 0, max: 10_000_000 }), (c, subtotal) => {
      const discount = discountFor(c as any, subtotal);
      assert.ok(discount >= 0 && discount <= subtotal);
      if (c.maximum_discount_amount !== null) assert.ok(discount <= Math.round(Number(c.maximum_discount_amount) * 100));
    }),
  );
  assert.equal(discountFor(coupon({ discount_value: '12.5' }), 1999), 250, '12.5% of 19.99 rounds half up');
  assert.equal(discountFor(coupon({ discount_type: 'FIXED_AMOUNT', discount_value: '30.00' }), 1999), 1999);
});

test('an order may use a coupon only while it is active and its subtotal reaches the minimum', () => {
  assert.equal(
    codeOf(() => checkCouponApplies(coupon(), NOW, 100)),
    'none',
  );
  assert.equal(
    codeOf(() => checkCouponApplies(coupon({ is_active: false }), NOW, 100)),
    'INVALID_COUPON',
  );
  assert.equal(
    codeOf(() => checkCouponApplies(coupon({ expires_at: BEFORE }), NOW, 100)),
    'INVALID_COUPON',
  );
  assert.equal(
    codeOf(() => checkCouponApplies(coupon({ starts_at: AFTER }), NOW, 100)),
    'INVALID_COUPON',
  );
  assert.equal(
    codeOf(() => checkCouponApplies(coupon({ usage_limit: 1, times_used: 1 }), NOW, 100)),
    'COUPON_EXHAUSTED',
  );
  assert.equal(
    codeOf(() => checkCouponApplies(coupon({ minimum_order_amount: '1.01' }), NOW, 100)),
    'INVALID_COUPON',
  );
  assert.equal(
    codeOf(() => checkCouponApplies(coupon({ minimum_order_amount: '1.00' }), NOW, 100)),
    'none',
  );
  assert.equal(
    codeOf(() => checkAccountUses(coupon({ usage_limit_per_user: 2 }), 2)),
    'COUPON_EXHAUSTED',
  );
  assert.equal(
    codeOf(() => checkAccountUses(coupon({ usage_limit_per_user: 2 }), 1)),
    'none',
  );
});

test('definitions the admin API refuses, each naming its field', () => {
  const fieldOf = (definition: Record<string, unknown>, timesUsed = 0): string | undefined => {
    try {
      checkCouponDefinition({ discount_type: 'FIXED_AMOUNT', discount_value: '5.00', ...definition }, timesUsed);
    } catch (error) {
      return (error as AppError).details?.[0]?.field;
    }
    return undefined;
  };
  assert.equal(fieldOf({}), undefined);
  assert.equal(fieldOf({ discount_value: '0' }), 'discount_value');
  assert.equal(fieldOf({ maximum_discount_amount: '0.00' }), 'maximum_discount_amount');
  assert.equal(fieldOf({ discount_type: 'PERCENTAGE', discount_value: '100.01' }), 'discount_value');
  assert.equal(fieldOf({ discount_type: 'PERCENTAGE', discount_value: '100' }), undefined);
  assert.equal(fieldOf({ starts_at: AFTER, expires_at: BEFORE }), 'expires_at');
  assert.equal(fieldOf({ starts_at: AFTER, expires_at: AFTER }), 'expires_at');
  assert.equal(fieldOf({ usage_limit: 2 }, 3), 'usage_limit');
  assert.equal(fieldOf({ usage_limit: 3 }, 3), undefined);
});
