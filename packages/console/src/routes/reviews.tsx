import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { reviewsSearch } from '../features/reviews/search';
import { staffRoute } from './staff';

export const reviewsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/reviews',
  validateSearch: reviewsSearch,
  component: lazyScreen(() => import('../features/reviews/reviews-screen'), 'ReviewsScreen'),
});
