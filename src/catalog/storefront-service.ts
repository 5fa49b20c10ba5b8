import type { Db, Executor } from '../db/database.js';
import type { ProductRow } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { pageMeta, parseSort, toPage, type JsonPage } from '../lib/pagination.js';
import { toAdminProducts } from './mappers.js';
import {
  categoriesOf,
  categorySubtree,
  countProducts,
  findPublicProductJson,
  listProducts,
  listPublicProductsJson,
  variantsOf,
  type ProductFilters,
} from './repository.js';
import type { AdminProductListQuery, ProductListQuery, ProductSortField } from './schemas.js';

/** Loads the variants and categories of a set of products: two statements, whatever the count. */
export async function hydrate(db: Executor, products: ProductRow[], audience: ProductFilters['audience'], includeDeletedVariants = false) {
  const ids = products.map((p) => p.id);
  const [variants, categories] = await Promise.all([variantsOf(db, ids, audience, includeDeletedVariants), categoriesOf(db, ids)]);
  return { variants, categories };
}

type ListQuery = Omit<ProductListQuery, 'category'> & { category?: string | undefined };

/** Filters shared by the storefront and admin product lists. */
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

const emptyPage = (query: { page: number; limit: number }) => ({ data: [], meta: pageMeta(query, 0) });

/** The public catalog: only ACTIVE products with their ACTIVE variants. */
export function createStorefrontService({ db }: { db: Db }) {
  /** A storefront product as the JSON text of its `Product` document (see sendJsonData). */
  async function one(by: { publicId: string } | { slug: string }): Promise<string> {
    const product = await findPublicProductJson(db, by);
    if (product === undefined) throw notFound('Product');
    return product;
  }

  return {
    /** A storefront page with `data` as JSON text, written by PostgreSQL in the `Product` shape (see sendJsonPage). */
    async list(query: ListQuery): Promise<JsonPage> {
      const filters = await productFilters(db, query, 'public');
      if (!filters) return { data: '[]', meta: pageMeta(query, 0) };
      const { data, total } = await listPublicProductsJson(db, filters, parseSort<ProductSortField>(query.sort), query);
      return { data, meta: pageMeta(query, total) };
    },

    async get(publicId: string): Promise<string> {
      if (!isPublicId('prd', publicId)) throw notFound('Product');
      return one({ publicId });
    },

    bySlug: (slug: string) => one({ slug }),

    /** Admin list: every status, optionally deleted ones, with costs and inventory. */
    async adminList(query: AdminProductListQuery) {
      const base = await productFilters(db, query, 'admin');
      if (!base) return emptyPage(query);
      const filters: ProductFilters = { ...base, status: query.status, includeDeleted: query.include_deleted === 'true' };
      const rows = await listProducts(db, filters, parseSort<ProductSortField>(query.sort), query);
      const { variants, categories } = await hydrate(db, rows, 'admin');
      const page = await toPage(rows, query, () => countProducts(db, filters), (row) => row);
      return { data: toAdminProducts(page.data, variants, categories), meta: page.meta };
    },
  };
}

export type StorefrontService = ReturnType<typeof createStorefrontService>;
