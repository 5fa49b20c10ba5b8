import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HttpCache } from '../http-cache/policy.js';
import { Cached, NotModified } from '../http-cache/schemas.js';
import { sendJsonData, sendJsonPage } from '../lib/pagination.js';
import { IdParam, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import type { CategoryService } from './categories-service.js';
import {
  Category,
  CategoryListQuery,
  CategoryProductsQuery,
  Product,
  ProductListQuery,
  SearchSuggestion,
  SearchSuggestionQuery,
  StoreSettings,
  VariantStock,
} from './schemas.js';
import type { StorefrontService } from './storefront-service.js';

/**
 * The public catalog: no session needed, only ACTIVE products and variants.
 * Every read is cacheable by shared caches (src/http-cache/policy.ts): it
 * answers If-None-Match from the catalog's version alone, and names the
 * products and categories it shows as surrogate keys.
 */
export const catalogPublicRoutes =
  (deps: {
    storefront: StorefrontService;
    categories: CategoryService;
    settings: StoreSettings;
    httpCache: HttpCache;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { storefront, categories, settings, httpCache } = deps;
    const config = { access: 'public' as const };

    app.get('/store', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: "The shop's name, currency, shipping and tax rules (for showing prices before checkout)",
        response: { 200: Cached(Ok(StoreSettings)), 304: NotModified, ...errorResponses() },
      },
      // The settings change only with the configuration, at a restart: the ETag is made of them.
      handler: async (request, reply) => {
        if (httpCache.notModifiedFixed(request, reply, settings, ['store'])) return sendEmpty(reply, 304);
        return { success: true as const, data: settings };
      },
    });

    app.get('/products', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'Browse products',
        querystring: ProductListQuery,
        response: { 200: Cached(Page(Product)), 304: NotModified, ...errorResponses() },
      },
      handler: async (request, reply) => {
        // Without a category the list is one statement, which reads the version too; a category's subtree is read first.
        if (await httpCache.notModified(request, reply, { versionWithData: request.query.category === undefined })) {
          return sendEmpty(reply, 304);
        }
        const page = await storefront.list(request.query);
        httpCache.keys(reply, ['products', ...page.ids], page.version);
        return sendJsonPage(reply, page);
      },
    });

    app.get('/products/search-suggestion', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: "A search that found nothing, its mistyped words replaced by the catalog's closest",
        description:
          "Each word of letters (four or more) that no product name, brand or category name contains is replaced by the closest such word within one edit (four letters) or two (longer); the result is offered only when it finds products under the same filters. For a shop page's 'Did you mean ...?'.",
        querystring: SearchSuggestionQuery,
        response: { 200: Cached(Ok(SearchSuggestion)), 304: NotModified, ...errorResponses() },
      },
      handler: async (request, reply) => {
        if (await httpCache.notModified(request, reply)) return sendEmpty(reply, 304);
        httpCache.keys(reply, ['products', 'categories']);
        return { success: true as const, data: { search: await storefront.suggestion(request.query) } };
      },
    });

    app.get('/products/:product_public_id', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'A product with its variants',
        params: IdParam('product_public_id', 'prd'),
        response: { 200: Cached(Ok(Product)), 304: NotModified, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        if (await httpCache.notModified(request, reply, { versionWithData: true })) return sendEmpty(reply, 304);
        const product = await storefront.get(request.params.product_public_id);
        httpCache.keys(reply, [product.publicId], product.version);
        return sendJsonData(reply, product.json);
      },
    });

    app.get('/products/:product_public_id/stock', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: "A product's variants with their stock now: the status, and how many are left when few are",
        description:
          'IN_STOCK, LOW_STOCK (at or below the reorder level; `quantity_left` says how many) or OUT_OF_STOCK, read live from the stock records, for each ACTIVE variant in order. Exact counts above the reorder level stay admin-only.',
        params: IdParam('product_public_id', 'prd'),
        response: { 200: Ok(Type.Array(VariantStock)), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, data: await storefront.stock(request.params.product_public_id) }),
    });

    app.get('/products/by-slug/:slug', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'A product by its slug',
        params: Type.Object({ slug: Type.String() }),
        response: { 200: Cached(Ok(Product)), 304: NotModified, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        if (await httpCache.notModified(request, reply, { versionWithData: true })) return sendEmpty(reply, 304);
        const product = await storefront.bySlug(request.params.slug);
        httpCache.keys(reply, [product.publicId], product.version);
        return sendJsonData(reply, product.json);
      },
    });

    app.get('/categories', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'Categories, flat, each with its parent_public_id (build the tree client-side)',
        querystring: CategoryListQuery,
        response: { 200: Cached(Page(Category)), 304: NotModified, ...errorResponses() },
      },
      handler: async (request, reply) => {
        if (await httpCache.notModified(request, reply)) return sendEmpty(reply, 304);
        httpCache.keys(reply, ['categories']);
        return { success: true as const, ...(await categories.list(request.query)) };
      },
    });

    app.get('/categories/:category_public_id', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'A category',
        params: IdParam('category_public_id', 'cat'),
        response: { 200: Cached(Ok(Category)), 304: NotModified, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        if (await httpCache.notModified(request, reply)) return sendEmpty(reply, 304);
        const category = await categories.get(request.params.category_public_id);
        httpCache.keys(reply, [category.public_id]);
        return { success: true as const, data: category };
      },
    });

    app.get('/categories/:category_public_id/products', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: "A category's products, its subcategories included",
        params: IdParam('category_public_id', 'cat'),
        querystring: CategoryProductsQuery,
        response: { 200: Cached(Page(Product)), 304: NotModified, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        if (await httpCache.notModified(request, reply)) return sendEmpty(reply, 304);
        const category = await categories.get(request.params.category_public_id); // 404 for an unknown category
        const page = await storefront.list({ ...request.query, category: request.params.category_public_id });
        httpCache.keys(reply, ['products', category.public_id, ...page.ids]);
        return sendJsonPage(reply, page);
      },
    });
  };
