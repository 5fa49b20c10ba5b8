import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { oneOf, page, text } from '../lib/search';
import { staffRoute } from './staff';

export const COUPON_SORTS = ['-created_at', 'created_at', 'code', '-code', '-times_used', 'times_used'] as const;

export interface CouponsSearch {
  page?: number | undefined;
  q?: string | undefined;
  sort?: (typeof COUPON_SORTS)[number] | undefined;
}

export const couponsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons',
  validateSearch: (search: Record<string, unknown>): CouponsSearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    q: text(search.q, 50),
    sort: oneOf(search.sort, COUPON_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/coupons'), 'CouponsScreen'),
});

export const newCouponRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons/new',
  component: lazyRouteComponent(() => import('../screens/coupon'), 'NewCouponScreen'),
});

export const couponRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons/$couponId',
  validateSearch: (search: Record<string, unknown>): { page?: number | undefined } => ({
    page: search.page === undefined ? undefined : page(search.page),
  }),
  component: lazyRouteComponent(() => import('../screens/coupon'), 'CouponScreen'),
});
