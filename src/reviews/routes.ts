import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import type { HttpCache } from '../http-cache/policy.js';
import { Cached, NotModified } from '../http-cache/schemas.js';
import { PageOnlyQuery } from '../lib/pagination.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import { ProductReviewsPage, ProductReviewsQuery, Review, ReviewCreate, ReviewPatch } from './schemas.js';
import type { ReviewService } from './service.js';

/** Writing reviews (any signed-in user), your own reviews, and a product's public reviews. */
export const reviewRoutes =
  (deps: { reviews: ReviewService; httpCache: HttpCache }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { reviews, httpCache } = deps;
    const tags = ['Reviews'];
    const params = IdParam('review_public_id', 'rev');
    const writeErrors = errorResponses('NOT_FOUND', 'ALREADY_REVIEWED', 'INVALID_IMAGE_URL');

    app.post('/reviews', {
      schema: {
        tags,
        summary: 'Review a product; it stays PENDING until a moderator approves it',
        description:
          'One live review per account and product (409 ALREADY_REVIEWED). Images must be uploads to the reviews folder (400 INVALID_IMAGE_URL).',
        body: ReviewCreate,
        response: { 201: Ok(Review), ...writeErrors },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await reviews.create(authedCtxOf(request), request.body) }),
    });

    app.patch('/reviews/:review_public_id', {
      schema: {
        tags,
        summary: 'Edit your review; any change sends it back to PENDING',
        description: "`images` replaces the whole set. Another account's review is 404.",
        params,
        body: ReviewPatch,
        response: { 200: Ok(Review), ...writeErrors },
      },
      handler: async (request) => ({
        success: true as const,
        data: await reviews.update(authedCtxOf(request), request.params.review_public_id, request.body),
      }),
    });

    app.delete('/reviews/:review_public_id', {
      schema: {
        tags,
        summary: 'Delete your review (soft); you may then review the product again',
        params,
        response: { 204: NoContent, ...writeErrors },
      },
      handler: async (request, reply) => {
        await reviews.remove(authedCtxOf(request), request.params.review_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.get('/users/me/reviews', {
      schema: {
        tags,
        summary: 'Your reviews in every status, newest first',
        querystring: PageOnlyQuery,
        response: { 200: Page(Review), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await reviews.listMine(authedCtxOf(request), request.query)) }),
    });

    app.get('/products/:product_public_id/reviews', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A product's approved reviews, with a rating summary",
        description: '`summary` covers every approved review of the product, whatever the `rating` filter and page.',
        params: IdParam('product_public_id', 'prd'),
        querystring: ProductReviewsQuery,
        response: { 200: Cached(ProductReviewsPage), 304: NotModified, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        // Cacheable like the catalog (src/http-cache/policy.ts); the product's key too, for its page goes when the product does.
        if (await httpCache.notModified(request, reply)) return sendEmpty(reply, 304);
        const page = await reviews.listForProduct(request.params.product_public_id, request.query);
        httpCache.keys(reply, [`reviews:${request.params.product_public_id}`, request.params.product_public_id]);
        return { success: true as const, ...page };
      },
    });
  };
