import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { page, text } from '../lib/search';
import { staffRoute } from './staff';

export const couponsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons',
  validateSearch: (search: Record<string, unknown>): { page?: number | undefined; q?: string | undefined } => ({
    page: search.page === undefined ? undefined : page(search.page),
    q: text(search.q, 50),
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
