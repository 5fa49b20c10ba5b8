import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANALYTICS_ENV, DAY, day, seedAnalytics } from './helpers/analytics.js';
import { errorOf } from './helpers/factories.js';
import { ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/**
 * The dashboard, GET /admin/stats (contract section 11), against the
 * analytics fixture (helpers/analytics.ts). P&L and coupons:
 * admin-analytics-pnl-coupons.
 */

const STATS = '/api/v1/admin/stats';

let today: string;
let oldDay: string;
let products: Record<string, string>;
let orders: Record<string, any>;

const t = useApp({
  env: ANALYTICS_ENV,
  as: ['ADMIN', 'SUPER_ADMIN'],
  async seed(t) {
    ({ today, oldDay, products, orders } = await seedAnalytics(t));
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
