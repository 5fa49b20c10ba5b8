import { REVIEW_STATUSES, valuesOf, type ReviewStatus, type SortOf } from '../../api/domain';
import { oneOf, pageOrNone } from '../../lib/search';

/** The moderation views: a status, or every review. */
export const REVIEW_VIEWS = [...REVIEW_STATUSES, 'ALL'] as const;
export const REVIEW_SORTS = valuesOf<SortOf<'/api/v1/admin/reviews'>>()(['created_at', '-created_at', 'rating', '-rating']);
export const RATINGS = ['1', '2', '3', '4', '5'] as const;

export interface ReviewsSearch {
  page?: number | undefined;
  /** Default PENDING: the moderation queue. */
  status?: ReviewStatus | 'ALL' | undefined;
  rating?: (typeof RATINGS)[number] | undefined;
  /** Default: oldest first in the queue (first come, first moderated), newest first elsewhere. */
  sort?: (typeof REVIEW_SORTS)[number] | undefined;
}

export const reviewsSearch = (search: Record<string, unknown>): ReviewsSearch => ({
  page: pageOrNone(search.page),
  status: oneOf(search.status, REVIEW_VIEWS),
  rating: oneOf(typeof search.rating === 'number' ? String(search.rating) : search.rating, RATINGS),
  sort: oneOf(search.sort, REVIEW_SORTS),
});
