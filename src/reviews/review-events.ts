import type { Executor } from '../db/database.js';
import type { EventReview } from '../events/catalog.js';
import { recordEvent } from '../events/repository.js';
import { toReview } from './mappers.js';
import { findReview, type ReviewRow } from './repository.js';

/** A review as events carry it (src/events/catalog.ts): the public shape, with its author's public ID for the receiver's records. */
export function toEventReview(row: ReviewRow): EventReview {
  const { author, ...review } = toReview(row);
  return { ...review, author: { public_id: row.author_public_id, ...author } };
}

/** review.submitted (a new review, or an edit sent back to moderation) with the review as stored now. */
export async function recordReviewSubmitted(trx: Executor, publicId: string, resubmitted: boolean): Promise<void> {
  const row = await findReview(trx, publicId);
  await recordEvent(trx, 'review.submitted', publicId, { review: toEventReview(row!), resubmitted });
}

export const recordReviewApproved = (trx: Executor, row: ReviewRow) =>
  recordEvent(trx, 'review.approved', row.public_id, { review: toEventReview(row) });
