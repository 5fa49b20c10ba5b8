import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { ADDRESSES } from './helpers/addresses.js';
import { checkout, inventoryOf } from './helpers/commerce.js';
import { addressInput } from './helpers/factories.js';
import { assertReconciles, queuedOrderEmail } from './helpers/order-emails.js';
import { API, cartWith, createCoupon, ok, pricing } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** The order POST /orders places: its contract fields, side effects, snapshots and numbering. Its arithmetic: checkout-pricing. */

// The email worker is kept idle so queued messages keep their payloads for the checks.
const ENV = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' };
const t = useApp({ env: ENV, as: ['ADMIN'] });

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

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
        payload: {
          order_public_id: order.public_id,
          order_number: order.order_number,
          // Every amount as the order states it, for the email to show how the lines come to the total.
          subtotal: '64.98',
          discount_total: '0.00',
          shipping_total: '10.00',
          tax_total: '0.00',
          total: '74.98',
          coupon_code: null,
          currency: 'USD',
          // The lines and the address as placed, for the email to list.
          items: order.items.map(({ variant_public_id: _v, product_public_id: _p, ...line }: any) => line),
          shipping_address: order.shipping_address,
        },
      },
    ]);
    const stored = await t.db.selectFrom('orders').selectAll().where('public_id', '=', order.public_id).executeTakeFirstOrThrow();
    assert.deepEqual([stored.subtotal, stored.total, stored.status], ['64.98', '74.98', 'PLACED']);
    assert.deepEqual(ok(await s.client.get(`${API}/orders/${order.public_id}`)), order);
  });

  test('with a coupon: the confirmation email states the subtotal, the discount with its code, shipping, and the total they make', async () => {
    // The newcomer's order: 10% off one 65.00 item, 10.00 shipping, no tax.
    const coupon = await createCoupon(t.admin, {
      code: `WELCOME10${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '10',
    });
    const s = await cartWith(t, t.admin, [{ price: '65.00', quantity: 1 }]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '65.00',
      discount_total: '6.50',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '68.50',
    });

    const email = await queuedOrderEmail(t, 'order_placed', order.public_id);
    assert.equal(email.subject, `Order ${order.order_number} is confirmed`);
    assert.ok(
      email.text.includes(`65.00 each: $65.00\n\nSubtotal: $65.00\nDiscount (${coupon.code}): -$6.50\nShipping: $10.00\nTotal: $68.50\n\n`),
      email.text,
    );
    assert.doesNotMatch(email.text, /Tax/, 'no tax line when there is no tax');
    assertReconciles(email.text, 'USD');
    // The HTML part says the same.
    assert.ok(
      email.html.includes(`<p>Subtotal: $65.00<br>Discount (${coupon.code}): -$6.50<br>Shipping: $10.00<br>Total: $68.50</p>`),
      email.html,
    );
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
