import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { couponSearch, couponsSearch } from '../features/coupons/search';
import { staffRoute } from './staff';

export const couponsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons',
  validateSearch: couponsSearch,
  component: lazyScreen(() => import('../features/coupons/coupons-screen'), 'CouponsScreen'),
});

export const newCouponRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons/new',
  component: lazyScreen(() => import('../features/coupons/coupon-screen'), 'NewCouponScreen'),
});

export const couponRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons/$couponId',
  validateSearch: couponSearch,
  component: lazyScreen(() => import('../features/coupons/coupon-screen'), 'CouponScreen'),
});
