import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { createAnalyticsService } from '../src/analytics/service.js';
import { createDb, type Db } from '../src/db/database.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** P&L months (contract section 11) are UTC months, whatever time zone the database session uses. */

const PNL = '/api/v1/admin/analytics/pnl';

const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', SHIPPING_FLAT: '5.00', FREE_SHIPPING_FROM: '100.00', TAX_RATE: '10' },
  as: ['SUPER_ADMIN'],
});

describe('P&L months are UTC months', () => {
  test('whatever time zone the database session uses', async () => {
    const zoned: Db[] = [];
    try {
      const staff = t.superAdmin;
      const { variantId } = await sellableVariant(staff, { price: '10.00', costPrice: '4.00' });
      for (const at of ['2025-03-01T02:00:00Z', '2025-03-31T23:00:00Z', '2025-02-28T23:30:00Z', '2025-04-01T00:30:00Z']) {
        const s = await shopper(t, [{ variantId, quantity: 1 }]);
        const order = ok(await checkout(s.client, s.addressId), 201);
        await sql`UPDATE orders SET placed_at = ${new Date(at)} WHERE public_id = ${order.public_id}`.execute(t.db);
      }
      const march = {
        revenue: '20.00',
        discounts: '0.00',
        shipping_income: '10.00',
        cost_of_goods_sold: '8.00',
        operating_expenses: '0.00',
        gross_profit: '12.00',
        net_profit: '22.00',
      };
      assert.deepEqual(ok(await staff.get(`${PNL}?from=2025-03-01&to=2025-03-31`)).total, march);
      for (const zone of ['America/New_York', 'Asia/Tokyo']) {
        const url = new URL(t.config.databaseUrl!);
        url.searchParams.set('options', `-c TimeZone=${zone}`);
        const db = createDb(url.toString(), 2);
        zoned.push(db);
        assert.equal((await sql<{ TimeZone: string }>`SHOW TimeZone`.execute(db)).rows[0]!.TimeZone, zone);
        const pnl = await createAnalyticsService({ db, clock: t.clock, config: t.config }).pnl({ from: '2025-03-01', to: '2025-03-31' });
        assert.deepEqual(pnl.total, march, `session time zone ${zone}`);
      }
    } finally {
      for (const db of zoned) await db.destroy();
    }
  });
});
