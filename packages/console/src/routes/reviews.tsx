import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { reviewsSearch } from '../features/reviews/search';
import { staffRoute } from './staff';

export const reviewsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/reviews',
  validateSearch: reviewsSearch,
  component: lazyRouteComponent(() => import('../features/reviews/reviews-screen'), 'ReviewsScreen'),
});
