import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { oneOf, page } from '../lib/search';
import { staffRoute } from './staff';

export const REVIEW_VIEWS = ['PENDING', 'APPROVED', 'REJECTED', 'ALL'] as const;
export const REVIEW_SORTS = ['created_at', '-created_at', 'rating', '-rating'] as const;

export interface ReviewsSearch {
  page?: number | undefined;
  /** Default PENDING: the moderation queue. */
  status?: (typeof REVIEW_VIEWS)[number] | undefined;
  rating?: '1' | '2' | '3' | '4' | '5' | undefined;
  /** Default: oldest first in the queue (first come, first moderated), newest first elsewhere. */
  sort?: (typeof REVIEW_SORTS)[number] | undefined;
}

export const reviewsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/reviews',
  validateSearch: (search: Record<string, unknown>): ReviewsSearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    status: oneOf(search.status, REVIEW_VIEWS),
    rating: oneOf(typeof search.rating === 'number' ? String(search.rating) : search.rating, ['1', '2', '3', '4', '5'] as const),
    sort: oneOf(search.sort, REVIEW_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/reviews'), 'ReviewsScreen'),
});
