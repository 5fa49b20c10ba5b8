import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { checkout, inventoryOf } from './helpers/commerce.js';
import { auditRows } from './helpers/inspect.js';
import { assertReconciles, queuedOrderEmail } from './helpers/order-emails.js';
import {
  API,
  ORDER_STATUSES,
  createCoupon,
  fails,
  moveOrder,
  ok,
  orderIn,
  orderMovements,
  orderState,
  unknownOrderId,
  type OrderStatus,
} from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** An order's life after checkout: the customer's cancel, and the admin's status moves with what each one changes (stock, coupon usage, history, mail, audit). */

// The email worker is kept idle so queued messages keep their payloads for the checks.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' }, as: ['ADMIN'] });

/** The order_cancelled messages queued for an order. */
async function cancellationEmails(orderId: string) {
  const rows = await t.db.selectFrom('outbox').select(['recipient', 'payload']).where('kind', '=', 'order_cancelled').execute();
  return rows.filter((e) => (e.payload as any).order_public_id === orderId);
}

/** What the cancellation email of `order` (as the API answers it after the cancel) carries. */
const cancellationPayload = (order: any, by: 'customer' | 'staff') => ({
  order_public_id: order.public_id,
  order_number: order.order_number,
  subtotal: order.subtotal,
  discount_total: order.discount_total,
  shipping_total: order.shipping_total,
  tax_total: order.tax_total,
  total: order.total,
  coupon_code: order.coupon_code,
  currency: order.currency,
  items: order.items.map((i: any) => ({
    product_name: i.product_name,
    sku: i.sku,
    options: i.options,
    quantity: i.quantity,
    unit_price: i.unit_price,
    line_total: i.line_total,
  })),
  refunded: true,
  cancelled_by: by,
});

describe('POST /orders/{ord}/cancel', () => {
  for (const status of ['PLACED', 'CONFIRMED'] as const) {
    test(`while ${status}: 200 CANCELLED, the reservation and the coupon use are given back`, async () => {
      const coupon = await createCoupon(t.admin, {
        code: `BACK${randomBytes(3).toString('hex')}`,
        discount_value: '2.00',
        usage_limit: 5,
        usage_limit_per_user: 1,
      });
      const { client, orderId, variantId, addressId, email } = await orderIn(t, t.admin, status, { coupon_code: coupon.code });
      assert.equal(ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`)).times_used, 1);
      assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 3 });

      const cancelled = ok(await client.post(`${API}/orders/${orderId}/cancel`));
      assert.equal(cancelled.status, 'CANCELLED');
      const last = cancelled.status_history.at(-1);
      assert.deepEqual([last.status, last.by.role], ['CANCELLED', 'CUSTOMER']);
      assert.deepEqual(
        cancelled.status_history.map((h: any) => h.status),
        status === 'PLACED' ? ['PLACED', 'CANCELLED'] : ['PLACED', 'CONFIRMED', 'CANCELLED'],
      );
      assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 0 });
      assert.deepEqual(await orderMovements(t.admin, variantId), [
        { kind: 'ORDER_PLACED', delta_on_hand: 0, delta_reserved: 3, order_public_id: orderId },
        { kind: 'ORDER_CANCELLED', delta_on_hand: 0, delta_reserved: -3, order_public_id: orderId },
      ]);
      assert.deepEqual(cancelled.payment, { method: 'mock', status: 'REFUNDED' });
      assert.deepEqual(await cancellationEmails(orderId), [{ recipient: email, payload: cancellationPayload(cancelled, 'customer') }]);
      // 3 x 10.00 less the 2.00 coupon plus 10.00 shipping: the email shows each amount, and what was refunded.
      const mail = await queuedOrderEmail(t, 'order_cancelled', orderId);
      assert.ok(
        mail.text.includes(
          `Subtotal: $30.00\nDiscount (${coupon.code}): -$2.00\nShipping: $10.00\nTotal: $38.00\n\nYour payment of $38.00 was refunded in full.`,
        ),
        mail.text,
      );
      assertReconciles(mail.text, 'USD');
      assert.equal(ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`)).times_used, 0);
      const usages = ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}/usages`));
      assert.deepEqual(
        usages.map((u: any) => [u.order_public_id, u.released]),
        [[orderId, true]],
      );
      const row = await t.db
        .selectFrom('coupon_usages')
        .innerJoin('orders', 'orders.id', 'coupon_usages.order_id')
        .select('coupon_usages.released_at')
        .where('orders.public_id', '=', orderId)
        .executeTakeFirstOrThrow();
      assert.ok(row.released_at instanceof Date);

      // The per-user limit counts the use no more: the same account may use the coupon again.
      ok(await client.post(`${API}/cart/items`, { variant_public_id: variantId, quantity: 1 }));
      ok(await checkout(client, addressId, { coupon_code: coupon.code }), 201);
    });
  }

  for (const status of ['SHIPPED', 'FULFILLED', 'CANCELLED'] as const) {
    test(`while ${status}: 409 INVALID_TRANSITION and nothing changes`, async () => {
      const { client, orderId, variantId } = await orderIn(t, t.admin, status);
      const beforeState = await orderState(t, t.admin, orderId, variantId);
      fails(await client.post(`${API}/orders/${orderId}/cancel`), 409, 'INVALID_TRANSITION');
      assert.deepEqual(await orderState(t, t.admin, orderId, variantId), beforeState);
    });
  }
});

describe('PATCH /admin/orders/{ord}: the lifecycle', () => {
  test('PLACED -> CONFIRMED -> SHIPPED -> FULFILLED with the stock effects of the contract at each step', async () => {
    const { orderId, variantId, email } = await orderIn(t, t.admin, 'PLACED');
    const step = async (body: Record<string, unknown>, stock: { quantity_on_hand: number; quantity_reserved: number }) => {
      const order = ok(await moveOrder(t.admin, orderId, body));
      assert.equal(order.status, body.status);
      assert.deepEqual(await inventoryOf(t, variantId), stock);
      const entry = order.status_history.at(-1);
      assert.deepEqual(entry.by, { public_id: t.admin.user.public_id, role: 'ADMIN' });
      assert.equal(entry.status, body.status);
      assert.ok(Math.abs(Date.parse(entry.at) - Date.now()) < 60_000, entry.at);
      return order;
    };
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 3 });
    const confirmed = await step({ status: 'CONFIRMED', note: 'checked by phone' }, { quantity_on_hand: 10, quantity_reserved: 3 });
    assert.equal(confirmed.status_history.at(-1).note, 'checked by phone');
    const shipped = await step(
      { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'JD0001' },
      { quantity_on_hand: 7, quantity_reserved: 0 },
    );
    assert.deepEqual(shipped.shipment, { carrier: 'DHL', tracking_number: 'JD0001' });
    const fulfilled = await step({ status: 'FULFILLED' }, { quantity_on_hand: 7, quantity_reserved: 0 });
    assert.deepEqual(
      fulfilled.status_history.map((h: any) => h.status),
      ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED'],
    );
    assert.deepEqual(fulfilled.customer.email, email);
    assert.deepEqual(ok(await t.admin.get(`${API}/admin/orders/${orderId}`)), fulfilled);

    assert.deepEqual(await orderMovements(t.admin, variantId), [
      { kind: 'ORDER_PLACED', delta_on_hand: 0, delta_reserved: 3, order_public_id: orderId },
      { kind: 'ORDER_SHIPPED', delta_on_hand: -3, delta_reserved: -3, order_public_id: orderId },
    ]);
    const shippedEmail = await t.db.selectFrom('outbox').select(['recipient', 'payload']).where('kind', '=', 'order_shipped').execute();
    assert.deepEqual(
      shippedEmail.filter((e) => (e.payload as any).order_public_id === orderId),
      [
        {
          recipient: email,
          payload: { order_public_id: orderId, order_number: fulfilled.order_number, carrier: 'DHL', tracking_number: 'JD0001' },
        },
      ],
    );
    const audit = await auditRows(t, 'order.status_change', orderId);
    assert.deepEqual(
      audit.map((a) => [a.actor_public_id, a.entity_type, a.changes]),
      [
        [t.admin.user.public_id, 'order', { before: { status: 'PLACED' }, after: { status: 'CONFIRMED' } }],
        [
          t.admin.user.public_id,
          'order',
          { before: { status: 'CONFIRMED' }, after: { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'JD0001' } },
        ],
        [t.admin.user.public_id, 'order', { before: { status: 'SHIPPED' }, after: { status: 'FULFILLED' } }],
      ],
    );
  });

  for (const from of ['PLACED', 'CONFIRMED'] as const) {
    test(`${from} -> CANCELLED by an admin releases the reservation and the coupon use`, async () => {
      const coupon = await createCoupon(t.admin, { code: `ADM${randomBytes(3).toString('hex')}`, discount_value: '1.00' });
      const { orderId, variantId, email } = await orderIn(t, t.admin, from, { coupon_code: coupon.code });
      const order = ok(await moveOrder(t.admin, orderId, { status: 'CANCELLED', note: 'customer called' }));
      assert.equal(order.status, 'CANCELLED');
      // The customer is emailed in the same transaction: the order, its lines, its total and the refund.
      assert.deepEqual(order.payment, { method: 'mock', status: 'REFUNDED' });
      assert.deepEqual(await cancellationEmails(orderId), [{ recipient: email, payload: cancellationPayload(order, 'staff') }]);
      assert.deepEqual(order.status_history.at(-1).by, { public_id: t.admin.user.public_id, role: 'ADMIN' });
      assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 0 });
      assert.deepEqual(
        (await orderMovements(t.admin, variantId)).map((m) => [m.kind, m.delta_reserved, m.order_public_id]),
        [
          ['ORDER_PLACED', 3, orderId],
          ['ORDER_CANCELLED', -3, orderId],
        ],
      );
      const stored = ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`));
      assert.equal(stored.times_used, 0);
      assert.deepEqual((await auditRows(t, 'order.status_change', orderId)).at(-1)?.reason, 'customer called');
    });
  }

  /** The lifecycle of the contract (section 8), written out here rather than read from the service it checks. */
  const ALLOWED: Record<OrderStatus, OrderStatus[]> = {
    PLACED: ['CONFIRMED', 'CANCELLED'],
    CONFIRMED: ['SHIPPED', 'CANCELLED'],
    SHIPPED: ['FULFILLED'],
    FULFILLED: [],
    CANCELLED: [],
  };
  const forbidden: [OrderStatus, OrderStatus][] = [];
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) if (!ALLOWED[from].includes(to)) forbidden.push([from, to]);
  }

  test("an order's detail lists exactly the moves the PATCH accepts from its status, and so does the PATCH's answer", async () => {
    for (const from of ORDER_STATUSES) {
      const { orderId } = await orderIn(t, t.admin, from);
      assert.deepEqual(ok(await t.admin.get(`${API}/admin/orders/${orderId}`)).allowed_transitions, ALLOWED[from], from);
      // Each listed move is accepted (on an order of its own), and the moved order lists the moves after it.
      for (const to of ALLOWED[from]) {
        const { orderId: fresh } = await orderIn(t, t.admin, from);
        const moved = ok(await moveOrder(t.admin, fresh, to === 'SHIPPED' ? { status: to, carrier: 'UPS' } : { status: to }));
        assert.deepEqual([moved.status, moved.allowed_transitions], [to, ALLOWED[to]], `${from} -> ${to}`);
      }
    }
  });
  test(`every forbidden move (${forbidden.length} of them) is 409 INVALID_TRANSITION and changes nothing`, async () => {
    const orders = new Map<OrderStatus, Awaited<ReturnType<typeof orderIn>>>();
    for (const status of ORDER_STATUSES) orders.set(status, await orderIn(t, t.admin, status));
    for (const [from, to] of forbidden) {
      const { orderId, variantId } = orders.get(from)!;
      const beforeState = await orderState(t, t.admin, orderId, variantId);
      const body = to === 'SHIPPED' ? { status: to, carrier: 'UPS' } : { status: to };
      fails(await moveOrder(t.admin, orderId, body), 409, 'INVALID_TRANSITION');
      assert.deepEqual(await orderState(t, t.admin, orderId, variantId), beforeState, `${from} -> ${to}`);
    }
  });

  test('shipping more than is on hand (an admin lowered it) is 409 INSUFFICIENT_STOCK and changes nothing', async () => {
    const { orderId, variantId } = await orderIn(t, t.admin, 'CONFIRMED');
    ok(await t.admin.patch(`${API}/admin/inventory/${variantId}`, { quantity_on_hand: 2, reason: 'breakage' }));
    const beforeState = await orderState(t, t.admin, orderId, variantId);
    assert.deepEqual(beforeState.inventory, { quantity_on_hand: 2, quantity_reserved: 3 });
    const error = fails(await moveOrder(t.admin, orderId, { status: 'SHIPPED', carrier: 'UPS' }), 409, 'INSUFFICIENT_STOCK');
    assert.deepEqual(
      error.details?.map((d) => [d.requested, d.available]),
      [[3, 2]],
    );
    assert.deepEqual(await orderState(t, t.admin, orderId, variantId), beforeState);
    assert.equal(ok(await moveOrder(t.admin, orderId, { status: 'CANCELLED' })).status, 'CANCELLED');
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 2, quantity_reserved: 0 });
  });

  test('SHIPPED without a carrier, carrier on another status, unknown fields and bad statuses are 400; nothing changes', async () => {
    const { orderId, variantId } = await orderIn(t, t.admin, 'CONFIRMED');
    const beforeState = await orderState(t, t.admin, orderId, variantId);
    for (const body of [
      { status: 'SHIPPED' },
      { status: 'SHIPPED', tracking_number: 'X1' },
      { status: 'SHIPPED', carrier: '' },
      { status: 'CANCELLED', carrier: 'UPS' },
      { status: 'DELIVERED' },
      { status: 'FULFILLED', by: 'me' },
      {},
    ]) {
      fails(await moveOrder(t.admin, orderId, body), 400, 'VALIDATION_ERROR');
    }
    assert.deepEqual(await orderState(t, t.admin, orderId, variantId), beforeState);
    fails(await moveOrder(t.admin, unknownOrderId(), { status: 'CONFIRMED' }), 404, 'NOT_FOUND');
    fails(await moveOrder(t.admin, 'nope', { status: 'CONFIRMED' }), 404, 'NOT_FOUND');
  });
});
