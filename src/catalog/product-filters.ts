import type { Executor } from '../db/database.js';
import { isPublicId } from '../lib/ids.js';
import { categorySubtree } from './category-repository.js';
import type { ProductFilters } from './listing-repository.js';
import type { ProductListQuery } from './schemas.js';

type ListQuery = Omit<ProductListQuery, 'category'> & { category?: string | undefined };

/** The filters of a product list query, shared by the storefront and admin lists; `null` when nothing can match. */
export async function productFilters(db: Executor, query: ListQuery, audience: ProductFilters['audience']): Promise<ProductFilters | null> {
  let categoryIds: number[] | undefined;
  if (query.category !== undefined) {
    const subtree = isPublicId('cat', query.category) ? await categorySubtree(db, query.category) : null;
    if (!subtree) return null; // an unknown category matches nothing
    categoryIds = subtree;
  }
  return {
    audience,
    search: query.search,
    categoryIds,
    minPrice: query.min_price,
    maxPrice: query.max_price,
    inStock: query.in_stock === 'true',
  };
}
