import type { QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { couponKeys, reportKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';
import type { CouponBody } from './coupon-values';

export type CouponsQuery = NonNullable<QueryOf<'/api/v1/admin/coupons'>>;

export const couponsQuery = (query: CouponsQuery) =>
  queryOptions({
    queryKey: couponKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/coupons', { params: { query } }),
    placeholderData: keepPreviousData,
  });

export const couponQuery = (couponId: string) =>
  queryOptions({
    queryKey: couponKeys.detail(couponId),
    queryFn: async () =>
      (await api.GET('/api/v1/admin/coupons/{coupon_public_id}', { params: { path: { coupon_public_id: couponId } } })).data,
  });

export const couponUsagesQuery = (couponId: string, query: { page: number; limit: number }) =>
  queryOptions({
    queryKey: couponKeys.usages(couponId, query),
    queryFn: () => api.GET('/api/v1/admin/coupons/{coupon_public_id}/usages', { params: { path: { coupon_public_id: couponId }, query } }),
    placeholderData: keepPreviousData,
  });

/** Coupons show in their lists and in the money screen's coupon performance. */
const COUPON_CHANGES = [couponKeys.all, reportKeys.all];

export function useCreateCoupon() {
  return useWrite({
    mutationFn: async (body: CouponBody) => (await api.POST('/api/v1/admin/coupons', { body })).data,
    invalidates: COUPON_CHANGES,
  });
}

/** Saves a coupon's settings (or only switches it on or off); its screen shows the saved coupon at once. */
export function useUpdateCoupon(couponId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (body: Partial<CouponBody>) =>
      (await api.PATCH('/api/v1/admin/coupons/{coupon_public_id}', { params: { path: { coupon_public_id: couponId } }, body })).data,
    invalidates: COUPON_CHANGES,
    onSuccess: (updated) => queryClient.setQueryData(couponKeys.detail(couponId), updated),
  });
}

/** Deletes a coupon: customers can no longer use it; its usage history stays. */
export function useDeleteCoupon(couponId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: () => api.DELETE('/api/v1/admin/coupons/{coupon_public_id}', { params: { path: { coupon_public_id: couponId } } }),
    invalidates: COUPON_CHANGES,
    // Gone: its screen is left, not read again.
    onSuccess: () => queryClient.removeQueries({ queryKey: couponKeys.detail(couponId) }),
  });
}
