import type { ReviewRow } from './repository.js';
import type { AdminReview, Review } from './schemas.js';

type StoredImage = { image_url: string; alt_text: string | null };

/** Field order fixed here: jsonb reorders object keys, and edits compare image sets as JSON. */
export const normaliseImages = (images: readonly { image_url: string; alt_text?: string | null | undefined }[]): StoredImage[] =>
  images.map((image) => ({ image_url: image.image_url, alt_text: image.alt_text ?? null }));

export function toReview(row: ReviewRow): Review {
  return {
    public_id: row.public_id,
    product_public_id: row.product_public_id,
    author: { first_name: row.author_first_name, last_initial: row.author_last_initial },
    rating: row.rating,
    title: row.title,
    comment: row.comment,
    images: normaliseImages(row.images),
    status: row.status,
    verified_purchase: Boolean(row.verified_purchase),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toAdminReview(row: ReviewRow): AdminReview {
  return {
    ...toReview(row),
    author_public_id: row.author_public_id,
    moderation_note: row.moderation_note,
    moderated_at: row.moderated_at ? new Date(row.moderated_at).toISOString() : null,
  };
}
