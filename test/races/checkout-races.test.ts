import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkout, inBatches, inventoryOf, sellableVariant, shopper } from '../helpers/commerce.js';
import { errorOf } from '../helpers/factories.js';
import { useApp } from '../helpers/use-app.js';

// Races need many accounts from one IP and many checkouts a minute.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' }, as: ['ADMIN'] });

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
