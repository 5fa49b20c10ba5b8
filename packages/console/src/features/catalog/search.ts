import { PRODUCT_STATUSES, someOf, type ProductStatus, type SortOf } from '../../api/domain';
import { oneOf, pageOrNone, text } from '../../lib/search';

/** The sorts the products table offers (the API also sorts by rating). */
export const PRODUCT_SORTS = someOf<SortOf<'/api/v1/admin/products'>>()(['-created_at', 'created_at', 'name', '-name', 'price', '-price']);

export interface ProductsSearch {
  page?: number | undefined;
  q?: string | undefined;
  status?: ProductStatus | undefined;
  sort?: (typeof PRODUCT_SORTS)[number] | undefined;
}

export const productsSearch = (search: Record<string, unknown>): ProductsSearch => ({
  page: pageOrNone(search.page),
  q: text(search.q),
  status: oneOf(search.status, PRODUCT_STATUSES),
  sort: oneOf(search.sort, PRODUCT_SORTS),
});
