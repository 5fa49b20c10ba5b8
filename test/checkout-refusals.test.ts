import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { ADDRESSES } from './helpers/addresses.js';
import { checkout, inventoryOf, shopper } from './helpers/commerce.js';
import { addressInput, type Client } from './helpers/factories.js';
import { API, cartWith, checkoutState, createCoupon, fails, ok, pricing } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/**
 * POST /orders refused: each refusal's status and code, and proof that it
 * changed nothing. The order placed: checkout-order and checkout-pricing.
 */

// The email worker is kept idle so queued messages keep their payloads for the checks.
const ENV = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' };
const t = useApp({ env: ENV, as: ['ADMIN'] });

/** Sends a checkout that must fail with `status`/`code` and proves it changed nothing. */
async function refused(
  s: { client: Client; user: any; variantIds: string[] },
  body: Record<string, unknown>,
  status: number,
  code: string,
  couponId?: string,
) {
  const beforeState = await checkoutState(t, s.user.public_id, s.variantIds, couponId);
  const response = await s.client.post(`${API}/orders`, body);
  const error = fails(response, status, code);
  assert.deepEqual(await checkoutState(t, s.user.public_id, s.variantIds, couponId), beforeState);
  return error;
}

describe('POST /orders: refusals change nothing', () => {
  test("an unknown, malformed, deleted or another account's address is 404", async () => {
    const s = await cartWith(t, t.admin, [{ price: '10.00', quantity: 2 }]);
    const stranger = await shopper(t, []);
    const spare = ok(await s.client.post(ADDRESSES, addressInput({ label: 'Spare' })), 201);
    ok(await s.client.delete(`${ADDRESSES}/${spare.public_id}`), 204);
    const unknown = `adr_${randomBytes(12).toString('base64url')}`;

    for (const address of [unknown, stranger.addressId, spare.public_id, 'adr_!!', 'not-an-id', s.variantIds[0]!]) {
      await refused(s, { address_public_id: address, payment_method: 'mock' }, 404, 'NOT_FOUND');
    }
    assert.equal(ok(await s.client.get(`${API}/cart`)).item_count, 2);
    ok(await checkout(s.client, s.addressId), 201); // the same cart still checks out with a valid address
  });

  test('an empty cart is 409 CART_EMPTY', async () => {
    const s = { ...(await shopper(t, [])), variantIds: [] };
    await refused(s, { address_public_id: s.addressId, payment_method: 'mock' }, 409, 'CART_EMPTY');
  });

  test('a line whose variant was deactivated or deleted is 400 VARIANT_UNAVAILABLE naming it', async () => {
    const s = await cartWith(t, t.admin, [
      { price: '1.00', quantity: 1 },
      { price: '2.00', quantity: 1 },
      { price: '3.00', quantity: 1 },
    ]);
    const [fine, off, gone] = s.variantIds as [string, string, string];
    ok(await t.admin.patch(`${API}/admin/variants/${off}`, { status: 'INACTIVE' }));
    ok(await t.admin.delete(`${API}/admin/variants/${gone}`), 204);

    const coupon = await createCoupon(t.admin, { code: `OFF${randomBytes(3).toString('hex')}` });
    const body = { address_public_id: s.addressId, payment_method: 'mock', coupon_code: coupon.code };
    const error = await refused(s, body, 400, 'VARIANT_UNAVAILABLE', coupon.public_id);
    assert.deepEqual(error.details!.map((d) => d.variant_public_id).sort(), [off, gone].sort());
    assert.ok(!error.details!.some((d) => d.variant_public_id === fine));
  });

  test('short stock is 409 INSUFFICIENT_STOCK naming every short variant with requested and available; nothing is reserved', async () => {
    const s = await cartWith(t, t.admin, [
      { price: '5.00', quantity: 5, stock: 2 },
      { price: '6.00', quantity: 4, stock: 4 },
      { price: '7.00', quantity: 3, stock: 3 },
    ]);
    const [shortA, shortB, enough] = s.variantIds as [string, string, string];
    ok(await t.admin.patch(`${API}/admin/inventory/${shortB}/reservation`, { change: 1 })); // 3 of 4 left

    // A valid coupon is applied before the stock check fails: its use must be rolled back too.
    const coupon = await createCoupon(t.admin, { code: `ROLL${randomBytes(3).toString('hex')}`, usage_limit: 1 });
    const body = { address_public_id: s.addressId, payment_method: 'mock', coupon_code: coupon.code };
    const error = await refused(s, body, 409, 'INSUFFICIENT_STOCK', coupon.public_id);
    assert.equal(ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`)).times_used, 0);
    assert.deepEqual(ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}/usages`)), []);
    const short = error.details!.map((d) => ({ variant: d.variant_public_id, requested: d.requested, available: d.available }));
    const expected = [
      { variant: shortA, requested: 5, available: 2 },
      { variant: shortB, requested: 4, available: 3 },
    ];
    const byVariant = (a: { variant: string }, b: { variant: string }) => (a.variant < b.variant ? -1 : 1);
    assert.deepEqual(short.sort(byVariant), expected.sort(byVariant));
    assert.deepEqual(await inventoryOf(t, shortA), { quantity_on_hand: 2, quantity_reserved: 0 });
    assert.deepEqual(await inventoryOf(t, shortB), { quantity_on_hand: 4, quantity_reserved: 1 });
    assert.deepEqual(await inventoryOf(t, enough), { quantity_on_hand: 3, quantity_reserved: 0 });
  });

  test('a total above the expected_total sent is 409 TOTAL_CHANGED naming both; at or below it the order is placed', async () => {
    const s = await cartWith(t, t.admin, [{ price: '20.00', quantity: 2 }]);
    const quoted = ok(await s.client.get(`${API}/cart/quote`)).total; // 40.00 + 10.00 shipping
    assert.equal(quoted, '50.00');
    // The price moves after the buyer saw the total.
    ok(await t.admin.patch(`${API}/admin/variants/${s.variantIds[0]}`, { price: '21.00' }));
    const body = { address_public_id: s.addressId, payment_method: 'mock', expected_total: quoted };
    const error = await refused(s, body, 409, 'TOTAL_CHANGED');
    assert.deepEqual(error.details, [
      { field: 'expected_total', message: 'the order now costs 52.00', expected_total: '50.00', total: '52.00' },
    ]);

    // The same shape with whole units: 52 is 52.00, and a lower total than expected is no surprise.
    ok(await t.admin.patch(`${API}/admin/variants/${s.variantIds[0]}`, { price: '19.00' }));
    const order = ok(await checkout(s.client, s.addressId, { expected_total: '52' }), 201);
    assert.equal(order.total, '48.00');
  });

  test('an expected_total that is not an amount is 400', async () => {
    const s = await cartWith(t, t.admin, [{ price: '10.00', quantity: 1 }]);
    for (const expected_total of ['-1.00', '1.234', 'ten', '', 20, '1e3']) {
      const error = await refused(s, { address_public_id: s.addressId, payment_method: 'mock', expected_total }, 400, 'VALIDATION_ERROR');
      assert.equal(error.details?.[0]?.field, 'expected_total', String(expected_total));
    }
    ok(await checkout(s.client, s.addressId, { expected_total: '20.00' }), 201);
  });

  test('payment methods other than mock, unknown fields, notes over 1000 characters and a missing address are 400', async () => {
    const s = await cartWith(t, t.admin, [{ price: '10.00', quantity: 1 }]);
    const base = { address_public_id: s.addressId, payment_method: 'mock' };
    for (const body of [
      { ...base, payment_method: 'card' },
      { ...base, payment_method: 'MOCK' },
      { address_public_id: s.addressId },
      { payment_method: 'mock' },
      { ...base, gift_wrap: true },
      { ...base, notes: 'x'.repeat(1001) },
      { ...base, coupon_code: '' },
    ]) {
      await refused(s, body, 400, 'VALIDATION_ERROR');
    }
    const order = ok(await checkout(s.client, s.addressId, { notes: 'y'.repeat(1000) }), 201);
    assert.equal(order.notes, 'y'.repeat(1000));
  });

  test('an order too large for the amount columns (2 x 9999999999.99) is 400, not a 500', async () => {
    const s = await cartWith(t, t.admin, [{ price: '9999999999.99', quantity: 2 }]);
    assert.equal(ok(await s.client.get(`${API}/cart`)).subtotal, '19999999999.98');
    const error = await refused(s, { address_public_id: s.addressId, payment_method: 'mock' }, 400, 'VALIDATION_ERROR');
    assert.equal(error.details?.[0]?.field, 'items');
    ok(await s.client.patch(`${API}/cart/items/${s.variantIds[0]}`, { quantity: 1 }));
    const order = ok(await checkout(s.client, s.addressId), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '9999999999.99',
      discount_total: '0.00',
      shipping_total: '0.00',
      tax_total: '0.00',
      total: '9999999999.99',
    });
  });
});
