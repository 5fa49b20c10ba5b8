import { sql, type ExpressionBuilder } from 'kysely';
import type { Executor } from '../db/database.js';
import { catalogVersionColumn } from '../http-cache/repository.js';
import type { Database, ProductRow, ProductStatus, ProductsTable } from '../db/schema.js';
import type { PageRequest, Sort } from '../lib/pagination.js';
import { containsPattern, keyIn, likeEscaped, offsetOf, pageClause, paged } from '../lib/sql.js';
import { searchTerms } from './search-terms.js';
import { toAdminProducts } from './mappers.js';
import type { AdminProduct, ProductSortField, PublicProductSortField } from './schemas.js';

/**
 * Product list SQL, storefront and admin. A product page is always the same
 * bounded set of statements: the page of products (with its total), then the
 * variants and categories of exactly those products. Never one query per product.
 */

export interface ProductFilters {
  /** `public` sees only ACTIVE products and ACTIVE variants, never deleted ones. */
  audience: 'public' | 'admin';
  search?: string | undefined;
  /** The category and all its descendants, already resolved. */
  categoryIds?: number[] | undefined;
  minPrice?: string | undefined;
  maxPrice?: string | undefined;
  inStock?: boolean | undefined;
  status?: ProductStatus | undefined;
  includeDeleted?: boolean | undefined;
}

type ProductEb = ExpressionBuilder<Database & { p: ProductsTable }, 'p'>;

/** A literal, not a parameter: only then can a cached plan use the partial indexes (`WHERE status = 'ACTIVE'`; bench finding 21). */
const ACTIVE = sql.lit('ACTIVE' as const);

/** Variants a filter may look at: public ones for the storefront, live ones for admins. */
function visibleVariants(eb: ProductEb, audience: ProductFilters['audience']) {
  let query = eb
    .selectFrom('variants as v')
    .select(sql`1`.as('one'))
    .whereRef('v.product_id', '=', 'p.id')
    .where('v.deleted_at', 'is', null);
  if (audience === 'public') query = query.where('v.status', '=', ACTIVE);
  return query;
}

function filteredProducts(db: Executor, f: ProductFilters) {
  let query = db.selectFrom('products as p');
  if (f.audience === 'public') {
    query = query.where('p.status', '=', ACTIVE).where('p.deleted_at', 'is', null);
  } else {
    if (!f.includeDeleted) query = query.where('p.deleted_at', 'is', null);
    if (f.status) query = query.where('p.status', '=', f.status);
  }
  // Every word somewhere (search-terms.ts). Per word one bitmap scan: the name, brand, description and
  // SKU matches OR-ed as bitmaps, each product read once.
  for (const term of f.search ? searchTerms(f.search) : []) {
    const pattern = containsPattern(term);
    let skus = db.selectFrom('variants as v').select('v.product_id').where('v.deleted_at', 'is', null).where('v.sku', 'ilike', pattern);
    if (f.audience === 'public') skus = skus.where('v.status', '=', ACTIVE);
    query = query.where((eb) =>
      eb.or([eb('p.name', 'ilike', pattern), eb('p.brand', 'ilike', pattern), eb('p.description', 'ilike', pattern), keyIn('p.id', skus)]),
    );
  }
  if (f.categoryIds) {
    const ids = f.categoryIds;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_categories as pc')
          .select(sql`1`.as('one'))
          .whereRef('pc.product_id', '=', 'p.id')
          .where('pc.category_id', 'in', ids.length > 0 ? ids : [-1]),
      ),
    );
  }
  if (f.minPrice !== undefined || f.maxPrice !== undefined) {
    // A product matches when one of its variants is priced inside the range.
    query = query.where((eb) => {
      let variants = visibleVariants(eb, f.audience);
      if (f.minPrice !== undefined) variants = variants.where('v.price', '>=', f.minPrice);
      if (f.maxPrice !== undefined) variants = variants.where('v.price', '<=', f.maxPrice);
      return eb.exists(variants);
    });
  }
  if (f.inStock) {
    query = query.where((eb) =>
      eb.exists(
        visibleVariants(eb, f.audience)
          .innerJoin('inventory as i', 'i.variant_id', 'v.id')
          .where(sql<boolean>`i.quantity_on_hand - i.quantity_reserved > 0`),
      ),
    );
  }
  return query;
}

/** The whole storefront, unfiltered: its total is the derived counter `storefront_totals` (src/db/DERIVED.md), not a count. */
const isWholeStorefront = (f: ProductFilters) =>
  f.audience === 'public' && !f.search && !f.categoryIds && f.minPrice === undefined && f.maxPrice === undefined && !f.inStock;

function totalQuery(db: Executor, filters: ProductFilters) {
  return isWholeStorefront(filters)
    ? db.selectFrom('storefront_totals').select('products as n')
    : filteredProducts(db, filters).select((eb) => eb.fn.countAll<number>().as('n'));
}

const SORT_COLUMNS = {
  name: sql`p.name`,
  price: sql`p.price_min`,
  created_at: sql`p.created_at`,
  rating: sql`p.rating_average`,
} as const;

/**
 * How well a product's name and brand match a search, as a rank (lower is better, for an ascending sort):
 * per word, two for the name holding it, one more for a word of the name starting with it, one for the
 * brand holding it; so "linen shirt" puts "Linen Shirt" before a shirt whose description mentions linen,
 * and a brand's name lists its products before those whose descriptions mention it. Every product listed
 * matches each word somewhere already (filteredProducts); the rank only orders them.
 */
function searchRank(search: string | undefined) {
  const terms = search ? searchTerms(search) : [];
  if (terms.length === 0) return sql<number>`0`;
  // "A word of the name starts with it" is one test of the name behind a space (the start, or after one).
  const perWord = terms.map(
    (term) =>
      sql`(CASE WHEN p.name ILIKE ${containsPattern(term)} THEN 2 ELSE 0 END
        + CASE WHEN (' ' || p.name) ILIKE ${`% ${likeEscaped(term)}%`} THEN 1 ELSE 0 END
        + CASE WHEN p.brand ILIKE ${containsPattern(term)} THEN 1 ELSE 0 END)`,
  );
  return sql<number>`-(${sql.join(perWord, sql` + `)})`;
}

/**
 * The sort's ORDER BY, each matching one index exactly, with the public ID as the tiebreak in the same direction.
 * Relevance orders the matches of a search (their `search_rank`, listFilteredJson), the newest first among equals.
 */
function orderOf(sort: Sort<PublicProductSortField>) {
  if (sort.field === 'relevance') return sql`p.search_rank, p.created_at DESC, p.public_id DESC`;
  // Products without an active variant have no price: last in both directions.
  const key =
    sort.field === 'price' && sort.direction === 'desc'
      ? sql`p.price_min DESC NULLS LAST`
      : sql`${SORT_COLUMNS[sort.field]} ${sql.raw(sort.direction)}`;
  return sql`${key}, p.public_id ${sql.raw(sort.direction)}`;
}

/**
 * The page's rows. Past the first page, by deferred join: the offset is
 * skipped in the sort's index (which carries the id) and only the page's rows
 * are read from the table (bench finding 19). A first page skips nothing, and
 * the plain form lets the planner stop at the twentieth match of a filter.
 */
function pageRows(db: Executor, filters: ProductFilters, sort: Sort<ProductSortField>, page: PageRequest) {
  const matching = filteredProducts(db, filters);
  if (offsetOf(page) === 0) return matching.selectAll('p').orderBy(orderOf(sort)).$call(paged(page));
  const ids = matching.select('p.id').orderBy(orderOf(sort)).$call(paged(page));
  return db.selectFrom('products as p').selectAll('p').where(keyIn('p.id', ids)).orderBy(orderOf(sort));
}

/**
 * One statement: the page and the filtered total as a scalar subquery,
 * counted once through a narrow index (or read from the storefront's counter
 * when nothing filters), instead of a window over every matching row.
 */
function pageQuery(db: Executor, filters: ProductFilters, sort: Sort<ProductSortField>, page: PageRequest) {
  return pageRows(db, filters, sort, page).select(totalQuery(db, filters).as('total_count'));
}

export function listProducts(db: Executor, filters: ProductFilters, sort: Sort<ProductSortField>, page: PageRequest) {
  return pageQuery(db, filters, sort, page).execute();
}

/** The rows of the CTE `page` as the JSON text of a `data` array, in the sort's order: their stored documents (bench finding 23). */
const pageJson = (sort: Sort<PublicProductSortField>) =>
  sql<string>`(SELECT coalesce('[' || string_agg(d.document::text, ', ' ORDER BY ${orderOf(sort)}) || ']', '[]')
    FROM page p JOIN product_documents d ON d.product_id = p.id)`;

/** The public IDs of the CTE `page` (the surrogate keys of a cached list). */
const pageIds = sql<string[]>`(SELECT coalesce(array_agg(p.public_id), '{}') FROM page p)`;

/** One of the sorts an index serves (every sort but relevance, which ranks a search's matches). */
const isIndexedSort = (sort: Sort<PublicProductSortField>): sort is Sort<ProductSortField> => sort.field !== 'relevance';

/** A storefront page and its total in one round trip, the page as JSON text passed on unparsed (bench findings 18, 23), with its products' IDs. */
export async function listPublicProductsJson(
  db: Executor,
  filters: ProductFilters,
  sort: Sort<PublicProductSortField>,
  page: PageRequest,
): Promise<{ data: string; total: number; ids: string[]; version: number }> {
  // The in-stock filter alone pages best straight from the sort index (its total is the documented slow part).
  // Relevance ranks the matches of a search, which only listFilteredJson computes.
  if (!isIndexedSort(sort) || (!isWholeStorefront(filters) && !filters.inStock)) return listFilteredJson(db, filters, sort, page);
  const row = await db
    .with('page', () => pageRows(db, filters, sort, page))
    .selectNoFrom([pageJson(sort).as('data'), totalQuery(db, filters).as('total'), pageIds.as('ids'), catalogVersionColumn.as('version')])
    .executeTakeFirstOrThrow();
  return { data: row.data, total: Number(row.total), ids: row.ids, version: Number(row.version) };
}

/** A filtered storefront page: the matches found once, with their sort keys, and both the page and the total taken from them (bench finding 20). */
async function listFilteredJson(db: Executor, filters: ProductFilters, sort: Sort<PublicProductSortField>, page: PageRequest) {
  const matched = filteredProducts(db, filters).select([
    'p.id',
    'p.public_id',
    'p.created_at',
    'p.name',
    'p.price_min',
    'p.rating_average',
    (sort.field === 'relevance' ? searchRank(filters.search) : sql<number>`0`).as('search_rank'),
  ]);
  const result = await sql<{ data: string; total: number; ids: string[]; version: number }>`
    WITH matched AS MATERIALIZED (${matched}),
    page AS (SELECT * FROM matched p ORDER BY ${orderOf(sort)} ${pageClause(page)})
    SELECT ${pageJson(sort)} AS data, (SELECT count(*) FROM matched) AS total, ${pageIds} AS ids, ${catalogVersionColumn} AS version
  `.execute(db);
  const row = result.rows[0]!;
  return { data: row.data, total: Number(row.total), ids: row.ids, version: Number(row.version) };
}

/**
 * One storefront product as the JSON text of its stored `Product` document,
 * with the catalog's version its statement saw (for its ETag):
 * the same bytes a list shows for it. test/product-documents.test.ts holds
 * every stored document equal to one built fresh by `product_documents_of()`.
 */
export async function findPublicProductJson(
  db: Executor,
  by: { publicId: string } | { slug: string },
): Promise<{ document: string; public_id: string; version: number } | undefined> {
  let query = filteredProducts(db, { audience: 'public' })
    .innerJoin('product_documents as d', 'd.product_id', 'p.id')
    .select([sql<string>`d.document::text`.as('document'), 'p.public_id', catalogVersionColumn.as('version')]);
  query = 'publicId' in by ? query.where('p.public_id', '=', by.publicId) : query.where('p.slug', '=', by.slug);
  return query.executeTakeFirst();
}

/** At most this many words are kept for suggestions (the most used): a catalog's vocabulary, bounded whatever its size. */
const MAX_CATALOG_WORDS = 20_000;

/**
 * The words shoppers can find: those of the active products' names and brands and of the categories'
 * names, lower case, letters only, three or more, the most used first; with the catalog version read.
 */
export async function catalogWords(db: Executor): Promise<{ words: string[]; version: number }> {
  const result = await sql<{ words: string[] | null; version: number }>`
    WITH words AS (
      SELECT w FROM products p, regexp_split_to_table(lower(p.name || ' ' || coalesce(p.brand, '')), '[^[:alpha:]]+') AS w
      WHERE p.status = ${ACTIVE} AND p.deleted_at IS NULL
      UNION ALL
      SELECT w FROM categories c, regexp_split_to_table(lower(c.name), '[^[:alpha:]]+') AS w
      WHERE c.deleted_at IS NULL
    ),
    counted AS (
      SELECT w, count(*) AS n FROM words WHERE char_length(w) >= 3 GROUP BY w ORDER BY n DESC, w LIMIT ${MAX_CATALOG_WORDS}
    )
    SELECT (SELECT array_agg(w ORDER BY n DESC, w) FROM counted) AS words, ${catalogVersionColumn} AS version
  `.execute(db);
  const row = result.rows[0]!;
  return { words: row.words ?? [], version: Number(row.version) };
}

export async function countProducts(db: Executor, filters: ProductFilters): Promise<number> {
  return (await totalQuery(db, filters).executeTakeFirstOrThrow()).n;
}

/** Variants of a page of products, with their stock, in display order. */
export function variantsOf(
  db: Executor,
  productIds: number[],
  audience: ProductFilters['audience'],
  includeDeleted = false,
  onlyVariantId?: number,
) {
  if (productIds.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .leftJoin('inventory as i', 'i.variant_id', 'v.id')
    .selectAll('v')
    .select([
      'p.public_id as product_public_id',
      'p.name as product_name',
      'i.quantity_on_hand',
      'i.quantity_reserved',
      'i.reorder_level',
      'i.created_at as inventory_created_at',
      'i.last_stock_update',
    ])
    .where('v.product_id', 'in', productIds)
    .orderBy('v.product_id')
    .orderBy('v.position')
    .orderBy('v.id');
  if (!includeDeleted) query = query.where('v.deleted_at', 'is', null);
  if (onlyVariantId !== undefined) query = query.where('v.id', '=', onlyVariantId);
  if (audience === 'public') query = query.where('v.status', '=', 'ACTIVE');
  return query.execute();
}
export type VariantWithStock = Awaited<ReturnType<typeof variantsOf>>[number];

export function categoriesOf(db: Executor, productIds: number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('product_categories as pc')
    .innerJoin('categories as c', 'c.id', 'pc.category_id')
    .select(['pc.product_id', 'c.public_id', 'c.name', 'c.slug'])
    .where('pc.product_id', 'in', productIds)
    .where('c.deleted_at', 'is', null)
    .orderBy('c.name')
    .execute();
}

/** Loads the variants and categories of a set of products: two statements, whatever the count. */
export async function hydrate(db: Executor, products: ProductRow[], audience: ProductFilters['audience'], includeDeletedVariants = false) {
  const ids = products.map((p) => p.id);
  const [variants, categories] = await Promise.all([variantsOf(db, ids, audience, includeDeletedVariants), categoriesOf(db, ids)]);
  return { variants, categories };
}

/** Products as the admin API shows them (their variants with stock, their categories), read in a few statements however many. */
export async function readAdminProducts(db: Executor, products: ProductRow[], includeDeletedVariants = false): Promise<AdminProduct[]> {
  const { variants, categories } = await hydrate(db, products, 'admin', includeDeletedVariants);
  return toAdminProducts(products, variants, categories);
}
