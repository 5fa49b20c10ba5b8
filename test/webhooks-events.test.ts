import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { EVENT_CATALOG, EventEnvelope, SUBSCRIBABLE_TYPES, type EventType } from '../src/events/catalog.js';
import { API, expectStatus } from './helpers/catalog.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { createCoupon } from './helpers/orders.js';
import { moderate, postReview } from './helpers/reviews.js';
import { sleep } from './helpers/mail.js';
import { useApp } from './helpers/use-app.js';
import { createEndpoint, deliverDue, LOCAL_RECEIVERS, startReceiver, verify, type Receiver } from './helpers/webhooks.js';

/**
 * Events (issue 29): every event type of the catalog reaches a subscribed
 * endpoint, signed so that the `standardwebhooks` package verifies it, its
 * payload exactly the catalog's schema (no field more, none missing); an
 * event is written in the transaction of its change, so a refused change
 * leaves none; and a resource's events arrive in the order they happened.
 */

/** The schema as an allowlist: every object closed, so an extra field is an error. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  if (out.type === 'object' && out.properties) out.additionalProperties = false;
  return out;
}
const ajv = addFormats.default(new Ajv({ allErrors: true, strict: false }));
const validators = Object.fromEntries(
  (Object.keys(EVENT_CATALOG) as EventType[]).map((type) => [
    type,
    ajv.compile(closed(JSON.parse(JSON.stringify(EventEnvelope(type, EVENT_CATALOG[type].version, EVENT_CATALOG[type].data)))) as object),
  ]),
);

let receiver: Receiver;
before(async () => (receiver = await startReceiver()));
after(() => receiver.close());

const t = useApp({
  env: { ...LOCAL_RECEIVERS, EVENT_WORKER: 'off', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' },
  as: ['ADMIN', 'SUPER_ADMIN'],
});

const eventCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the catalog of events', () => {
  test('every event type is delivered to a subscriber, signed (standardwebhooks verifies it) and shaped exactly as its schema', async () => {
    const endpoint = await createEndpoint(t.superAdmin, receiver.url, SUBSCRIBABLE_TYPES);
    await deliverDue(t);
    receiver.arrivals.length = 0;

    // Stock 3 with a reorder level of 2: one sold is LOW_STOCK, the other two OUT_OF_STOCK, a cancellation back in stock.
    const { variantId, productId } = await sellableVariant(t.admin, { stock: 3, price: '20.00' });
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variantId}`, { reorder_level: 2 }), 200);
    expectStatus(await t.admin.patch(`${API}/admin/products/${productId}`, { description: 'Now with a description' }), 200);
    const coupon = await createCoupon(t.admin, { code: `ONCE${Date.now()}`, usage_limit: 1 });

    const first = await shopper(t, [{ variantId, quantity: 1 }]); // customer.registered
    const placed = expectStatus(await checkout(first.client, first.addressId, { coupon_code: coupon.code }), 201);
    const second = await shopper(t, [{ variantId, quantity: 2 }]);
    const soldOut = expectStatus(await checkout(second.client, second.addressId), 201);
    expectStatus(await t.admin.patch(`${API}/admin/orders/${placed.public_id}`, { status: 'CONFIRMED' }), 200);
    expectStatus(await second.client.post(`${API}/orders/${soldOut.public_id}/cancel`, {}), 200);

    const review = await postReview(first.client, productId);
    await moderate(t.admin, review.public_id, 'APPROVED');
    expectStatus(await t.admin.delete(`${API}/admin/products/${productId}`), 204);

    await deliverDue(t);
    const events: any[] = receiver.received().map((arrival) => {
      const event = verify(endpoint.secret, arrival);
      assert.equal(arrival.id, event.id, 'webhook-id is the event ID');
      const valid = validators[event.type as EventType]!;
      assert.ok(valid(JSON.parse(arrival.body)), `${event.type}: ${ajv.errorsText(valid.errors)}\n${arrival.body}`);
      return event;
    });
    assert.deepEqual(new Set(events.map((e) => e.type)), new Set(SUBSCRIBABLE_TYPES), 'every type arrived');
    assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'each event once');

    const of = (type: string) => events.filter((e) => e.type === type);
    const order = of('order.placed').find((e) => e.data.order.public_id === placed.public_id)!.data.order;
    // The payload carries what a warehouse needs without calling back: lines, totals, address, the customer.
    assert.deepEqual(
      { ...order, customer: undefined, shipment: undefined },
      {
        public_id: placed.public_id,
        order_number: placed.order_number,
        status: 'PLACED',
        customer: undefined,
        items: placed.items,
        subtotal: placed.subtotal,
        discount_total: placed.discount_total,
        shipping_total: placed.shipping_total,
        tax_total: placed.tax_total,
        total: placed.total,
        currency: placed.currency,
        coupon_code: coupon.code,
        shipping_address: placed.shipping_address,
        payment: placed.payment,
        notes: null,
        shipment: undefined,
        placed_at: placed.placed_at,
      },
    );
    assert.deepEqual(order.customer, { public_id: first.user.public_id, email: first.email });
    assert.deepEqual(
      of('inventory.low_stock').map((e) => [e.data.previous_stock_status, e.data.stock_status, e.data.quantity_available]),
      [['IN_STOCK', 'LOW_STOCK', 2]],
    );
    assert.deepEqual(
      of('inventory.out_of_stock').map((e) => [e.data.previous_stock_status, e.data.quantity_available]),
      [['LOW_STOCK', 0]],
    );
    assert.deepEqual(
      of('inventory.back_in_stock').map((e) => [e.data.stock_status, e.data.quantity_available]),
      [['LOW_STOCK', 2]],
    );
    assert.deepEqual(
      of('order.status_changed').map((e) => [e.data.order.public_id, e.data.from, e.data.to]),
      [
        [placed.public_id, 'PLACED', 'CONFIRMED'],
        [soldOut.public_id, 'PLACED', 'CANCELLED'],
      ],
    );
    assert.equal(of('order.cancelled')[0]!.data.order.payment.status, 'REFUNDED');
    assert.deepEqual(of('coupon.exhausted')[0]!.data, {
      coupon: { public_id: coupon.public_id, code: coupon.code, usage_limit: 1, times_used: 1 },
      order_public_id: placed.public_id,
    });
    assert.deepEqual(
      of('customer.registered')
        .map((e) => e.data.customer.email)
        .sort(),
      [first.email, second.email].sort(),
    );
    assert.deepEqual(of('review.submitted')[0]!.data.resubmitted, false);
    assert.equal(of('review.approved')[0]!.data.review.status, 'APPROVED');
    assert.equal(of('product.deleted')[0]!.data.product.public_id, productId);
    // Never secrets or password material.
    assert.doesNotMatch(JSON.stringify(events), /password|secret|token|cost_price/i);
  });

  test("a resource's events reach an endpoint in the order they happened", async () => {
    // The first test's endpoint is subscribed to these too, with its own secret: this one has a receiver of its own.
    const receiver = await startReceiver();
    after(() => receiver.close());
    // Each answer takes a moment: the next event of the order must not be sent before the last one was answered.
    receiver.answer = () => ({ status: 204, after: sleep(30) });
    const endpoint = await createEndpoint(t.superAdmin, receiver.url, ['order.placed', 'order.status_changed', 'order.cancelled']);
    const { variantId } = await sellableVariant(t.admin, { stock: 10 });
    const s = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = expectStatus(await checkout(s.client, s.addressId), 201);
    for (const status of ['CONFIRMED', 'CANCELLED'])
      expectStatus(await t.admin.patch(`${API}/admin/orders/${order.public_id}`, { status }), 200);
    await deliverDue(t);
    const arrivals = receiver.received().filter((arrival) => verify(endpoint.secret, arrival).data.order?.public_id === order.public_id);
    const types = arrivals.map((arrival) => `${arrival.event.type}${arrival.event.data.to ? `:${arrival.event.data.to}` : ''}`);
    assert.deepEqual(types, ['order.placed', 'order.status_changed:CONFIRMED', 'order.status_changed:CANCELLED', 'order.cancelled']);
    for (let i = 1; i < arrivals.length; i++)
      assert.ok(arrivals[i]!.arrivedAt >= arrivals[i - 1]!.answeredAt!, `${types[i]} was sent before ${types[i - 1]} was answered`);
  });
});

describe('a category renamed or deleted', () => {
  test('reports each product in it as updated, with the new name, then without the category; products elsewhere hear nothing', async () => {
    const category = expectStatus(await t.admin.post(`${API}/admin/categories`, { name: 'Mugs' }), 201);
    const other = expectStatus(await t.admin.post(`${API}/admin/categories`, { name: 'Plates' }), 201);
    const inIt: string[] = [];
    for (const [name, categories] of [
      ['Tall mug', [category.public_id]],
      ['Short mug', [category.public_id, other.public_id]],
      ['Plate', [other.public_id]],
    ] as const) {
      const product = expectStatus(
        await t.admin.post(`${API}/admin/products`, { name, status: 'ACTIVE', category_public_ids: [...categories] }),
        201,
      );
      if (categories.includes(category.public_id)) inIt.push(product.public_id);
    }
    const updates = async (since: number) =>
      (
        await t.db
          .selectFrom('events')
          .select(['ordering_key', 'payload'])
          .where('type', '=', 'product.updated')
          .where('id', '>', since)
          .orderBy('id')
          .execute()
      )
        .map((event) => ({ product: event.ordering_key, categories: (event.payload as any).product.categories.map((c: any) => c.name) }))
        .sort((a, b) => inIt.indexOf(a.product) - inIt.indexOf(b.product));
    const last = async () =>
      Number(
        (
          await t.db
            .selectFrom('events')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );

    let mark = await last();
    expectStatus(await t.admin.patch(`${API}/admin/categories/${category.public_id}`, { description: 'For tea.' }), 200);
    assert.deepEqual(await updates(mark), [], 'a description is not part of a product event');
    expectStatus(await t.admin.patch(`${API}/admin/categories/${category.public_id}`, { name: 'Cups' }), 200);
    assert.deepEqual(await updates(mark), [
      { product: inIt[0], categories: ['Cups'] },
      { product: inIt[1], categories: ['Cups', 'Plates'] },
    ]);

    mark = await last();
    assert.equal((await t.admin.delete(`${API}/admin/categories/${category.public_id}`)).status, 204);
    assert.deepEqual(await updates(mark), [
      { product: inIt[0], categories: [] },
      { product: inIt[1], categories: ['Plates'] },
    ]);
  });
});

describe('events are written in the transaction of their change', () => {
  test('a refused change writes no event; an event is recorded whether or not anyone subscribes', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 1 });
    const s = await shopper(t, [{ variantId, quantity: 5 }]);
    const before = await eventCount();
    const refused = await checkout(s.client, s.addressId);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(await eventCount(), before, 'an INSUFFICIENT_STOCK checkout rolled back its order.placed');

    const registered = await t.db.selectFrom('events').select(['type', 'payload']).where('ordering_key', '=', s.user.public_id).execute();
    assert.deepEqual(
      registered.map((e) => e.type),
      ['customer.registered'],
    );
    assert.equal((registered[0]!.payload as any).customer.email, s.email);
  });
});
