import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { signUp } from './helpers/factories.js';
import { API, fails, moveOrder, ok, orderIn, orderState, placedOrder, unknownOrderId } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** Reading orders: the customer's own (GET /orders, GET /orders/{ord}), the admin's list, and who may see which. */

// The email worker is kept idle so queued messages keep their payloads for the checks.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' }, as: ['ADMIN'] });

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
    assert.deepEqual(
      all.data.map((o: any) => o.total),
      ['30.00', '40.00', '20.00'],
    );
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

  test("GET /orders/{ord}: your order 200; another account's, unknown or malformed IDs 404", async () => {
    const mine = await placedOrder(t, t.admin);
    const theirs = await placedOrder(t, t.admin);
    assert.deepEqual(ok(await mine.client.get(`${API}/orders/${mine.order.public_id}`)), mine.order);
    for (const id of [theirs.order.public_id, unknownOrderId(), 'ord_', 'garbage', mine.order.order_number]) {
      fails(await mine.client.get(`${API}/orders/${id}`), 404, 'NOT_FOUND');
    }
    fails(await mine.client.post(`${API}/orders/${theirs.order.public_id}/cancel`), 404, 'NOT_FOUND');
    assert.equal(ok(await theirs.client.get(`${API}/orders/${theirs.order.public_id}`)).status, 'PLACED');
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
    ok(await moveOrder(t.admin, b, { status: 'CONFIRMED' }));
    for (const [id, day] of [
      [a, '01'],
      [b, '02'],
      [c, '03'],
    ] as const) {
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
    const { orderId, variantId, client } = await orderIn(t, t.admin, 'PLACED');
    const beforeState = await orderState(t, t.admin, orderId, variantId);
    const anonymous = t.client();
    for (const [who, status, code] of [
      [client, 403, 'FORBIDDEN'],
      [anonymous, 401, 'UNAUTHENTICATED'],
    ] as const) {
      fails(await who.get(`${API}/admin/orders`), status, code);
      fails(await who.get(`${API}/admin/orders/${orderId}`), status, code);
      fails(await who.patch(`${API}/admin/orders/${orderId}`, { status: 'CONFIRMED' }), status, code);
    }
    const customer = await signUp(t);
    fails(await customer.client.patch(`${API}/admin/orders/${orderId}`, { status: 'CANCELLED' }), 403, 'FORBIDDEN');
    assert.deepEqual(await orderState(t, t.admin, orderId, variantId), beforeState);
  });
});
