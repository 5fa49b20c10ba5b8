import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { newPublicId } from '../../src/lib/ids.js';
import type { RunningApp } from './app.js';
import { clearOfUtcMidnight } from './clock.js';
import { checkout, sellableVariant, shopper } from './commerce.js';
import { ok } from './orders.js';
import type { AppFixture } from './use-app.js';

/**
 * The analytics fixture: dashboard, P&L and coupon analytics (contract
 * section 11) are checked against it, computed by hand, to the cent.
 * Pricing (ANALYTICS_ENV): flat shipping 5.00 below 100.00, tax 10% of the
 * discounted subtotal, rounded half up.
 *
 *   O1 PLACED    A x2 (20.00) + B x1 (35.50) = 75.50, PCT10 -7.55, ship 5.00, tax 6.80 -> 79.75
 *   O2 CANCELLED C x3 (7.99)                 = 23.97, FIX3  -3.00, ship 5.00, tax 2.10 -> 28.07
 *   O3 SHIPPED   B x3                        = 106.50,              ship 0.00, tax 10.65 -> 117.15
 *   O5 PLACED    A x1, moved 40 days back    = 20.00,              ship 5.00, tax 2.00 -> 27.00
 * Costs: A 8.00, B 20.25, C 3.10.
 */

export const ANALYTICS_ENV = {
  RATE_LIMIT_REGISTER: '0',
  RATE_LIMIT_CHECKOUT: '0',
  SHIPPING_FLAT: '5.00',
  FREE_SHIPPING_FROM: '100.00',
  TAX_RATE: '10',
};
export const DAY = 86_400_000;

export const day = (date: Date) => date.toISOString().slice(0, 10);

async function buy(t: RunningApp, variants: Record<string, string>, lines: [string, number][], extra: Record<string, unknown> = {}) {
  const s = await shopper(
    t,
    lines.map(([key, quantity]) => ({ variantId: variants[key]!, quantity })),
  );
  return { ...s, order: ok(await checkout(s.client, s.addressId, extra), 201) };
}

/**
 * Makes the fixture (the `seed` of a file's useApp) and returns what the
 * checks look up: the days it is dated by, and the public IDs it made.
 */
export async function seedAnalytics(t: AppFixture<'ADMIN' | 'SUPER_ADMIN'>) {
  await clearOfUtcMidnight();
  const products: Record<string, string> = {};
  const variants: Record<string, string> = {};
  const orders: Record<string, any> = {};
  const coupons: Record<string, string> = {};
  const now = t.clock.now();
  const today = day(now);
  const monthStart = `${today.slice(0, 7)}-01`;
  const oldAt = new Date(now.getTime() - 40 * DAY);
  const oldDay = day(oldAt);

  for (const [key, price, costPrice, stock] of [
    ['A', '20.00', '8.00', 50],
    ['B', '35.50', '20.25', 10],
    ['C', '7.99', '3.10', 6],
    ['D', '12.00', undefined, 0],
    ['E', '9.00', '1.00', 3],
    ['F', '9.00', '1.00', 0],
  ] as const) {
    const made = await sellableVariant(t.admin, { price, stock, name: `Product ${key}`, ...(costPrice ? { costPrice } : {}) });
    variants[key] = made.variantId;
    products[key] = made.productId;
  }
  for (const [key, level] of [
    ['B', 6],
    ['C', 2],
    ['E', 5],
  ] as const)
    ok(await t.admin.patch(`/api/v1/admin/inventory/${variants[key]}`, { reorder_level: level }));
  assert.equal((await t.admin.delete(`/api/v1/admin/variants/${variants.F}`)).status, 204); // out of stock, but deleted: not counted

  coupons.PCT10 = ok(
    await t.admin.post('/api/v1/admin/coupons', { code: 'PCT10', discount_type: 'PERCENTAGE', discount_value: '10' }),
    201,
  ).public_id;
  coupons.FIX3 = ok(
    await t.admin.post('/api/v1/admin/coupons', { code: 'FIX3', discount_type: 'FIXED_AMOUNT', discount_value: '3.00' }),
    201,
  ).public_id;
  coupons.UNUSED = ok(
    await t.admin.post('/api/v1/admin/coupons', { code: 'UNUSED', discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }),
    201,
  ).public_id;
  const gone = ok(
    await t.admin.post('/api/v1/admin/coupons', { code: 'GONE', discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }),
    201,
  ).public_id;
  assert.equal((await t.admin.delete(`/api/v1/admin/coupons/${gone}`)).status, 204);

  const o1 = await buy(
    t,
    variants,
    [
      ['A', 2],
      ['B', 1],
    ],
    { coupon_code: 'pct10' },
  );
  const o2 = await buy(t, variants, [['C', 3]], { coupon_code: 'FIX3' });
  const o3 = await buy(t, variants, [['B', 3]]);
  const o5 = await buy(t, variants, [['A', 1]]);
  orders.O1 = o1.order;
  orders.O2 = o2.order;
  orders.O3 = o3.order;
  orders.O5 = o5.order;
  ok(await t.admin.patch(`/api/v1/admin/orders/${o2.order.public_id}`, { status: 'CANCELLED' }));
  ok(await t.admin.patch(`/api/v1/admin/orders/${o3.order.public_id}`, { status: 'CONFIRMED' }));
  ok(await t.admin.patch(`/api/v1/admin/orders/${o3.order.public_id}`, { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'T1' }));
  await sql`UPDATE orders SET placed_at = ${oldAt} WHERE public_id = ${o5.order.public_id}`.execute(t.db);
  await sql`UPDATE users SET created_at = ${oldAt} WHERE public_id = ${o5.user.public_id}`.execute(t.db);

  // Reviews: one pending counts; an approved one and a deleted pending one do not.
  const author = o1.user.public_id;
  for (const [status, deleted] of [
    ['PENDING', false],
    ['APPROVED', false],
    ['PENDING', true],
  ] as const) {
    const product = status === 'APPROVED' ? products.B : deleted ? products.C : products.A;
    await sql`INSERT INTO reviews (public_id, product_id, user_id, rating, title, comment, status, deleted_at)
                VALUES (${newPublicId('rev')}, (SELECT id FROM products WHERE public_id = ${product}), (SELECT id FROM users WHERE public_id = ${author}),
                        4, 'Fine', 'Fine indeed', ${status}, ${deleted ? new Date() : null})`.execute(t.db);
  }

  for (const [description, category, amount, spentAt] of [
    ['Rent', 'RENT', '120.00', monthStart],
    ['Tools', 'SOFTWARE', '15.99', today],
    ['Ads', 'MARKETING', '50.00', oldDay],
  ])
    ok(await t.superAdmin.post('/api/v1/admin/expenses', { description, category, amount, spent_at: spentAt }), 201);
  const deleted = ok(
    await t.superAdmin.post('/api/v1/admin/expenses', { description: 'Oops', category: 'OTHER', amount: '999.00', spent_at: today }),
    201,
  );
  assert.equal((await t.superAdmin.delete(`/api/v1/admin/expenses/${deleted.public_id}`)).status, 204);
  return { today, monthStart, oldDay, products, variants, orders, coupons };
}
