import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { couponSearch, couponsSearch } from '../features/coupons/search';
import { staffRoute } from './staff';

export const couponsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons',
  validateSearch: couponsSearch,
  component: lazyRouteComponent(() => import('../features/coupons/coupons-screen'), 'CouponsScreen'),
});

export const newCouponRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons/new',
  component: lazyRouteComponent(() => import('../features/coupons/coupon-screen'), 'NewCouponScreen'),
});

export const couponRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/coupons/$couponId',
  validateSearch: couponSearch,
  component: lazyRouteComponent(() => import('../features/coupons/coupon-screen'), 'CouponScreen'),
});
