import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { PageOnlyQuery } from '../lib/pagination.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import { Coupon, CouponCreate, CouponListQuery, CouponPatch, CouponUsage } from './schemas.js';
import type { CouponService } from './service.js';

export const couponRoutes =
  (deps: { coupons: CouponService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { coupons } = deps;
    const config = { access: 'admin' as const };
    const tags = ['Admin: coupons'];
    const params = IdParam('coupon_public_id', 'cpn');
    const writeErrors = errorResponses('NOT_FOUND', 'CODE_TAKEN');

    app.get('/admin/coupons', {
      config,
      schema: {
        tags,
        summary: 'List coupons, newest first',
        querystring: CouponListQuery,
        response: { 200: Page(Coupon), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await coupons.list(request.query)) }),
    });

    app.post('/admin/coupons', {
      config,
      schema: { tags, summary: 'Create a coupon', body: CouponCreate, response: { 201: Ok(Coupon), ...writeErrors } },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await coupons.create(authedCtxOf(request), request.body) }),
    });

    app.get('/admin/coupons/:coupon_public_id', {
      config,
      schema: { tags, summary: 'A coupon with its derived status', params, response: { 200: Ok(Coupon), ...errorResponses('NOT_FOUND') } },
      handler: async (request) => ({ success: true as const, data: await coupons.get(request.params.coupon_public_id) }),
    });

    app.patch('/admin/coupons/:coupon_public_id', {
      config,
      schema: { tags, summary: 'Edit a coupon', params, body: CouponPatch, response: { 200: Ok(Coupon), ...writeErrors } },
      handler: async (request) => ({
        success: true as const,
        data: await coupons.update(authedCtxOf(request), request.params.coupon_public_id, request.body),
      }),
    });

    app.delete('/admin/coupons/:coupon_public_id', {
      config,
      schema: { tags, summary: 'Delete a coupon (soft; its usage history stays)', params, response: { 204: NoContent, ...writeErrors } },
      handler: async (request, reply) => {
        await coupons.remove(authedCtxOf(request), request.params.coupon_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.get('/admin/coupons/:coupon_public_id/usages', {
      config,
      schema: {
        tags,
        summary: 'Orders that used the coupon',
        params,
        querystring: PageOnlyQuery,
        response: { 200: Page(CouponUsage), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, ...(await coupons.usages(request.params.coupon_public_id, request.query)) }),
    });
  };
