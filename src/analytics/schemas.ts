import { Type, type Static } from 'typebox';
import { PageQuery } from '../lib/pagination.js';
import { Money, Timestamp } from '../lib/schemas.js';

export const StatsQuery = Type.Object({
  period: Type.Union([Type.Literal('today'), Type.Literal('7d'), Type.Literal('30d'), Type.Literal('90d')], {
    default: '30d',
    description: 'today = since 00:00 UTC',
  }),
});
export type StatsQuery = Static<typeof StatsQuery>;

export const StatsDay = Type.Object({
  date: Type.String({ format: 'date', description: 'A UTC day' }),
  orders: Type.Integer({ description: 'Orders placed that day, cancelled ones included' }),
  gross: { ...Money, description: 'Subtotals of the orders placed that day' },
  net: { ...Money, description: 'gross - discounts - cancellations, as in revenue' },
});
export type StatsDay = Static<typeof StatsDay>;

export const Stats = Type.Object({
  period: Type.String(),
  from: Timestamp,
  to: Timestamp,
  currency: Type.String(),
  revenue: Type.Object({
    gross: { ...Money, description: 'Subtotals of every order placed in the period' },
    discounts: { ...Money, description: 'Discounts on orders that were not cancelled' },
    cancellations: { ...Money, description: 'Subtotals of cancelled orders' },
    net: { ...Money, description: 'gross - discounts - cancellations' },
  }),
  orders: Type.Object({
    total: Type.Integer(),
    by_status: Type.Object({
      PLACED: Type.Integer(),
      CONFIRMED: Type.Integer(),
      SHIPPED: Type.Integer(),
      FULFILLED: Type.Integer(),
      CANCELLED: Type.Integer(),
    }),
  }),
  average_order_value: { ...Money, description: 'net / orders not cancelled' },
  top_products: Type.Array(Type.Object({ product_public_id: Type.String(), name: Type.String(), units: Type.Integer(), revenue: Money })),
  series: Type.Array(StatsDay, { description: 'Each UTC day of the period, oldest first, for a revenue chart' }),
  inventory: Type.Object({ low_stock: Type.Integer(), out_of_stock: Type.Integer() }),
  pending_reviews: Type.Integer(),
  new_customers: Type.Integer(),
});
export type Stats = Static<typeof Stats>;

const Day = Type.String({ format: 'date' });
export const PnlQuery = Type.Object({
  from: Type.Optional({ ...Day, description: 'First day, inclusive (default: first day of the month 11 months ago)' }),
  to: Type.Optional({ ...Day, description: 'Last day, inclusive (default: today)' }),
  format: Type.Optional(Type.Literal('csv', { description: 'CSV instead of JSON (also with Accept: text/csv)' })),
});
export type PnlQuery = Static<typeof PnlQuery>;

const PnlFigures = {
  revenue: { ...Money, description: 'Subtotals of orders not cancelled' },
  discounts: Money,
  shipping_income: Money,
  cost_of_goods_sold: { ...Money, description: "Each item's cost price captured when it was sold" },
  operating_expenses: Money,
  gross_profit: { ...Money, description: 'revenue - discounts - cost_of_goods_sold' },
  net_profit: { ...Money, description: 'gross_profit + shipping_income - operating_expenses' },
};
export const PnlRow = Type.Object({ month: Type.String({ description: 'YYYY-MM' }), ...PnlFigures });
export type PnlRow = Static<typeof PnlRow>;
export const Pnl = Type.Object({ from: Day, to: Day, currency: Type.String(), months: Type.Array(PnlRow), total: Type.Object(PnlFigures) });
export type Pnl = Static<typeof Pnl>;

export const CouponAnalyticsQuery = Type.Object(PageQuery);
export const CouponPerformance = Type.Object({
  coupon_public_id: Type.String(),
  code: Type.String(),
  uses: Type.Integer({ description: 'Uses by orders that were not cancelled' }),
  discount_given: Money,
  revenue: { ...Money, description: 'Totals of the orders that used it, cancelled ones excluded' },
});
