import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { couponStatus, discountFor } from '../../src/coupons/rules.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const BASE = { is_active: true, starts_at: null, expires_at: null, usage_limit: null, times_used: 0, deleted_at: null };
const past = new Date(NOW.getTime() - 1000);
const future = new Date(NOW.getTime() + 1000);

describe('coupon status: the first rule that applies wins', () => {
  test('each rule alone', () => {
    assert.equal(couponStatus(BASE, NOW), 'ACTIVE');
    assert.equal(couponStatus({ ...BASE, is_active: false }, NOW), 'INACTIVE');
    assert.equal(couponStatus({ ...BASE, deleted_at: past }, NOW), 'INACTIVE');
    assert.equal(couponStatus({ ...BASE, expires_at: past }, NOW), 'EXPIRED');
    assert.equal(couponStatus({ ...BASE, expires_at: NOW }, NOW), 'EXPIRED', 'the end instant is already over');
    assert.equal(couponStatus({ ...BASE, usage_limit: 3, times_used: 3 }, NOW), 'EXHAUSTED');
    assert.equal(couponStatus({ ...BASE, usage_limit: 3, times_used: 2 }, NOW), 'ACTIVE');
    assert.equal(couponStatus({ ...BASE, starts_at: future }, NOW), 'SCHEDULED');
    assert.equal(couponStatus({ ...BASE, starts_at: NOW }, NOW), 'ACTIVE', 'the start instant is already on');
  });

  test('precedence: inactive > expired > exhausted > scheduled', () => {
    const all = { ...BASE, is_active: false, expires_at: past, usage_limit: 1, times_used: 1, starts_at: future };
    assert.equal(couponStatus(all, NOW), 'INACTIVE');
    assert.equal(couponStatus({ ...all, is_active: true }, NOW), 'EXPIRED');
    assert.equal(couponStatus({ ...all, is_active: true, expires_at: null }, NOW), 'EXHAUSTED');
    assert.equal(couponStatus({ ...all, is_active: true, expires_at: null, usage_limit: null }, NOW), 'SCHEDULED');
  });
});

describe('coupon discount', () => {
  test('examples: percentage half up, fixed amount, cap, never above the subtotal', () => {
    const pct = { discount_type: 'PERCENTAGE' as const, discount_value: '10.00', maximum_discount_amount: null };
    assert.equal(discountFor(pct, 7550), 755);
    assert.equal(discountFor(pct, 1005), 101);
    assert.equal(discountFor({ ...pct, maximum_discount_amount: '5.00' }, 7550), 500);
    const fixed = { discount_type: 'FIXED_AMOUNT' as const, discount_value: '3.00', maximum_discount_amount: null };
    assert.equal(discountFor(fixed, 2397), 300);
    assert.equal(discountFor(fixed, 250), 250, 'a fixed discount larger than the order takes it to zero, not below');
  });

  test('for any coupon and subtotal: 0 <= discount <= min(subtotal, cap)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('PERCENTAGE' as const, 'FIXED_AMOUNT' as const),
        fc.integer({ min: 1, max: 10_000 }),
        fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (type, value, cap, subtotal) => {
          const coupon = {
            discount_type: type,
            discount_value: type === 'PERCENTAGE' ? String(Math.min(value, 100)) : (value / 100).toFixed(2),
            maximum_discount_amount: cap === null ? null : (cap / 100).toFixed(2),
          };
          const discount = discountFor(coupon, subtotal);
          return discount >= 0 && discount <= subtotal && (cap === null || discount <= cap);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
