import { writeAudit } from '../audit/audit-log.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { pageMeta, parseSort, toPage } from '../lib/pagination.js';
import { toAdminReview } from './mappers.js';
import { countReviews, findReview, listReviews, lockReview, updateReview, type ReviewFilters } from './repository.js';
import type { AdminReview, AdminReviewListQuery, ReviewModeration, ReviewSortField } from './schemas.js';
import { transaction } from '../db/transaction.js';
import { recordReviewApproved } from './review-events.js';

/**
 * Admin moderation (contract section 10): every decision is audited and moves
 * the product's rating, and an approval is reported (review.approved), in one transaction.
 */
export function createReviewModeration({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** Live reviews in every status; oldest first by default, so the moderation queue is worked in order. */
    async list(query: AdminReviewListQuery) {
      if (query.product !== undefined && !isPublicId('prd', query.product)) return { data: [], meta: pageMeta(query, 0) };
      const filters: ReviewFilters = { status: query.status, productPublicId: query.product, rating: query.rating };
      const rows = await listReviews(db, filters, parseSort<ReviewSortField>(query.sort), query);
      return toPage(rows, query, () => countReviews(db, filters), toAdminReview);
    },

    async moderate(ctx: AuthedCtx, publicId: string, decision: ReviewModeration): Promise<AdminReview> {
      return transaction(db, async (trx) => {
        const before = isPublicId('rev', publicId) ? await lockReview(trx, publicId) : undefined;
        if (!before) throw notFound('Review');
        const note = decision.moderation_note ?? null;
        const now = clock.now();
        await updateReview(trx, before.id, {
          status: decision.status,
          moderation_note: note,
          moderated_by: ctx.actor.userId,
          moderated_at: now,
        });
        await writeAudit(trx, ctx, {
          action: 'review.moderate',
          entityType: 'review',
          entityPublicId: publicId,
          changes: {
            before: { status: before.status, moderation_note: before.moderation_note },
            after: { status: decision.status, moderation_note: note },
          },
        });
        const after = await findReview(trx, publicId);
        // An approval is news once: re-approving with another note is not.
        if (decision.status === 'APPROVED' && before.status !== 'APPROVED') await recordReviewApproved(trx, after!);
        return toAdminReview(after!);
      });
    },
  };
}

export type ReviewModerationService = ReturnType<typeof createReviewModeration>;
