import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { validationError } from '../lib/errors.js';
import { fromCents, toCents } from '../lib/money.js';
import { toPage, type PageRequest } from '../lib/pagination.js';
import {
  couponPerformance,
  countLiveCoupons,
  dailySeries,
  newCustomers,
  ordersByStatus,
  pendingReviews,
  pnlMonths,
  stockCounts,
  topProducts,
} from './repository.js';
import type { Pnl, PnlQuery, Stats, StatsQuery } from './schemas.js';

const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;

/** Dashboard, P&L and coupon analytics: every figure is computed by PostgreSQL in exact decimals. */
export function createAnalyticsService({ db, clock, config }: { db: Db; clock: Clock; config: Pick<Config, 'commerce'> }) {
  return {
    async stats(query: StatsQuery): Promise<Stats> {
      const now = clock.now();
      const from =
        query.period === 'today'
          ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
          : new Date(now.getTime() - PERIOD_DAYS[query.period] * 86_400_000);

      const [orders, daily, top, stock, reviews, customers] = await Promise.all([
        ordersByStatus(db, from, now),
        dailySeries(db, from, now),
        topProducts(db, from, now),
        stockCounts(db),
        pendingReviews(db),
        newCustomers(db, from, now),
      ]);

      const byStatus = { PLACED: 0, CONFIRMED: 0, SHIPPED: 0, FULFILLED: 0, CANCELLED: 0 };
      let gross = 0;
      let discounts = 0;
      let cancellations = 0;
      for (const row of orders.rows) {
        byStatus[row.status as keyof typeof byStatus] = row.n;
        gross += toCents(row.gross);
        if (row.status === 'CANCELLED') cancellations += toCents(row.gross);
        else discounts += toCents(row.discounts);
      }
      const net = gross - discounts - cancellations;
      const kept = Object.values(byStatus).reduce((a, b) => a + b, 0) - byStatus.CANCELLED;
      // Half up, in integers: (2 * net + kept) / (2 * kept).
      const average = kept === 0 ? 0 : Math.floor((2 * net + kept) / (2 * kept));
      return {
        period: query.period,
        from: from.toISOString(),
        to: now.toISOString(),
        currency: config.commerce.currency,
        revenue: { gross: fromCents(gross), discounts: fromCents(discounts), cancellations: fromCents(cancellations), net: fromCents(net) },
        orders: { total: kept + byStatus.CANCELLED, by_status: byStatus },
        average_order_value: fromCents(average),
        top_products: top.rows,
        series: daily.rows,
        inventory: { low_stock: stock.rows[0]?.low ?? 0, out_of_stock: stock.rows[0]?.out ?? 0 },
        pending_reviews: reviews.rows[0]?.n ?? 0,
        new_customers: customers.rows[0]?.n ?? 0,
      };
    },

    async pnl(query: PnlQuery): Promise<Pnl> {
      const today = clock.now().toISOString().slice(0, 10);
      const to = query.to ?? today;
      const from =
        query.from ??
        (() => {
          const d = new Date(`${to}T00:00:00Z`);
          return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);
        })();
      if (from > to) throw validationError('from must not be after to', [{ field: 'from', message: 'is after to' }]);
      // A bounded report: ten years of months at most.
      if (Number(to.slice(0, 4)) - Number(from.slice(0, 4)) > 10) {
        throw validationError('The range is at most ten years', [{ field: 'from', message: 'is more than ten years before to' }]);
      }

      const result = await pnlMonths(db, from, to);

      const totals = {
        revenue: 0,
        discounts: 0,
        shipping_income: 0,
        cost_of_goods_sold: 0,
        operating_expenses: 0,
        gross_profit: 0,
        net_profit: 0,
      };
      const months = result.rows.map((row) => {
        const cents = {
          revenue: toCents(row.revenue),
          discounts: toCents(row.discounts),
          shipping_income: toCents(row.shipping_income),
          cost_of_goods_sold: toCents(row.cost_of_goods_sold),
          operating_expenses: toCents(row.operating_expenses),
        };
        const gross = cents.revenue - cents.discounts - cents.cost_of_goods_sold;
        const net = gross + cents.shipping_income - cents.operating_expenses;
        for (const [key, value] of Object.entries({ ...cents, gross_profit: gross, net_profit: net }))
          totals[key as keyof typeof totals] += value;
        return { ...row, gross_profit: fromCents(gross), net_profit: fromCents(net) };
      });
      const total = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, fromCents(v)])) as Pnl['total'];
      return { from, to, currency: config.commerce.currency, months, total };
    },

    async coupons(page: PageRequest) {
      const rows = await couponPerformance(db, page);
      const countAll = () => countLiveCoupons(db);
      return toPage(rows.rows, page, countAll, ({ total_count: _t, ...row }) => row);
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
