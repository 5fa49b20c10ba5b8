import { valuesOf, type SortOf } from '../../api/domain';
import { oneOf, pageOrNone, text } from '../../lib/search';

export const COUPON_SORTS = valuesOf<SortOf<'/api/v1/admin/coupons'>>()([
  '-created_at',
  'created_at',
  'code',
  '-code',
  '-times_used',
  'times_used',
]);

export interface CouponsSearch {
  page?: number | undefined;
  q?: string | undefined;
  sort?: (typeof COUPON_SORTS)[number] | undefined;
}

export const couponsSearch = (search: Record<string, unknown>): CouponsSearch => ({
  page: pageOrNone(search.page),
  q: text(search.q, 50),
  sort: oneOf(search.sort, COUPON_SORTS),
});

/** A coupon's URL: the page of its usage. */
export const couponSearch = (search: Record<string, unknown>): { page?: number | undefined } => ({ page: pageOrNone(search.page) });
