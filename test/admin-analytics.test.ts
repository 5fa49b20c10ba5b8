import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { newPublicId } from '../src/lib/ids.js';
import type { Response } from './helpers/client.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * Dashboard, P&L and coupon analytics (contract section 11) against a fixture
 * computed by hand, to the cent. Pricing: flat shipping 5.00 below 100.00,
 * tax 10% of the discounted subtotal, rounded half up.
 *
 *   O1 PLACED    A x2 (20.00) + B x1 (35.50) = 75.50, PCT10 -7.55, ship 5.00, tax 6.80 -> 79.75
 *   O2 CANCELLED C x3 (7.99)                 = 23.97, FIX3  -3.00, ship 5.00, tax 2.10 -> 28.07
 *   O3 SHIPPED   B x3                        = 106.50,              ship 0.00, tax 10.65 -> 117.15
 *   O5 PLACED    A x1, moved 40 days back    = 20.00,              ship 5.00, tax 2.00 -> 27.00
 * Costs: A 8.00, B 20.25, C 3.10.
 */

const ENV = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', SHIPPING_FLAT: '5.00', FREE_SHIPPING_FROM: '100.00', TAX_RATE: '10' };
const STATS = '/api/v1/admin/stats';
const PNL = '/api/v1/admin/analytics/pnl';
const DAY = 86_400_000;

function ok(response: Response, status = 200) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  return response.body.data;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Every month YYYY-MM from `from` to `to`, both inclusive. */
function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  while (`${y}-${String(m).padStart(2, '0')}` <= to.slice(0, 7)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    if (++m === 13) [y, m] = [y + 1, 1];
  }
  return out;
}

const ZERO = {
  revenue: '0.00',
  discounts: '0.00',
  shipping_income: '0.00',
  cost_of_goods_sold: '0.00',
  operating_expenses: '0.00',
  gross_profit: '0.00',
  net_profit: '0.00',
};
const CURRENT = {
  revenue: '182.00',
  discounts: '7.55',
  shipping_income: '5.00',
  cost_of_goods_sold: '97.00',
  operating_expenses: '135.99',
  gross_profit: '77.45',
  net_profit: '-53.54',
};
const OLD = {
  revenue: '20.00',
  discounts: '0.00',
  shipping_income: '5.00',
  cost_of_goods_sold: '8.00',
  operating_expenses: '50.00',
  gross_profit: '12.00',
  net_profit: '-33.00',
};

let today: string;
let monthStart: string;
let oldDay: string;
const products: Record<string, string> = {};
const variants: Record<string, string> = {};
const orders: Record<string, any> = {};
const coupons: Record<string, string> = {};

async function buy(lines: [string, number][], extra: Record<string, unknown> = {}) {
  const s = await shopper(
    t,
    lines.map(([key, quantity]) => ({ variantId: variants[key]!, quantity })),
  );
  return { ...s, order: ok(await checkout(s.client, s.addressId, extra), 201) };
}

const t = useApp({
  env: ENV,
  as: ['ADMIN', 'SUPER_ADMIN'],
  async seed(t) {
    const now = t.clock.now();
    today = day(now);
    monthStart = `${today.slice(0, 7)}-01`;
    const oldAt = new Date(now.getTime() - 40 * DAY);
    oldDay = day(oldAt);

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
      [
        ['A', 2],
        ['B', 1],
      ],
      { coupon_code: 'pct10' },
    );
    const o2 = await buy([['C', 3]], { coupon_code: 'FIX3' });
    const o3 = await buy([['B', 3]]);
    const o5 = await buy([['A', 1]]);
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
  },
});

describe('the fixture', () => {
  test('orders were priced as the header says', () => {
    assert.deepEqual(
      ['O1', 'O2', 'O3', 'O5'].map((k) => [
        orders[k].subtotal,
        orders[k].discount_total,
        orders[k].shipping_total,
        orders[k].tax_total,
        orders[k].total,
      ]),
      [
        ['75.50', '7.55', '5.00', '6.80', '79.75'],
        ['23.97', '3.00', '5.00', '2.10', '28.07'],
        ['106.50', '0.00', '0.00', '10.65', '117.15'],
        ['20.00', '0.00', '5.00', '2.00', '27.00'],
      ],
    );
  });
});

describe('GET /admin/stats', () => {
  test('30d: revenue, orders by status, average order value (half up), top products, stock, reviews, new customers', async () => {
    const stats = ok(await t.admin.get(`${STATS}?period=30d`));
    assert.equal(stats.period, '30d');
    assert.equal(stats.currency, 'USD');
    assert.deepEqual(stats.revenue, { gross: '205.97', discounts: '7.55', cancellations: '23.97', net: '174.45' });
    assert.deepEqual(stats.orders, { total: 3, by_status: { PLACED: 1, CONFIRMED: 0, SHIPPED: 1, FULFILLED: 0, CANCELLED: 1 } });
    assert.equal(stats.average_order_value, '87.23', '174.45 / 2 = 87.225, half up');
    assert.deepEqual(stats.top_products, [
      { product_public_id: products.B, name: 'Product B', units: 4, revenue: '142.00' },
      { product_public_id: products.A, name: 'Product A', units: 2, revenue: '40.00' },
    ]);
    assert.deepEqual(stats.inventory, { low_stock: 2, out_of_stock: 1 });
    assert.equal(stats.pending_reviews, 1);
    assert.equal(stats.new_customers, 3);
    assert.equal(Date.parse(stats.to) - Date.parse(stats.from), 30 * DAY);
  });

  test('90d reaches the older order and customer; today matches 30d here; 30d is the default', async () => {
    const wide = ok(await t.admin.get(`${STATS}?period=90d`));
    assert.deepEqual(wide.revenue, { gross: '225.97', discounts: '7.55', cancellations: '23.97', net: '194.45' });
    assert.deepEqual(wide.orders.by_status, { PLACED: 2, CONFIRMED: 0, SHIPPED: 1, FULFILLED: 0, CANCELLED: 1 });
    assert.equal(wide.average_order_value, '64.82', '194.45 / 3 = 64.8166...');
    assert.deepEqual(
      wide.top_products.map((p: any) => [p.product_public_id, p.units, p.revenue]),
      [
        [products.B, 4, '142.00'],
        [products.A, 3, '60.00'],
      ],
    );
    assert.equal(wide.new_customers, 4);

    const todays = ok(await t.admin.get(`${STATS}?period=today`));
    assert.equal(todays.from, `${today}T00:00:00.000Z`);
    assert.deepEqual(todays.revenue, { gross: '205.97', discounts: '7.55', cancellations: '23.97', net: '174.45' });
    assert.equal(todays.new_customers, 3);

    const plain = ok(await t.admin.get(STATS));
    assert.equal(plain.period, '30d');
    assert.deepEqual(plain.revenue, { gross: '205.97', discounts: '7.55', cancellations: '23.97', net: '174.45' });
  });

  test('series: every UTC day of the period, empty days as zeros, summing to the revenue', async () => {
    const month = ok(await t.admin.get(`${STATS}?period=30d`));
    assert.equal(month.series.length, 31, 'from the day 30 days ago through today');
    assert.equal(month.series[0].date, day(new Date(Date.parse(month.from))));
    assert.deepEqual(month.series.at(-1), { date: today, orders: 3, gross: '205.97', net: '174.45' });
    assert.ok(month.series.slice(0, -1).every((d: any) => d.orders === 0 && d.gross === '0.00' && d.net === '0.00'));
    const dates = month.series.map((d: any) => d.date);
    assert.deepEqual(dates, [...dates].sort(), 'oldest first');
    assert.equal(new Set(dates).size, dates.length);

    const wide = ok(await t.admin.get(`${STATS}?period=90d`));
    assert.equal(wide.series.length, 91);
    assert.deepEqual(
      wide.series.find((d: any) => d.date === oldDay),
      { date: oldDay, orders: 1, gross: '20.00', net: '20.00' },
    );
    const cents = (sum: number, d: any) => sum + Math.round(Number(d.net) * 100);
    assert.equal(wide.series.reduce(cents, 0), Math.round(Number(wide.revenue.net) * 100));

    const todays = ok(await t.admin.get(`${STATS}?period=today`));
    assert.deepEqual(todays.series, [{ date: today, orders: 3, gross: '205.97', net: '174.45' }]);
  });

  test('period is validated', async () => {
    for (const period of ['1y', '30', '', 'TODAY']) {
      const response = await t.admin.get(`${STATS}?period=${period}`);
      assert.equal(response.status, 400, `period=${period}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /admin/analytics/pnl', () => {
  test('current month: every figure to the cent, cost of goods from cost at sale time', async () => {
    const pnl = ok(await t.superAdmin.get(`${PNL}?from=${monthStart}&to=${today}`));
    assert.deepEqual(pnl, {
      from: monthStart,
      to: today,
      currency: 'USD',
      months: [{ month: today.slice(0, 7), ...CURRENT }],
      total: CURRENT,
    });
  });

  test('a later cost_price change does not rewrite the P&L', async () => {
    const variant = ok(await t.admin.patch(`/api/v1/admin/variants/${variants.B}`, { cost_price: '99.00' }));
    assert.equal(variant.cost_price, '99.00');
    const pnl = ok(await t.superAdmin.get(`${PNL}?from=${monthStart}&to=${today}`));
    assert.deepEqual(pnl.total, CURRENT);
  });

  test('by month over a range; the default range is the last 12 months', async () => {
    const from = `${oldDay.slice(0, 7)}-01`;
    const pnl = ok(await t.superAdmin.get(`${PNL}?from=${from}&to=${today}`));
    const expected = monthsBetween(from, today).map((month) => ({
      month,
      ...(month === today.slice(0, 7) ? CURRENT : month === oldDay.slice(0, 7) ? OLD : ZERO),
    }));
    assert.deepEqual(pnl.months, expected);
    const total = {
      revenue: '202.00',
      discounts: '7.55',
      shipping_income: '10.00',
      cost_of_goods_sold: '105.00',
      operating_expenses: '185.99',
      gross_profit: '89.45',
      net_profit: '-86.54',
    };
    assert.deepEqual(pnl.total, total);

    const byDefault = ok(await t.superAdmin.get(PNL));
    assert.equal(byDefault.to, today);
    assert.equal(byDefault.months.length, 12);
    assert.equal(byDefault.months[0].month, byDefault.from.slice(0, 7));
    assert.ok(byDefault.from.endsWith('-01'));
    assert.deepEqual(byDefault.total, total);

    // A range that ends the day before the old order leaves it out.
    const before = ok(
      await t.superAdmin.get(`${PNL}?from=${day(new Date(Date.parse(oldDay) - 5 * DAY))}&to=${day(new Date(Date.parse(oldDay) - DAY))}`),
    );
    assert.equal(before.total.revenue, '0.00');
  });

  test('CSV by ?format=csv or Accept: text/csv, with a header row and a TOTAL row', async () => {
    const expected = [
      'month,revenue,discounts,shipping_income,cost_of_goods_sold,operating_expenses,gross_profit,net_profit',
      `${today.slice(0, 7)},182.00,7.55,5.00,97.00,135.99,77.45,-53.54`,
      'TOTAL,182.00,7.55,5.00,97.00,135.99,77.45,-53.54',
      '',
    ].join('\r\n');
    for (const [query, headers] of [
      [`&format=csv`, {}],
      ['', { accept: 'text/csv' }],
    ] as const) {
      const response = await t.superAdmin.get(`${PNL}?from=${monthStart}&to=${today}${query}`, { headers });
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      assert.equal(response.text, expected);
    }
  });

  test('from after to, or not a date, is 400', async () => {
    for (const query of [
      `from=${today}&to=${monthStart === today ? day(new Date(Date.parse(today) - DAY)) : monthStart}`,
      'from=2026-13-01',
      'to=yesterday',
      'format=xlsx',
    ]) {
      const response = await t.superAdmin.get(`${PNL}?${query}`);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /admin/analytics/coupons', () => {
  test('uses, discount given and revenue per coupon; released uses and deleted coupons do not count', async () => {
    const response = await t.superAdmin.get('/api/v1/admin/analytics/coupons');
    const rows = ok(response) as any[];
    assert.deepEqual(rows[0], { coupon_public_id: coupons.PCT10, code: 'PCT10', uses: 1, discount_given: '7.55', revenue: '79.75' });
    assert.deepEqual(
      rows.slice(1).sort((a, b) => (a.code < b.code ? -1 : 1)),
      [
        { coupon_public_id: coupons.FIX3, code: 'FIX3', uses: 0, discount_given: '0.00', revenue: '0.00' },
        { coupon_public_id: coupons.UNUSED, code: 'UNUSED', uses: 0, discount_given: '0.00', revenue: '0.00' },
      ],
    );
    assert.equal(response.body.meta.total, 3);
    const second = await t.superAdmin.get('/api/v1/admin/analytics/coupons?limit=1&page=2');
    assert.equal(ok(second).length, 1);
    assert.deepEqual(second.body.meta, { page: 2, limit: 1, total: 3, totalPages: 3, hasNext: true, hasPrev: true });
  });
});
