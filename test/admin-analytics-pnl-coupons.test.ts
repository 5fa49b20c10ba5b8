import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANALYTICS_ENV, DAY, day, seedAnalytics } from './helpers/analytics.js';
import { errorOf } from './helpers/factories.js';
import { ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/**
 * The P&L and coupon analytics (contract section 11) against the analytics
 * fixture (helpers/analytics.ts). The dashboard: admin-analytics-stats.
 */

const PNL = '/api/v1/admin/analytics/pnl';

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
let variants: Record<string, string>;
let coupons: Record<string, string>;

const t = useApp({
  env: ANALYTICS_ENV,
  as: ['ADMIN', 'SUPER_ADMIN'],
  async seed(t) {
    ({ today, monthStart, oldDay, variants, coupons } = await seedAnalytics(t));
  },
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
