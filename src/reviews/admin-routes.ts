import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdParam, Ok, Page, errorResponses } from '../lib/schemas.js';
import type { ReviewModerationService } from './moderation.js';
import { AdminReview, AdminReviewListQuery, BulkModeration, ReviewModeration } from './schemas.js';
import { BulkResult, eachItem } from '../lib/bulk.js';

/** Review moderation for ADMIN and SUPER_ADMIN. */
export const reviewAdminRoutes =
  (deps: { moderation: ReviewModerationService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { moderation } = deps;
    const config = { access: 'admin' as const };
    const tags = ['Admin: reviews'];

    app.get('/admin/reviews', {
      config,
      schema: {
        tags,
        summary: 'Reviews in every status, oldest first unless `sort` says otherwise (the moderation queue: `status=PENDING`)',
        querystring: AdminReviewListQuery,
        response: { 200: Page(AdminReview), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await moderation.list(request.query)) }),
    });

    app.patch('/admin/reviews/:review_public_id', {
      config,
      schema: {
        tags,
        summary: 'Approve or reject a review (audited as review.moderate)',
        description: 'Only APPROVED reviews are public and count in the product rating, which is recomputed in the same transaction.',
        params: IdParam('review_public_id', 'rev'),
        body: ReviewModeration,
        response: { 200: Ok(AdminReview), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await moderation.moderate(authedCtxOf(request), request.params.review_public_id, request.body),
      }),
    });

    app.post('/admin/reviews/bulk', {
      config,
      schema: {
        tags,
        summary: 'Approve or reject many reviews, each as PATCH /admin/reviews/{rev} would (and audited so)',
        body: BulkModeration,
        response: { 200: Ok(BulkResult), ...errorResponses() },
      },
      handler: async (request) => {
        const { review_public_ids: ids, ...decision } = request.body;
        const ctx = authedCtxOf(request);
        return { success: true as const, data: await eachItem(ids, (id) => moderation.moderate(ctx, id, decision)) };
      },
    });
  };
