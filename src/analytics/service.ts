import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { validationError } from '../lib/errors.js';
import { fromCents, toCents } from '../lib/money.js';
import { pageClause, toPage, type PageRequest } from '../lib/pagination.js';
import type { Pnl, PnlQuery, PnlRow, Stats, StatsDay, StatsQuery } from './schemas.js';

const PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;
const money = (column: string) => sql<string>`coalesce(${sql.raw(column)}, 0)::numeric(14,2)::text`;

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
        sql<{ status: string; n: number; gross: string; discounts: string }>`
          SELECT status, count(*)::int AS n, sum(subtotal)::text AS gross, sum(discount_total)::text AS discounts
          FROM orders WHERE placed_at >= ${from} AND placed_at <= ${now} GROUP BY status`.execute(db),
        // One row per UTC day of the period, empty days included, so a chart needs no gap filling.
        sql<StatsDay>`
          WITH days AS (
            SELECT generate_series((${from}::timestamptz AT TIME ZONE 'UTC')::date, (${now}::timestamptz AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
          ),
          placed AS (
            SELECT (placed_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n, sum(subtotal) AS gross,
                   sum(CASE WHEN status = 'CANCELLED' THEN subtotal ELSE discount_total END) AS deducted
            FROM orders WHERE placed_at >= ${from} AND placed_at <= ${now} GROUP BY 1
          )
          SELECT to_char(d.day, 'YYYY-MM-DD') AS date, coalesce(p.n, 0) AS orders,
                 ${money('p.gross')} AS gross, ${money('p.gross - p.deducted')} AS net
          FROM days d LEFT JOIN placed p ON p.day = d.day ORDER BY d.day`.execute(db),
        sql<{ product_public_id: string; name: string; units: number; revenue: string }>`
          SELECT p.public_id AS product_public_id, p.name, sum(oi.quantity)::int AS units, sum(oi.line_total)::numeric(14,2)::text AS revenue
          FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id
          WHERE o.placed_at >= ${from} AND o.placed_at <= ${now} AND o.status <> 'CANCELLED'
          GROUP BY p.id ORDER BY units DESC, revenue DESC, p.public_id LIMIT 5`.execute(db),
        sql<{ low: number; out: number }>`
          SELECT count(*) FILTER (WHERE stock_status(i.quantity_on_hand, i.quantity_reserved, i.reorder_level) = 'LOW_STOCK')::int AS low,
                 count(*) FILTER (WHERE stock_status(i.quantity_on_hand, i.quantity_reserved, i.reorder_level) = 'OUT_OF_STOCK')::int AS out
          FROM inventory i JOIN variants v ON v.id = i.variant_id WHERE v.deleted_at IS NULL`.execute(db),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM reviews WHERE status = 'PENDING' AND deleted_at IS NULL`.execute(db),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE role = 'CUSTOMER' AND created_at >= ${from} AND created_at <= ${now}`.execute(db),
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
      const from = query.from ?? (() => {
        const d = new Date(`${to}T00:00:00Z`);
        return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);
      })();
      if (from > to) throw validationError('from must not be after to', [{ field: 'from', message: 'is after to' }]);
      // A bounded report: ten years of months at most.
      if (Number(to.slice(0, 4)) - Number(from.slice(0, 4)) > 10) {
        throw validationError('The range is at most ten years', [{ field: 'from', message: 'is more than ten years before to' }]);
      }

      const result = await sql<Omit<PnlRow, 'gross_profit' | 'net_profit'>>`
        WITH months AS (
          SELECT generate_series(date_trunc('month', ${from}::date), date_trunc('month', ${to}::date), interval '1 month')::date AS month
        ),
        kept AS (
          SELECT o.* FROM orders o
          -- Day bounds in UTC: a bare date compared with a timestamptz would take the session's time zone.
          WHERE o.status <> 'CANCELLED'
            AND o.placed_at >= (${from}::date)::timestamp AT TIME ZONE 'UTC'
            AND o.placed_at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'
        ),
        sales AS (
          SELECT date_trunc('month', placed_at AT TIME ZONE 'UTC')::date AS month,
                 sum(subtotal) AS revenue, sum(discount_total) AS discounts, sum(shipping_total) AS shipping
          FROM kept GROUP BY 1
        ),
        cogs AS (
          SELECT date_trunc('month', k.placed_at AT TIME ZONE 'UTC')::date AS month, sum(coalesce(oi.unit_cost, 0) * oi.quantity) AS cogs
          FROM kept k JOIN order_items oi ON oi.order_id = k.id GROUP BY 1
        ),
        spend AS (
          SELECT date_trunc('month', spent_at)::date AS month, sum(amount) AS expenses
          FROM expenses WHERE deleted_at IS NULL AND spent_at BETWEEN ${from}::date AND ${to}::date GROUP BY 1
        )
        SELECT to_char(m.month, 'YYYY-MM') AS month,
               ${money('s.revenue')} AS revenue, ${money('s.discounts')} AS discounts, ${money('s.shipping')} AS shipping_income,
               ${money('c.cogs')} AS cost_of_goods_sold, ${money('e.expenses')} AS operating_expenses
        FROM months m
        LEFT JOIN sales s ON s.month = m.month
        LEFT JOIN cogs c ON c.month = m.month
        LEFT JOIN spend e ON e.month = m.month
        ORDER BY m.month`.execute(db);

      const totals = { revenue: 0, discounts: 0, shipping_income: 0, cost_of_goods_sold: 0, operating_expenses: 0, gross_profit: 0, net_profit: 0 };
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
        for (const [key, value] of Object.entries({ ...cents, gross_profit: gross, net_profit: net })) totals[key as keyof typeof totals] += value;
        return { ...row, gross_profit: fromCents(gross), net_profit: fromCents(net) };
      });
      const total = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, fromCents(v)])) as Pnl['total'];
      return { from, to, currency: config.commerce.currency, months, total };
    },

    async coupons(page: PageRequest) {
      const rows = await sql<{ coupon_public_id: string; code: string; uses: number; discount_given: string; revenue: string; total_count: number }>`
        SELECT c.public_id AS coupon_public_id, c.code,
               count(cu.id) FILTER (WHERE cu.released_at IS NULL)::int AS uses,
               coalesce(sum(cu.discount_amount) FILTER (WHERE cu.released_at IS NULL), 0)::numeric(14,2)::text AS discount_given,
               coalesce(sum(o.total) FILTER (WHERE o.status <> 'CANCELLED'), 0)::numeric(14,2)::text AS revenue,
               count(*) OVER ()::int AS total_count
        FROM coupons c
        LEFT JOIN coupon_usages cu ON cu.coupon_id = c.id
        LEFT JOIN orders o ON o.id = cu.order_id
        WHERE c.deleted_at IS NULL
        GROUP BY c.id
        ORDER BY uses DESC, c.public_id
        ${pageClause(page)}`.execute(db);
      const countAll = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM coupons WHERE deleted_at IS NULL`.execute(db)).rows[0]!.n;
      return toPage(rows.rows, page, countAll, ({ total_count: _t, ...row }) => row);
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
