import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { type PageRequest } from '../lib/pagination.js';
import { pageClause } from '../lib/sql.js';
import type { PnlRow, StatsDay } from './schemas.js';

/**
 * The analytics queries: read models over orders, order items, products,
 * inventory, reviews, users, coupons and expenses, every figure computed by
 * PostgreSQL in exact decimals. Nothing here writes.
 */

const money = (column: string) => sql<string>`coalesce(${sql.raw(column)}, 0)::numeric(14,2)::text`;

/** Orders placed in the period by status, with their subtotals and discounts. */
export const ordersByStatus = (db: Executor, from: Date, now: Date) =>
  sql<{ status: string; n: number; gross: string; discounts: string }>`
          SELECT status, count(*)::int AS n, sum(subtotal)::text AS gross, sum(discount_total)::text AS discounts
          FROM orders WHERE placed_at >= ${from} AND placed_at <= ${now} GROUP BY status`.execute(db);

/** One row per UTC day of the period, empty days included, so a chart needs no gap filling. */
export const dailySeries = (db: Executor, from: Date, now: Date) =>
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
          FROM days d LEFT JOIN placed p ON p.day = d.day ORDER BY d.day`.execute(db);

/** The five products that sold the most units in the period (cancelled orders left out). */
export const topProducts = (db: Executor, from: Date, now: Date) =>
  sql<{ product_public_id: string; name: string; units: number; revenue: string }>`
          SELECT p.public_id AS product_public_id, p.name, sum(oi.quantity)::int AS units, sum(oi.line_total)::numeric(14,2)::text AS revenue
          FROM order_items oi JOIN orders o ON o.id = oi.order_id JOIN products p ON p.id = oi.product_id
          WHERE o.placed_at >= ${from} AND o.placed_at <= ${now} AND o.status <> 'CANCELLED'
          GROUP BY p.id ORDER BY units DESC, revenue DESC, p.public_id LIMIT 5`.execute(db);

/** Live records at low stock and out of stock. */
export const stockCounts = (db: Executor) =>
  sql<{ low: number; out: number }>`
          SELECT count(*) FILTER (WHERE stock_status(i.quantity_on_hand, i.quantity_reserved, i.reorder_level) = 'LOW_STOCK')::int AS low,
                 count(*) FILTER (WHERE stock_status(i.quantity_on_hand, i.quantity_reserved, i.reorder_level) = 'OUT_OF_STOCK')::int AS out
          FROM inventory i JOIN variants v ON v.id = i.variant_id WHERE v.deleted_at IS NULL`.execute(db);

/** Reviews waiting for moderation. */
export const pendingReviews = (db: Executor) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM reviews WHERE status = 'PENDING' AND deleted_at IS NULL`.execute(db);

/** Customer accounts created in the period. */
export const newCustomers = (db: Executor, from: Date, now: Date) =>
  sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM users WHERE role = 'CUSTOMER' AND created_at >= ${from} AND created_at <= ${now}`.execute(db);

/** Revenue, discounts, shipping, cost of goods and expenses per calendar month (UTC) of [from, to], months without any included. */
export const pnlMonths = (db: Executor, from: string, to: string) =>
  sql<Omit<PnlRow, 'gross_profit' | 'net_profit'>>`
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

/** A page of live coupons by uses (not given back), with the discount they gave and the revenue of their orders. */
export const couponPerformance = (db: Executor, page: PageRequest) =>
  sql<{ coupon_public_id: string; code: string; uses: number; discount_given: string; revenue: string; total_count: number }>`
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

export const countLiveCoupons = async (db: Executor): Promise<number> =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM coupons WHERE deleted_at IS NULL`.execute(db)).rows[0]!.n;
