import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkout, inBatches, inventoryOf, sellableVariant, shopper, tag } from '../helpers/commerce.js';
import { errorOf } from '../helpers/factories.js';
import { someoneWaitsOnALock } from '../helpers/lock-waits.js';
import { transactionRetries } from '../../src/db/transaction.js';
import { useApp } from '../helpers/use-app.js';

// Races need many accounts from one IP and many checkouts a minute.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' }, as: ['ADMIN'] });

type Line = { variant_public_id: string; quantity: number };

const countBy = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('checkout under concurrency', () => {
  test('100 concurrent checkouts of 1 unit with 5 in stock: exactly 5 orders, 95 INSUFFICIENT_STOCK, no oversell', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 5, price: '20.00' });
    const shoppers = await inBatches(100, 10, () => shopper(t, [{ variantId, quantity: 1 }]));

    const responses = await Promise.all(shoppers.map((s) => checkout(s.client, s.addressId)));

    assert.deepEqual(countBy(responses.map((r) => r.status)), { 201: 5, 409: 95 });
    for (const r of responses.filter((r) => r.status === 409)) {
      const error = errorOf(r);
      assert.equal(error.code, 'INSUFFICIENT_STOCK');
      assert.equal((error.details?.[0] as any).variant_public_id, variantId);
      assert.equal((error.details?.[0] as any).available, 0);
    }
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 5, quantity_reserved: 5 });
    const record = await t.admin.get(`/api/v1/admin/inventory/${variantId}`);
    assert.equal(record.body.data.quantity_available, 0);
    assert.equal(record.body.data.stock_status, 'OUT_OF_STOCK');

    const placed = responses.filter((r) => r.status === 201).map((r) => r.body.data.public_id);
    const orders = await t.db.selectFrom('orders').select('public_id').where('public_id', 'in', placed).execute();
    assert.equal(orders.length, 5);
    const movements = await t.admin.get(`/api/v1/admin/inventory/${variantId}/movements?limit=100`);
    assert.equal(movements.body.data.filter((m: any) => m.kind === 'ORDER_PLACED').length, 5);
    assert.deepEqual(
      new Set(movements.body.data.filter((m: any) => m.kind === 'ORDER_PLACED').map((m: any) => m.order_public_id)),
      new Set(placed),
    );

    // The 95 losers keep their carts; the 5 winners' carts are empty.
    const carts = await Promise.all(shoppers.map((s) => s.client.get('/api/v1/cart')));
    const counts = carts.map((c) => c.body.data.item_count);
    assert.equal(counts.filter((n) => n === 0).length, 5);
    assert.equal(counts.filter((n) => n === 1).length, 95);
    const emails = await t.db.selectFrom('outbox').select('payload').where('kind', '=', 'order_placed').execute();
    assert.equal(emails.filter((e) => placed.includes((e.payload as any).order_public_id)).length, 5);
  });

  test('carts of two variants in opposite orders race without deadlock or oversell', async () => {
    const a = await sellableVariant(t.admin, { stock: 10 });
    const b = await sellableVariant(t.admin, { stock: 10 });
    const shoppers = await inBatches(40, 10, (i) =>
      shopper(
        t,
        i % 2 === 0
          ? [
              { variantId: a.variantId, quantity: 1 },
              { variantId: b.variantId, quantity: 1 },
            ]
          : [
              { variantId: b.variantId, quantity: 1 },
              { variantId: a.variantId, quantity: 1 },
            ],
      ),
    );

    const responses = await Promise.all(shoppers.map((s) => checkout(s.client, s.addressId)));

    assert.deepEqual(countBy(responses.map((r) => r.status)), { 201: 10, 409: 30 });
    for (const r of responses.filter((r) => r.status === 409)) assert.equal(errorOf(r).code, 'INSUFFICIENT_STOCK');
    assert.deepEqual(await inventoryOf(t, a.variantId), { quantity_on_hand: 10, quantity_reserved: 10 });
    assert.deepEqual(await inventoryOf(t, b.variantId), { quantity_on_hand: 10, quantity_reserved: 10 });
  });

  test('one account double-submitting gets one order; the repeats find the cart empty', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 50 });
    const s = await shopper(t, [{ variantId, quantity: 2 }]);

    const responses = await Promise.all(Array.from({ length: 10 }, () => checkout(s.client, s.addressId)));

    assert.deepEqual(countBy(responses.map((r) => r.status)), { 201: 1, 409: 9 });
    for (const r of responses.filter((r) => r.status === 409)) assert.equal(errorOf(r).code, 'CART_EMPTY');
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 50, quantity_reserved: 2 });
  });

  test("the account's own cart adds racing its checkout: each acknowledged add is in the order or still in the cart, once", async () => {
    const [a, b, c] = await inBatches(3, 3, async () => (await sellableVariant(t.admin, { stock: 10_000 })).variantId);
    const before = { ...transactionRetries(t.db) };
    const reserved = { a: 0, c: 0 };
    // Rounds, so some adds land in the moment between checkout's lock on the cart and its order.
    for (let round = 0; round < 8; round++) {
      const s = await shopper(t, [
        { variantId: a!, quantity: 1 },
        { variantId: b!, quantity: 1 },
      ]);
      const add = (variant: string, i: number) =>
        s.client.post(
          '/api/v1/cart/items',
          { variant_public_id: variant, quantity: 1 },
          // Half keyed (one transaction with the key's row), half one statement each.
          i % 2 === 0 ? { headers: { 'idempotency-key': `race-${variant}-${i}` } } : {},
        );
      const [order, ...adds] = await Promise.all([
        checkout(s.client, s.addressId),
        ...Array.from({ length: 12 }, (_, i) => add(a!, i)),
        ...Array.from({ length: 12 }, (_, i) => add(c!, i)),
      ]);
      assert.equal(order!.status, 201, order!.text);
      for (const response of adds) assert.equal(response.status, 200, response.text);

      const ordered = (await s.client.get(`/api/v1/orders/${order!.body.data.public_id}`)).body.data.items as Line[];
      const left = (await s.client.get('/api/v1/cart')).body.data.items as Line[];
      const units = (lines: Line[], variant: string) =>
        lines.filter((l) => l.variant_public_id === variant).reduce((n, l) => n + l.quantity, 0);
      // Everything added went somewhere, once: the order took what its lock found, the cart kept the rest.
      assert.equal(units(ordered, a!) + units(left, a!), 13, `round ${round}: ${a}`);
      assert.equal(units(ordered, c!) + units(left, c!), 12, `round ${round}: ${c}`);
      assert.deepEqual([units(ordered, b!), units(left, b!)], [1, 0], 'the line in the cart before the checkout was ordered');
      reserved.a += units(ordered, a!);
      reserved.c += units(ordered, c!);
    }
    assert.deepEqual(transactionRetries(t.db), before, 'no transaction was aborted as a deadlock victim');
    const stock = await Promise.all([a!, c!].map(async (v) => (await inventoryOf(t, v)).quantity_reserved));
    assert.deepEqual(stock, [reserved.a, reserved.c], 'stock reserved for exactly what was ordered');
  });

  test('an add made while checkout holds the cart (waiting for its coupon) stays in the cart: checkout empties only the lines it ordered', async () => {
    const [a, c] = await inBatches(2, 2, async () => (await sellableVariant(t.admin, { stock: 100 })).variantId);
    const s = await shopper(t, [{ variantId: a!, quantity: 1 }]);
    const code = `HOLD${tag()}`;
    assert.equal((await t.admin.post('/api/v1/admin/coupons', { code, discount_type: 'PERCENTAGE', discount_value: '10' })).status, 201);
    let placing: ReturnType<typeof checkout> | undefined;
    await t.db.transaction().execute(async (trx) => {
      // The coupon held: checkout locks the cart's lines (step 4), then waits here for the coupon (step 5).
      await trx.selectFrom('coupons').select('id').where('code', '=', code).forUpdate().execute();
      placing = checkout(s.client, s.addressId, { coupon_code: code });
      await someoneWaitsOnALock(t.db);
      const added = await s.client.post('/api/v1/cart/items', { variant_public_id: c, quantity: 2 });
      assert.equal(added.status, 200, added.text);
    });
    const order = await placing!;
    assert.equal(order.status, 201, order.text);
    assert.deepEqual(
      (order.body.data.items as Line[]).map((l) => [l.variant_public_id, l.quantity]),
      [[a, 1]],
    );
    const left = (await s.client.get('/api/v1/cart')).body.data.items as Line[];
    assert.deepEqual(
      left.map((l) => [l.variant_public_id, l.quantity]),
      [[c, 2]],
      'the add acknowledged during the checkout is kept',
    );
  });

  test('a retried checkout with the same Idempotency-Key returns the first order and creates no second one', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 50 });
    const s = await shopper(t, [{ variantId, quantity: 1 }]);

    const responses = await Promise.all(
      Array.from({ length: 5 }, () => checkout(s.client, s.addressId, {}, { 'idempotency-key': 'checkout-1' })),
    );

    assert.ok(
      responses.every((r) => r.status === 201),
      JSON.stringify(responses.map((r) => r.status)),
    );
    assert.equal(new Set(responses.map((r) => r.body.data.public_id)).size, 1);
    assert.equal(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 4);
    const orders = await t.db
      .selectFrom('orders')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select('orders.id')
      .where('users.public_id', '=', s.user.public_id)
      .execute();
    assert.equal(orders.length, 1);
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 50, quantity_reserved: 1 });

    const reused = await checkout(s.client, s.addressId, { notes: 'different' }, { 'idempotency-key': 'checkout-1' });
    assert.equal(reused.status, 409);
    assert.equal(errorOf(reused).code, 'IDEMPOTENCY_KEY_REUSED');
  });

  test('40 checkouts racing a price rise: none is charged more than the expected_total it sent', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 100, price: '20.00' });
    const shoppers = await inBatches(40, 10, () => shopper(t, [{ variantId, quantity: 1 }]));
    const quoted = (await shoppers[0]!.client.get('/api/v1/cart/quote')).body.data.total;
    assert.equal(quoted, '30.00'); // 20.00 + 10.00 shipping

    // The price rises while the checkouts are in flight: each sent the total its buyer was shown.
    const fire = (s: (typeof shoppers)[number]) => checkout(s.client, s.addressId, { expected_total: quoted });
    const [early, rise, late] = await Promise.all([
      Promise.all(shoppers.slice(0, 20).map(fire)),
      t.admin.patch(`/api/v1/admin/variants/${variantId}`, { price: '25.00' }),
      Promise.all(shoppers.slice(20).map(fire)),
    ]);
    assert.equal(rise.status, 200);
    const responses = [...early, ...late];

    const placed = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status !== 201);
    assert.equal(placed.length + refused.length, 40);
    for (const r of placed) assert.equal(r.body.data.total, '30.00');
    for (const r of refused) {
      assert.equal(r.status, 409);
      assert.deepEqual(errorOf(r).details, [
        { field: 'expected_total', message: 'the order now costs 35.00', expected_total: '30.00', total: '35.00' },
      ]);
    }
    // What is stored agrees: the orders placed cost what was expected, and only they reserved stock.
    if (placed.length > 0) {
      const ids = placed.map((r) => r.body.data.public_id);
      const totals = await t.db.selectFrom('orders').select('total').where('public_id', 'in', ids).execute();
      assert.deepEqual(new Set(totals.map((o) => String(o.total))), new Set(['30.00']));
    }
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 100, quantity_reserved: placed.length });
    // The refused keep their carts and place the order once shown the new total.
    if (refused.length > 0) {
      const again = shoppers[responses.indexOf(refused[0]!)]!;
      const order = await checkout(again.client, again.addressId, { expected_total: '35.00' });
      assert.equal(order.status, 201);
      assert.equal(order.body.data.total, '35.00');
    }
  });

  test('a coupon with 3 uses left and 20 racing checkouts is used exactly 3 times', async () => {
    const { variantId } = await sellableVariant(t.admin, { stock: 100 });
    const coupon = await t.admin.post('/api/v1/admin/coupons', {
      code: 'race3',
      discount_type: 'FIXED_AMOUNT',
      discount_value: '1.00',
      usage_limit: 3,
    });
    assert.equal(coupon.status, 201);
    const shoppers = await inBatches(20, 10, () => shopper(t, [{ variantId, quantity: 1 }]));

    const responses = await Promise.all(shoppers.map((s) => checkout(s.client, s.addressId, { coupon_code: 'Race3' })));

    assert.deepEqual(countBy(responses.map((r) => r.status)), { 201: 3, 409: 17 });
    for (const r of responses.filter((r) => r.status === 409)) assert.equal(errorOf(r).code, 'COUPON_EXHAUSTED');
    const stored = await t.admin.get(`/api/v1/admin/coupons/${coupon.body.data.public_id}`);
    assert.equal(stored.body.data.times_used, 3);
    assert.equal(stored.body.data.status, 'EXHAUSTED');
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 100, quantity_reserved: 3 });
  });
});
