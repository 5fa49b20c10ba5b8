import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { fromCents, toCents } from '../lib/money.js';
import { notFound } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { pageMeta, parseSort, type JsonPage } from '../lib/pagination.js';
import { readCatalogVersion } from '../http-cache/repository.js';
import { catalogWords, countProducts, findPublicProductJson, listPublicProductsJson } from './listing-repository.js';
import { suggestSearch } from './search-suggestion.js';
import { stockStatus } from '../inventory/mappers.js';
import { productFilters } from './product-filters.js';
import { publicVariantStock } from './stock-repository.js';
import type { ProductListQuery, PublicProductSortField, SearchSuggestionQuery, StoreSettings, VariantStock } from './schemas.js';

type ListQuery = Omit<ProductListQuery, 'category'> & { category?: string | undefined };

export interface PublicProduct {
  json: string;
  publicId: string;
  /** The catalog's version as the statement that read the product saw it. */
  version: number;
}

/**
 * The public catalog: only ACTIVE products with their ACTIVE variants, sent
 * as the stored `Product` documents PostgreSQL keeps (src/db/DERIVED.md).
 */
export function createStorefrontService({ db }: { db: Db }) {
  /** A storefront product as the JSON text of its `Product` document (see sendJsonData), its public ID and the catalog version it was read at. */
  async function one(by: { publicId: string } | { slug: string }): Promise<PublicProduct> {
    const product = await findPublicProductJson(db, by);
    if (product === undefined) throw notFound('Product');
    return { json: product.document, publicId: product.public_id, version: product.version };
  }

  /** The catalog's words (catalogWords), read again only once the catalog has changed. */
  let vocabulary: { version: number; words: Promise<string[]> } | null = null;
  async function wordsNow(): Promise<string[]> {
    const version = await readCatalogVersion(db);
    if (vocabulary?.version !== version) {
      const words = catalogWords(db).then((read) => read.words);
      vocabulary = { version, words };
      // A failed read is not kept: the next search reads again.
      words.catch(() => {
        if (vocabulary?.words === words) vocabulary = null;
      });
    }
    return vocabulary.words;
  }

  return {
    /**
     * A search that found nothing, in the catalog's words (search-suggestion.ts): only when that search
     * finds products under the same filters, so the suggestion is never another dead end.
     */
    async suggestion(query: SearchSuggestionQuery): Promise<string | null> {
      const suggested = suggestSearch(query.search, await wordsNow());
      if (suggested === null) return null;
      const filters = await productFilters(db, { page: 1, limit: 1, sort: '-created_at', ...query, search: suggested }, 'public');
      return filters && (await countProducts(db, filters)) > 0 ? suggested : null;
    },

    /**
     * A public product's variants with their stock as a shopper may know it: the status, and the count
     * only when it is low (a variant without a stock record has none to sell).
     */
    async stock(productPublicId: string): Promise<VariantStock[]> {
      const rows = isPublicId('prd', productPublicId) ? await publicVariantStock(db, productPublicId) : undefined;
      if (!rows) throw notFound('Product');
      return rows.map((row) => {
        const status = stockStatus(row.available ?? 0, row.reorder_level);
        return { variant_public_id: row.public_id, stock_status: status, quantity_left: status === 'LOW_STOCK' ? row.available : null };
      });
    },

    /**
     * A storefront page with `data` as JSON text, written by PostgreSQL in the `Product` shape (see sendJsonPage), the IDs
     * it shows, and the catalog version its last statement saw (null when no statement ran: an unknown category).
     */
    async list(query: ListQuery): Promise<JsonPage & { ids: string[]; version: number | null }> {
      const filters = await productFilters(db, query, 'public');
      if (!filters) return { data: '[]', meta: pageMeta(query, 0), ids: [], version: null };
      // Relevance orders a search's matches: without a search, nothing to rank, so the default order.
      const sort = parseSort<PublicProductSortField>(query.sort === 'relevance' && !query.search ? '-created_at' : query.sort);
      const { data, total, ids, version } = await listPublicProductsJson(db, filters, sort, query);
      return { data, meta: pageMeta(query, total), ids, version };
    },

    async get(publicId: string): Promise<PublicProduct> {
      if (!isPublicId('prd', publicId)) throw notFound('Product');
      return one({ publicId });
    },

    bySlug: (slug: string) => one({ slug }),
  };
}

export type StorefrontService = ReturnType<typeof createStorefrontService>;

/** The shop facts a storefront shows before there is a cart (GET /store), from the configuration, amounts as Money. */
export function storeSettings(config: Pick<Config, 'commerce'>): StoreSettings {
  const { storeName, storeHeadline, storeIntroduction, currency, shippingFlat, freeShippingFrom, taxRate } = config.commerce;
  return Object.freeze({
    name: storeName,
    headline: storeHeadline,
    introduction: storeIntroduction,
    currency,
    shipping_flat: fromCents(toCents(shippingFlat)),
    free_shipping_from: fromCents(toCents(freeShippingFrom)),
    tax_rate: taxRate,
  });
}
