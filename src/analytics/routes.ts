import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendCsv, toCsv, wantsCsv } from '../lib/csv.js';
import { Ok, Page, errorResponses } from '../lib/schemas.js';
import { CouponAnalyticsQuery, CouponPerformance, Pnl, PnlQuery, Stats, StatsQuery } from './schemas.js';
import type { AnalyticsService } from './service.js';

export const analyticsRoutes =
  (deps: { analytics: AnalyticsService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { analytics } = deps;

    app.get('/admin/stats', {
      config: { access: 'admin' },
      schema: {
        tags: ['Admin: dashboard'],
        summary: 'Dashboard figures for a period',
        querystring: StatsQuery,
        response: { 200: Ok(Stats), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, data: await analytics.stats(request.query) }),
    });

    app.get('/admin/analytics/pnl', {
      config: { access: 'super_admin' },
      schema: {
        tags: ['Admin: finance'],
        summary: 'Profit and loss by month and in total',
        description:
          'Orders count in the month they were placed, cancelled ones excluded; months in UTC. CSV with ?format=csv or Accept: text/csv.',
        querystring: PnlQuery,
        response: { 200: Ok(Pnl), ...errorResponses() },
      },
      handler: async (request, reply) => {
        const pnl = await analytics.pnl(request.query);
        if (wantsCsv(request)) {
          const columns = [
            'month',
            'revenue',
            'discounts',
            'shipping_income',
            'cost_of_goods_sold',
            'operating_expenses',
            'gross_profit',
            'net_profit',
          ];
          return sendCsv(reply, `pnl-${pnl.from}-${pnl.to}.csv`, toCsv(columns, [...pnl.months, { month: 'TOTAL', ...pnl.total }]));
        }
        return { success: true as const, data: pnl };
      },
    });

    app.get('/admin/analytics/coupons', {
      config: { access: 'super_admin' },
      schema: {
        tags: ['Admin: finance'],
        summary: 'Per coupon: uses, discount given and revenue of the orders that used it',
        querystring: CouponAnalyticsQuery,
        response: { 200: Page(CouponPerformance), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await analytics.coupons(request.query)) }),
    });
  };
