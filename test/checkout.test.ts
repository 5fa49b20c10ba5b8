import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { ADDRESSES } from './helpers/addresses.js';
import type { RunningApp } from './helpers/app.js';
import { checkout, inventoryOf, sellableVariant, shopper } from './helpers/commerce.js';
import { addressInput, type Client } from './helpers/factories.js';
import { API, checkoutState, createCoupon, fails, ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

// The email worker is kept idle so queued messages keep their payloads for the checks.
const ENV = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' };
const t = useApp({ env: ENV, as: ['ADMIN'] });
/** A second service with tax, another currency and other shipping rules. */
const taxed = useApp({
  env: { ...ENV, TAX_RATE: '8.25', CURRENCY: 'EUR', SHIPPING_FLAT: '4.95', FREE_SHIPPING_FROM: '100.00' },
  as: ['ADMIN'],
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const PRICING = ['subtotal', 'discount_total', 'shipping_total', 'tax_total', 'total'] as const;
const pricing = (order: any) => Object.fromEntries(PRICING.map((k) => [k, order[k]]));

/** A shopper with one fresh variant per line (price, stock) in the cart. */
async function cartWith(app: RunningApp, staff: Client, lines: { price: string; quantity: number; stock?: number }[]) {
  const variantIds: string[] = [];
  for (const line of lines) variantIds.push((await sellableVariant(staff, { price: line.price, stock: line.stock ?? 100 })).variantId);
  const s = await shopper(
    app,
    lines.map((line, i) => ({ variantId: variantIds[i]!, quantity: line.quantity })),
  );
  return { ...s, variantIds };
}

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

  test('a line whose variant was deactivated or deleted is 409 VARIANT_UNAVAILABLE naming it', async () => {
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
    const error = await refused(s, body, 409, 'VARIANT_UNAVAILABLE', coupon.public_id);
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

describe('POST /orders: the order placed', () => {
  test('two lines: 19.99 x 3 + 5.01 x 1 = 64.98 plus 10.00 shipping; the order carries every contract field', async () => {
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3, stock: 10 },
      { price: '5.01', quantity: 1, stock: 10 },
    ]);
    const response = await checkout(s.client, s.addressId, { notes: 'Leave at the door' });
    const order = ok(response, 201);

    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '0.00',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '74.98',
    });
    assert.deepEqual(Object.keys(order).sort(), [
      'coupon_code',
      'currency',
      'discount_total',
      'items',
      'notes',
      'order_number',
      'payment',
      'placed_at',
      'public_id',
      'shipment',
      'shipping_address',
      'shipping_total',
      'status',
      'status_history',
      'subtotal',
      'tax_total',
      'total',
      'updated_at',
    ]);
    assert.match(order.public_id, /^ord_[A-Za-z0-9_-]{16,}$/);
    assert.match(order.order_number, /^ORD-\d{6}$/);
    assert.equal(order.status, 'PLACED');
    assert.equal(order.currency, 'USD');
    assert.equal(order.coupon_code, null);
    assert.equal(order.notes, 'Leave at the door');
    assert.equal(order.shipment, null);
    assert.deepEqual(order.payment, { method: 'mock', status: 'PAID' }); // the mock payment always succeeds
    assert.deepEqual(
      order.items.map((i: any) => [i.variant_public_id, i.unit_price, i.quantity, i.line_total]),
      [
        [s.variantIds[0], '19.99', 3, '59.97'],
        [s.variantIds[1], '5.01', 1, '5.01'],
      ],
    );
    assert.equal(order.status_history.length, 1);
    assert.deepEqual(
      { ...order.status_history[0], at: 'x' },
      { status: 'PLACED', at: 'x', by: { public_id: s.user.public_id, role: 'CUSTOMER' }, note: null },
    );
    assert.match(order.status_history[0].at, ISO_UTC);
    assert.match(order.placed_at, ISO_UTC);

    // Side effects: the cart is emptied, stock reserved, the confirmation email queued.
    assert.deepEqual(ok(await s.client.get(`${API}/cart`)).items, []);
    assert.deepEqual(await inventoryOf(t, s.variantIds[0]!), { quantity_on_hand: 10, quantity_reserved: 3 });
    assert.deepEqual(await inventoryOf(t, s.variantIds[1]!), { quantity_on_hand: 10, quantity_reserved: 1 });
    const emails = await t.db.selectFrom('outbox').select(['recipient', 'payload']).where('kind', '=', 'order_placed').execute();
    const mine = emails.filter((e) => (e.payload as any).order_public_id === order.public_id);
    assert.deepEqual(mine, [
      {
        recipient: s.email,
        payload: { order_public_id: order.public_id, order_number: order.order_number, total: '74.98', currency: 'USD' },
      },
    ]);
    const stored = await t.db.selectFrom('orders').selectAll().where('public_id', '=', order.public_id).executeTakeFirstOrThrow();
    assert.deepEqual([stored.subtotal, stored.total, stored.status], ['64.98', '74.98', 'PLACED']);
    assert.deepEqual(ok(await s.client.get(`${API}/orders/${order.public_id}`)), order);
  });

  test('shipping is free from a subtotal of exactly 500.00, charged at 499.99', async () => {
    const at = await cartWith(t, t.admin, [{ price: '250.00', quantity: 2 }]);
    assert.deepEqual(pricing(ok(await checkout(at.client, at.addressId), 201)), {
      subtotal: '500.00',
      discount_total: '0.00',
      shipping_total: '0.00',
      tax_total: '0.00',
      total: '500.00',
    });
    const below = await cartWith(t, t.admin, [{ price: '499.99', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(below.client, below.addressId), 201)), {
      subtotal: '499.99',
      discount_total: '0.00',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '509.99',
    });
  });

  test('PERCENTAGE 15% of 64.98 is 9.75 (9.747 rounded half up); the code matches case-insensitively', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `Save15${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '15',
    });
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: `  ${coupon.code.toLowerCase()} ` }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '9.75',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '65.23',
    });
    assert.equal(order.coupon_code, coupon.code);
  });

  test('a percentage landing exactly on half a cent rounds up: 12.5% of 10.12 = 1.265 -> 1.27', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `HALF${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '12.50',
    });
    const s = await cartWith(t, t.admin, [{ price: '10.12', quantity: 1 }]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '10.12',
      discount_total: '1.27',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '18.85',
    });
  });

  test('a percentage is capped by maximum_discount_amount; free shipping looks at the subtotal before the discount', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `CAP${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '50',
      maximum_discount_amount: '20.00',
    });
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    assert.deepEqual(pricing(ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201)), {
      subtotal: '64.98',
      discount_total: '20.00',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '54.98',
    });
    const big = await cartWith(t, t.admin, [{ price: '500.00', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(big.client, big.addressId, { coupon_code: coupon.code }), 201)), {
      subtotal: '500.00',
      discount_total: '20.00',
      shipping_total: '0.00',
      tax_total: '0.00',
      total: '480.00',
    });
  });

  test('a FIXED_AMOUNT above the subtotal discounts exactly the subtotal; shipping is still charged', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `BIG${randomBytes(3).toString('hex')}`,
      discount_type: 'FIXED_AMOUNT',
      discount_value: '100.00',
    });
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '64.98',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '10.00',
    });
    const usage = await t.db
      .selectFrom('coupon_usages')
      .select('discount_amount')
      .where('order_id', '=', (eb) => eb.selectFrom('orders').select('id').where('public_id', '=', order.public_id))
      .executeTakeFirstOrThrow();
    assert.equal(usage.discount_amount, '64.98');
  });

  test('TAX_RATE 8.25 applies to subtotal minus discount, rounded half up; currency and shipping come from config', async () => {
    const plain = await cartWith(taxed, taxed.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    assert.deepEqual(pricing(ok(await checkout(plain.client, plain.addressId), 201)), {
      subtotal: '64.98',
      discount_total: '0.00',
      shipping_total: '4.95',
      tax_total: '5.36',
      total: '75.29', // 5.36085
    });

    const coupon = await createCoupon(taxed.admin, { code: 'TAXED15', discount_type: 'PERCENTAGE', discount_value: '15' });
    const discounted = await cartWith(taxed, taxed.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    const order = ok(await checkout(discounted.client, discounted.addressId, { coupon_code: coupon.code.toLowerCase() }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '9.75',
      shipping_total: '4.95',
      tax_total: '4.56',
      total: '64.74',
    }); // 55.23 * 8.25% = 4.556475
    assert.equal(order.currency, 'EUR');

    const half = await cartWith(taxed, taxed.admin, [{ price: '2.00', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(half.client, half.addressId), 201)), {
      subtotal: '2.00',
      discount_total: '0.00',
      shipping_total: '4.95',
      tax_total: '0.17',
      total: '7.12', // 0.165 rounds up
    });
    const free = await cartWith(taxed, taxed.admin, [{ price: '100.00', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(free.client, free.addressId), 201)), {
      subtotal: '100.00',
      discount_total: '0.00',
      shipping_total: '0.00',
      tax_total: '8.25',
      total: '108.25',
    });
  });

  test('items and the shipping address are snapshots: later price, address or variant changes leave the order as placed', async () => {
    const s = await cartWith(t, t.admin, [{ price: '19.99', quantity: 2 }]);
    const address = ok(await s.client.get(`${ADDRESSES}/${s.addressId}`));
    const order = ok(await checkout(s.client, s.addressId), 201);
    const { public_id: _id, is_default_shipping: _s, is_default_billing: _b, created_at: _c, updated_at: _u, ...snapshot } = address;
    assert.deepEqual(order.shipping_address, snapshot);

    ok(await t.admin.patch(`${API}/admin/variants/${s.variantIds[0]}`, { price: '29.99', name: 'Renamed' }));
    ok(await s.client.patch(`${ADDRESSES}/${s.addressId}`, { city: 'Manchester', recipient_name: 'Someone Else' }));
    ok(await s.client.post(ADDRESSES, addressInput({ label: 'Second' })), 201);
    ok(await s.client.delete(`${ADDRESSES}/${s.addressId}`), 204);

    const later = ok(await s.client.get(`${API}/orders/${order.public_id}`));
    assert.deepEqual(later.items, order.items);
    assert.equal(later.items[0].unit_price, '19.99');
    assert.equal(later.items[0].line_total, '39.98');
    assert.deepEqual(later.shipping_address, order.shipping_address);
    assert.equal(later.shipping_address.city, 'London');
    assert.deepEqual(pricing(later), pricing(order));
  });

  test('consecutive orders get consecutive order numbers', async () => {
    const first = await cartWith(t, t.admin, [{ price: '1.00', quantity: 1 }]);
    const second = await cartWith(t, t.admin, [{ price: '1.00', quantity: 1 }]);
    const a = ok(await checkout(first.client, first.addressId), 201);
    const b = ok(await checkout(second.client, second.addressId), 201);
    assert.equal(Number(b.order_number.slice(4)), Number(a.order_number.slice(4)) + 1);
  });
});
