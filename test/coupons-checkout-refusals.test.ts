import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkout } from './helpers/commerce.js';
import { COUPONS, HOUR, code, useCouponApp } from './helpers/coupons.js';
import { API, checkoutState, createCoupon, fails, ok } from './helpers/orders.js';

/** POST /orders with a coupon it refuses (unknown, inactive, not started, expired, below minimum, used up): nothing changes. */

const { t, variant, inHours, buyer, buy } = useCouponApp();

describe('POST /orders with a coupon that cannot be used: nothing changes', () => {
  /** Checks out with `couponCode`, expects the refusal, and proves order, cart, stock and coupon untouched. */
  async function refused(couponCode: string, couponId: string | undefined, status: number, errorCode: string, quantity = 1) {
    const s = await buyer(quantity);
    const beforeState = await checkoutState(t, s.user.public_id, [variant()], couponId);
    const error = fails(await checkout(s.client, s.addressId, { coupon_code: couponCode }), status, errorCode);
    assert.deepEqual(await checkoutState(t, s.user.public_id, [variant()], couponId), beforeState);
    assert.equal(beforeState.cart.length, 1);
    assert.equal(beforeState.orders.length, 0);
    return { error, s };
  }

  test('unknown code: 400 INVALID_COUPON', async () => {
    const { error } = await refused('NO-SUCH-CODE', undefined, 400, 'INVALID_COUPON');
    assert.equal(error.details?.[0]?.field, 'coupon_code');
  });

  test('inactive, deleted, not yet started, expired: 400 INVALID_COUPON', async () => {
    const inactive = await createCoupon(t.admin, { code: code(), is_active: false });
    await refused(inactive.code, inactive.public_id, 400, 'INVALID_COUPON');

    const deleted = await createCoupon(t.admin, { code: code() });
    ok(await t.admin.delete(`${COUPONS}/${deleted.public_id}`), 204);
    await refused(deleted.code, deleted.public_id, 400, 'INVALID_COUPON');

    const later = await createCoupon(t.admin, { code: code(), starts_at: inHours(1) });
    await refused(later.code, later.public_id, 400, 'INVALID_COUPON');

    const ending = await createCoupon(t.admin, { code: code(), expires_at: inHours(1) });
    await buy(ending.code); // valid before expiry
    t.clock.advance(HOUR + 60_000);
    await refused(ending.code, ending.public_id, 400, 'INVALID_COUPON');
    assert.equal(ok(await t.admin.get(`${COUPONS}/${ending.public_id}`)).times_used, 1);
    await buy(later.code); // the scheduled one has started meanwhile
  });

  test('below minimum_order_amount: 400 INVALID_COUPON; exactly the minimum is accepted', async () => {
    const coupon = await createCoupon(t.admin, { code: code(), minimum_order_amount: '40.00' });
    const { error } = await refused(coupon.code, coupon.public_id, 400, 'INVALID_COUPON', 1); // 20.00
    // The minimum and its currency as facts, for a client to say it in its own money format.
    assert.deepEqual(error.details?.[0], {
      field: 'coupon_code',
      message: 'the order subtotal must be at least 40.00 USD',
      minimum_order_amount: '40.00',
      currency: 'USD',
    });
    const order = await buy(coupon.code, 2); // 40.00
    assert.deepEqual([order.subtotal, order.discount_total, order.coupon_code], ['40.00', '1.00', coupon.code]);
  });

  test('used up: 409 COUPON_EXHAUSTED', async () => {
    const coupon = await createCoupon(t.admin, { code: code(), usage_limit: 1 });
    await buy(coupon.code);
    await refused(coupon.code, coupon.public_id, 409, 'COUPON_EXHAUSTED');
    assert.equal(ok(await t.admin.get(`${COUPONS}/${coupon.public_id}`)).times_used, 1);
  });

  test('per-user limit reached: 409 COUPON_EXHAUSTED for that account only', async () => {
    const coupon = await createCoupon(t.admin, { code: code(), usage_limit_per_user: 1 });
    const s = await buyer(1);
    ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    ok(await s.client.post(`${API}/cart/items`, { variant_public_id: variant(), quantity: 1 }));
    const beforeState = await checkoutState(t, s.user.public_id, [variant()], coupon.public_id);
    fails(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 409, 'COUPON_EXHAUSTED');
    assert.deepEqual(await checkoutState(t, s.user.public_id, [variant()], coupon.public_id), beforeState);
    assert.equal(beforeState.coupon?.times_used, 1);
    await buy(coupon.code); // another account still may
  });
});
