import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { checkout, inventoryOf, sellableVariant, shopper } from './helpers/commerce.js';
import { signUp } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { API, createCoupon, fails, ok, orderMovements, placedOrder } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

// The email worker is kept idle so queued messages keep their payloads for the checks.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' }, as: ['ADMIN'] });

type Status = 'PLACED' | 'CONFIRMED' | 'SHIPPED' | 'FULFILLED' | 'CANCELLED';
const STATUSES: Status[] = ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED'];
const PATH: Record<Status, Record<string, unknown>[]> = {
  PLACED: [],
  CONFIRMED: [{ status: 'CONFIRMED' }],
  SHIPPED: [{ status: 'CONFIRMED' }, { status: 'SHIPPED', carrier: 'UPS', tracking_number: '1Z999' }],
  FULFILLED: [{ status: 'CONFIRMED' }, { status: 'SHIPPED', carrier: 'UPS' }, { status: 'FULFILLED' }],
  CANCELLED: [{ status: 'CANCELLED' }],
};
const move = (order: string, body: Record<string, unknown>) => t.admin.patch(`${API}/admin/orders/${order}`, body);
const unknownOrder = () => `ord_${randomBytes(12).toString('base64url')}`;

/** A placed order of 3 units (stock 10), moved by the admin to `status`. */
async function orderIn(status: Status, extra: Record<string, unknown> = {}) {
  const placed = await placedOrder(t, t.admin, [{ quantity: 3, stock: 10, price: '10.00' }], extra);
  for (const body of PATH[status]) ok(await move(placed.order.public_id, body));
  return { ...placed, orderId: placed.order.public_id as string, variantId: placed.variantIds[0]! };
}

/** Everything a status change may touch. */
async function orderState(orderId: string, variantId: string) {
  const order = await t.db.selectFrom('orders').selectAll().where('public_id', '=', orderId).executeTakeFirstOrThrow();
  const count = async (table: 'order_status_history' | 'coupon_usages') =>
    (await t.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('order_id', '=', order.id).executeTakeFirstOrThrow()).n;
  const released = await t.db.selectFrom('coupon_usages').select('released_at').where('order_id', '=', order.id).execute();
  const coupons = await t.db.selectFrom('coupons').select(['public_id', 'times_used']).orderBy('id').execute();
  const customer = await t.db.selectFrom('users').select('email').where('id', '=', order.user_id).executeTakeFirstOrThrow();
  const outbox = await t.db.selectFrom('outbox').select(['kind']).where('recipient', '=', customer.email).orderBy('id').execute();
  return {
    order,
    history: await count('order_status_history'),
    usages: released,
    coupons,
    inventory: await inventoryOf(t, variantId),
    movements: (await orderMovements(t.admin, variantId)).length,
    outbox: outbox.map((e) => e.kind),
    audit: (await auditRows(t, 'order.status_change', orderId)).length,
  };
}

describe('customer orders: GET /orders, GET /orders/{ord}', () => {
  test('lists only your orders, filtered by status, sorted by placed_at or total either way, paginated', async () => {
    const { variantId } = await sellableVariant(t.admin, { price: '10.00', stock: 100 });
    const s = await shopper(t, []);
    const ids: string[] = [];
    for (const quantity of [1, 3, 2]) {
      ok(await s.client.post(`${API}/cart/items`, { variant_public_id: variantId, quantity }));
      ids.push(ok(await checkout(s.client, s.addressId), 201).public_id);
    }
    await placedOrder(t, t.admin); // someone else's order
    const [one, three, two] = ids as [string, string, string]; // totals 20.00, 40.00, 30.00
    ok(await s.client.post(`${API}/orders/${two}/cancel`));
    const list = async (query: string) => {
      const response = await s.client.get(`${API}/orders?${query}`);
      return { ids: (ok(response) as any[]).map((o) => o.public_id), meta: response.body.meta, data: response.body.data };
    };

    const all = await list('');
    assert.deepEqual(all.ids, [two, three, one], 'default: newest first');
    assert.deepEqual(all.meta, { page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual(all.data.map((o: any) => o.total), ['30.00', '40.00', '20.00']);
    assert.equal('customer' in all.data[0], false);
    assert.deepEqual((await list('sort=placed_at')).ids, [one, three, two]);
    assert.deepEqual((await list('sort=-placed_at')).ids, [two, three, one]);
    assert.deepEqual((await list('sort=total')).ids, [one, two, three]);
    assert.deepEqual((await list('sort=-total')).ids, [three, two, one]);
    assert.deepEqual((await list('status=CANCELLED')).ids, [two]);
    assert.deepEqual((await list('status=PLACED&sort=total')).ids, [one, three]);
    assert.deepEqual((await list('status=SHIPPED')).ids, []);

    const first = await list('sort=total&limit=2');
    assert.deepEqual(first.ids, [one, two]);
    assert.deepEqual(first.meta, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    const second = await list('sort=total&limit=2&page=2');
    assert.deepEqual(second.ids, [three]);
    assert.deepEqual(second.meta, { page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    const past = await list('sort=total&limit=2&page=3');
    assert.deepEqual(past.ids, []);
    assert.deepEqual(past.meta, { page: 3, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });

    for (const query of ['sort=email', 'limit=101', 'limit=0', 'page=0', 'status=LOST']) {
      fails(await s.client.get(`${API}/orders?${query}`), 400, 'VALIDATION_ERROR');
    }
    fails(await t.client().get(`${API}/orders`), 401, 'UNAUTHENTICATED');
  });

  test('GET /orders/{ord}: your order 200; another account\'s, unknown or malformed IDs 404', async () => {
    const mine = await placedOrder(t, t.admin);
    const theirs = await placedOrder(t, t.admin);
    assert.deepEqual(ok(await mine.client.get(`${API}/orders/${mine.order.public_id}`)), mine.order);
    for (const id of [theirs.order.public_id, unknownOrder(), 'ord_', 'garbage', mine.order.order_number]) {
      fails(await mine.client.get(`${API}/orders/${id}`), 404, 'NOT_FOUND');
    }
    fails(await mine.client.post(`${API}/orders/${theirs.order.public_id}/cancel`), 404, 'NOT_FOUND');
    assert.equal(ok(await theirs.client.get(`${API}/orders/${theirs.order.public_id}`)).status, 'PLACED');
  });
});

describe('POST /orders/{ord}/cancel', () => {
  for (const status of ['PLACED', 'CONFIRMED'] as const) {
    test(`while ${status}: 200 CANCELLED, the reservation and the coupon use are given back`, async () => {
      const coupon = await createCoupon(t.admin, { code: `BACK${randomBytes(3).toString('hex')}`, discount_value: '2.00', usage_limit: 5, usage_limit_per_user: 1 });
      const { client, orderId, variantId, addressId } = await orderIn(status, { coupon_code: coupon.code });
      assert.equal(ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`)).times_used, 1);
      assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 3 });

      const cancelled = ok(await client.post(`${API}/orders/${orderId}/cancel`));
      assert.equal(cancelled.status, 'CANCELLED');
      const last = cancelled.status_history.at(-1);
      assert.deepEqual([last.status, last.by.role], ['CANCELLED', 'CUSTOMER']);
      assert.deepEqual(cancelled.status_history.map((h: any) => h.status), status === 'PLACED' ? ['PLACED', 'CANCELLED'] : ['PLACED', 'CONFIRMED', 'CANCELLED']);
      assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 0 });
      assert.deepEqual(await orderMovements(t.admin, variantId), [
        { kind: 'ORDER_PLACED', delta_on_hand: 0, delta_reserved: 3, order_public_id: orderId },
        { kind: 'ORDER_CANCELLED', delta_on_hand: 0, delta_reserved: -3, order_public_id: orderId },
      ]);
      assert.equal(ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`)).times_used, 0);
      const usages = ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}/usages`));
      assert.deepEqual(usages.map((u: any) => [u.order_public_id, u.released]), [[orderId, true]]);
      const row = await t.db.selectFrom('coupon_usages').innerJoin('orders', 'orders.id', 'coupon_usages.order_id')
        .select('coupon_usages.released_at').where('orders.public_id', '=', orderId).executeTakeFirstOrThrow();
      assert.ok(row.released_at instanceof Date);

      // The per-user limit counts the use no more: the same account may use the coupon again.
      ok(await client.post(`${API}/cart/items`, { variant_public_id: variantId, quantity: 1 }));
      ok(await checkout(client, addressId, { coupon_code: coupon.code }), 201);
    });
  }

  for (const status of ['SHIPPED', 'FULFILLED', 'CANCELLED'] as const) {
    test(`while ${status}: 409 INVALID_TRANSITION and nothing changes`, async () => {
      const { client, orderId, variantId } = await orderIn(status);
      const beforeState = await orderState(orderId, variantId);
      fails(await client.post(`${API}/orders/${orderId}/cancel`), 409, 'INVALID_TRANSITION');
      assert.deepEqual(await orderState(orderId, variantId), beforeState);
    });
  }
});

describe('PATCH /admin/orders/{ord}: the lifecycle', () => {
  test('PLACED -> CONFIRMED -> SHIPPED -> FULFILLED with the stock effects of the contract at each step', async () => {
    const { orderId, variantId, email } = await orderIn('PLACED');
    const step = async (body: Record<string, unknown>, stock: { quantity_on_hand: number; quantity_reserved: number }) => {
      const order = ok(await move(orderId, body));
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
    const shipped = await step({ status: 'SHIPPED', carrier: 'DHL', tracking_number: 'JD0001' }, { quantity_on_hand: 7, quantity_reserved: 0 });
    assert.deepEqual(shipped.shipment, { carrier: 'DHL', tracking_number: 'JD0001' });
    const fulfilled = await step({ status: 'FULFILLED' }, { quantity_on_hand: 7, quantity_reserved: 0 });
    assert.deepEqual(fulfilled.status_history.map((h: any) => h.status), ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED']);
    assert.deepEqual(fulfilled.customer.email, email);
    assert.deepEqual(ok(await t.admin.get(`${API}/admin/orders/${orderId}`)), fulfilled);

    assert.deepEqual(await orderMovements(t.admin, variantId), [
      { kind: 'ORDER_PLACED', delta_on_hand: 0, delta_reserved: 3, order_public_id: orderId },
      { kind: 'ORDER_SHIPPED', delta_on_hand: -3, delta_reserved: -3, order_public_id: orderId },
    ]);
    const shippedEmail = await t.db.selectFrom('outbox').select(['recipient', 'payload']).where('kind', '=', 'order_shipped').execute();
    assert.deepEqual(shippedEmail.filter((e) => (e.payload as any).order_public_id === orderId), [
      { recipient: email, payload: { order_public_id: orderId, order_number: fulfilled.order_number, carrier: 'DHL', tracking_number: 'JD0001' } },
    ]);
    const audit = await auditRows(t, 'order.status_change', orderId);
    assert.deepEqual(audit.map((a) => [a.actor_public_id, a.entity_type, a.changes]), [
      [t.admin.user.public_id, 'order', { before: { status: 'PLACED' }, after: { status: 'CONFIRMED' } }],
      [t.admin.user.public_id, 'order', { before: { status: 'CONFIRMED' }, after: { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'JD0001' } }],
      [t.admin.user.public_id, 'order', { before: { status: 'SHIPPED' }, after: { status: 'FULFILLED' } }],
    ]);
  });

  for (const from of ['PLACED', 'CONFIRMED'] as const) {
    test(`${from} -> CANCELLED by an admin releases the reservation and the coupon use`, async () => {
      const coupon = await createCoupon(t.admin, { code: `ADM${randomBytes(3).toString('hex')}`, discount_value: '1.00' });
      const { orderId, variantId } = await orderIn(from, { coupon_code: coupon.code });
      const order = ok(await move(orderId, { status: 'CANCELLED', note: 'customer called' }));
      assert.equal(order.status, 'CANCELLED');
      assert.deepEqual(order.status_history.at(-1).by, { public_id: t.admin.user.public_id, role: 'ADMIN' });
      assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 10, quantity_reserved: 0 });
      assert.deepEqual((await orderMovements(t.admin, variantId)).map((m) => [m.kind, m.delta_reserved, m.order_public_id]), [
        ['ORDER_PLACED', 3, orderId],
        ['ORDER_CANCELLED', -3, orderId],
      ]);
      const stored = ok(await t.admin.get(`${API}/admin/coupons/${coupon.public_id}`));
      assert.equal(stored.times_used, 0);
      assert.deepEqual((await auditRows(t, 'order.status_change', orderId)).at(-1)?.reason, 'customer called');
    });
  }

  const forbidden: [Status, Status][] = [];
  for (const from of STATUSES) {
    const allowed = ({ PLACED: ['CONFIRMED', 'CANCELLED'], CONFIRMED: ['SHIPPED', 'CANCELLED'], SHIPPED: ['FULFILLED'], FULFILLED: [], CANCELLED: [] } as Record<Status, Status[]>)[from];
    for (const to of STATUSES) if (!allowed.includes(to)) forbidden.push([from, to]);
  }
  test(`every forbidden move (${forbidden.length} of them) is 409 INVALID_TRANSITION and changes nothing`, async () => {
    const orders = new Map<Status, Awaited<ReturnType<typeof orderIn>>>();
    for (const status of STATUSES) orders.set(status, await orderIn(status));
    for (const [from, to] of forbidden) {
      const { orderId, variantId } = orders.get(from)!;
      const beforeState = await orderState(orderId, variantId);
      const body = to === 'SHIPPED' ? { status: to, carrier: 'UPS' } : { status: to };
      fails(await move(orderId, body), 409, 'INVALID_TRANSITION');
      assert.deepEqual(await orderState(orderId, variantId), beforeState, `${from} -> ${to}`);
    }
  });

  test('shipping more than is on hand (an admin lowered it) is 409 INSUFFICIENT_STOCK and changes nothing', async () => {
    const { orderId, variantId } = await orderIn('CONFIRMED');
    ok(await t.admin.patch(`${API}/admin/inventory/${variantId}`, { quantity_on_hand: 2, reason: 'breakage' }));
    const beforeState = await orderState(orderId, variantId);
    assert.deepEqual(beforeState.inventory, { quantity_on_hand: 2, quantity_reserved: 3 });
    const error = fails(await move(orderId, { status: 'SHIPPED', carrier: 'UPS' }), 409, 'INSUFFICIENT_STOCK');
    assert.deepEqual(error.details?.map((d) => [d.requested, d.available]), [[3, 2]]);
    assert.deepEqual(await orderState(orderId, variantId), beforeState);
    assert.equal(ok(await move(orderId, { status: 'CANCELLED' })).status, 'CANCELLED');
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 2, quantity_reserved: 0 });
  });

  test('SHIPPED without a carrier, carrier on another status, unknown fields and bad statuses are 400; nothing changes', async () => {
    const { orderId, variantId } = await orderIn('CONFIRMED');
    const beforeState = await orderState(orderId, variantId);
    for (const body of [
      { status: 'SHIPPED' },
      { status: 'SHIPPED', tracking_number: 'X1' },
      { status: 'SHIPPED', carrier: '' },
      { status: 'CANCELLED', carrier: 'UPS' },
      { status: 'DELIVERED' },
      { status: 'FULFILLED', by: 'me' },
      {},
    ]) {
      fails(await move(orderId, body), 400, 'VALIDATION_ERROR');
    }
    assert.deepEqual(await orderState(orderId, variantId), beforeState);
    fails(await move(unknownOrder(), { status: 'CONFIRMED' }), 404, 'NOT_FOUND');
    fails(await move('nope', { status: 'CONFIRMED' }), 404, 'NOT_FOUND');
  });
});

describe('GET /admin/orders and access', () => {
  test('filters by status, searches order number and customer email, bounds placed_at from (inclusive) to (exclusive)', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 100 });
    const s = await shopper(t, []);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ok(await s.client.post(`${API}/cart/items`, { variant_public_id: variantId, quantity: 1 }));
      ids.push(ok(await checkout(s.client, s.addressId), 201).public_id);
    }
    const [a, b, c] = ids as [string, string, string];
    ok(await move(b, { status: 'CONFIRMED' }));
    for (const [id, day] of [[a, '01'], [b, '02'], [c, '03']] as const) {
      await sql`UPDATE orders SET placed_at = ${`2021-03-${day}T00:00:00Z`}::timestamptz WHERE public_id = ${id}`.execute(t.db);
    }
    const other = await placedOrder(t, t.admin);
    const list = async (query: string) => (ok(await t.admin.get(`${API}/admin/orders?${query}`)) as any[]).map((o) => o.public_id);

    assert.deepEqual(await list(`search=${encodeURIComponent(s.email.toUpperCase())}`), [c, b, a]);
    assert.deepEqual(await list(`search=${encodeURIComponent(s.email)}&status=CONFIRMED`), [b]);
    assert.deepEqual(await list(`search=${other.order.order_number}`), [other.order.public_id]);
    assert.deepEqual(await list(`search=${other.order.order_number.toLowerCase()}`), [other.order.public_id]);
    assert.deepEqual(await list('placed_from=2021-03-01T00:00:00Z&placed_to=2021-03-03T00:00:00Z'), [b, a]);
    assert.deepEqual(await list('placed_from=2021-03-02T00:00:00Z&placed_to=2021-03-04T00:00:00Z&sort=placed_at'), [b, c]);
    assert.deepEqual(await list('placed_to=2021-03-01T00:00:00Z'), []);
    assert.deepEqual(await list('status=CONFIRMED&placed_to=2022-01-01T00:00:00Z'), [b]);
    assert.deepEqual(await list(`customer=${s.user.public_id}`), [c, b, a], "one customer's orders by public ID");
    assert.deepEqual(await list(`customer=${s.user.public_id}&status=CONFIRMED`), [b]);
    assert.deepEqual(await list(`customer=${other.user.public_id}`), [other.order.public_id]);
    assert.deepEqual(await list('customer=usr_unknown'), [], 'an unknown customer has no orders');
    const all = await t.admin.get(`${API}/admin/orders?limit=100`);
    const mine = (ok(all) as any[]).find((o) => o.public_id === a);
    assert.deepEqual(mine.customer, { public_id: s.user.public_id, email: s.email });
    assert.ok((ok(all) as any[]).some((o) => o.public_id === other.order.public_id));
    assert.ok(all.body.meta.total >= 4);
    fails(await t.admin.get(`${API}/admin/orders?placed_from=yesterday`), 400, 'VALIDATION_ERROR');
    fails(await t.admin.get(`${API}/admin/orders?status=LOST`), 400, 'VALIDATION_ERROR');
  });

  test('customers get 403 and anonymous callers 401 on admin order endpoints; nothing changes', async () => {
    const { orderId, variantId, client } = await orderIn('PLACED');
    const beforeState = await orderState(orderId, variantId);
    const anonymous = t.client();
    for (const [who, status, code] of [[client, 403, 'FORBIDDEN'], [anonymous, 401, 'UNAUTHENTICATED']] as const) {
      fails(await who.get(`${API}/admin/orders`), status, code);
      fails(await who.get(`${API}/admin/orders/${orderId}`), status, code);
      fails(await who.patch(`${API}/admin/orders/${orderId}`, { status: 'CONFIRMED' }), status, code);
    }
    const customer = await signUp(t);
    fails(await customer.client.patch(`${API}/admin/orders/${orderId}`, { status: 'CANCELLED' }), 403, 'FORBIDDEN');
    assert.deepEqual(await orderState(orderId, variantId), beforeState);
  });
});
