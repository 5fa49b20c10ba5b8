import type { Db, Executor } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { parseSort, toPage, type PageRequest } from '../lib/pagination.js';
import type { MediaService } from '../media/service.js';
import { normaliseImages, toReview } from './mappers.js';
import {
  countReviews,
  findActiveProductId,
  findReview,
  insertReview,
  listReviews,
  lockReview,
  ratingSummary,
  updateReview,
  type ReviewFilters,
} from './repository.js';
import type {
  ProductReviewsQuery,
  RatingSummary,
  Review,
  ReviewCreate,
  ReviewImageInput,
  ReviewPatch,
  ReviewSortField,
} from './schemas.js';
import { transaction } from '../db/transaction.js';
import { recordReviewSubmitted } from './review-events.js';

/**
 * Reviews by their authors, and the public list. A review is public only once
 * APPROVED; any edit sends it back to PENDING. Product ratings count approved,
 * live reviews only and are recomputed in the transaction of every change that
 * can move them.
 */
export function createReviewService({ db, clock, media }: { db: Db; clock: Clock; media: Pick<MediaService, 'resolveImageUrls'> }) {
  /** Image URLs must be the author's own uploads to the reviews folder (contract section 5); stored as the upload returned them. */
  async function storedImages(trx: Executor, ctx: AuthedCtx, images: ReviewImageInput[] | undefined): Promise<string | undefined> {
    if (!images) return undefined;
    const urls = await media.resolveImageUrls(
      trx,
      'reviews',
      images.map((image) => image.image_url),
      (i) => `images.${i}.image_url`,
      ctx.actor.userId,
    );
    return JSON.stringify(normaliseImages(images.map((image, i) => ({ ...image, image_url: urls[i]! }))));
  }

  async function read(executor: Executor, publicId: string): Promise<Review> {
    const row = await findReview(executor, publicId);
    if (!row) throw notFound('Review');
    return toReview(row);
  }

  async function ownLockedReview(trx: Executor, ctx: AuthedCtx, publicId: string) {
    const review = isPublicId('rev', publicId) ? await lockReview(trx, publicId, ctx.actor.userId) : undefined;
    if (!review) throw notFound('Review'); // another author's review is not found either
    return review;
  }

  return {
    /** A second review of one product by one author is ALREADY_REVIEWED (its unique index decides). */
    async create(ctx: AuthedCtx, input: ReviewCreate): Promise<Review> {
      return transaction(db, async (trx) => {
        const images = (await storedImages(trx, ctx, input.images)) ?? '[]';
        const productId = isPublicId('prd', input.product_public_id) ? await findActiveProductId(trx, input.product_public_id) : undefined;
        if (productId === undefined) throw notFound('Product');
        const publicId = newPublicId('rev');
        await insertReview(trx, {
          publicId,
          productId,
          userId: ctx.actor.userId,
          rating: input.rating,
          title: input.title,
          comment: input.comment,
          images,
        });
        await recordReviewSubmitted(trx, publicId, false);
        return read(trx, publicId);
      });
    },

    /** An edit that changes anything goes back to moderation; one that changes nothing is a no-op. */
    async update(ctx: AuthedCtx, publicId: string, patch: ReviewPatch): Promise<Review> {
      return transaction(db, async (trx) => {
        const images = await storedImages(trx, ctx, patch.images);
        const before = await ownLockedReview(trx, ctx, publicId);
        const changes = {
          ...(patch.rating !== undefined && patch.rating !== before.rating ? { rating: patch.rating } : {}),
          ...(patch.title !== undefined && patch.title !== before.title ? { title: patch.title } : {}),
          ...(patch.comment !== undefined && patch.comment !== before.comment ? { comment: patch.comment } : {}),
          ...(images !== undefined && images !== JSON.stringify(normaliseImages(before.images)) ? { images } : {}),
        };
        if (Object.keys(changes).length > 0) {
          await updateReview(trx, before.id, { ...changes, status: 'PENDING', updated_at: clock.now() });
          await recordReviewSubmitted(trx, publicId, true);
        }
        return read(trx, publicId);
      });
    },

    async remove(ctx: AuthedCtx, publicId: string): Promise<void> {
      await transaction(db, async (trx) => {
        const review = await ownLockedReview(trx, ctx, publicId);
        const now = clock.now();
        await updateReview(trx, review.id, { deleted_at: now, updated_at: now });
      });
    },

    /** The author's own reviews in every status, newest first. */
    async listMine(ctx: AuthedCtx, page: PageRequest) {
      const filters: ReviewFilters = { userId: ctx.actor.userId };
      const rows = await listReviews(db, filters, { field: 'created_at', direction: 'desc' }, page);
      return toPage(rows, page, () => countReviews(db, filters), toReview);
    },

    /** Approved reviews of an ACTIVE product, with a summary over all of them (not just the page). */
    async listForProduct(productPublicId: string, query: ProductReviewsQuery) {
      const productId = isPublicId('prd', productPublicId) ? await findActiveProductId(db, productPublicId) : undefined;
      if (productId === undefined) throw notFound('Product');
      const filters: ReviewFilters = { productId, status: 'APPROVED', rating: query.rating };
      const [rows, summary] = await Promise.all([
        listReviews(db, filters, parseSort<ReviewSortField>(query.sort), query),
        ratingSummary(db, productId),
      ]);
      const page = await toPage(rows, query, () => countReviews(db, filters), toReview);
      return { ...page, summary: toSummary(summary) };
    },
  };
}

function toSummary(row: Awaited<ReturnType<typeof ratingSummary>>): RatingSummary {
  return {
    average: Number(row.average),
    count: Number(row.count),
    distribution: { 1: Number(row.r1), 2: Number(row.r2), 3: Number(row.r3), 4: Number(row.r4), 5: Number(row.r5) },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
