import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonData, sendJsonPage } from '../lib/pagination.js';
import { IdParam, Ok, Page, errorResponses } from '../lib/schemas.js';
import type { CategoryService } from './categories-service.js';
import { Category, CategoryListQuery, CategoryProductsQuery, Product, ProductListQuery, StoreSettings, VariantStock } from './schemas.js';
import type { StorefrontService } from './storefront-service.js';

/** The public catalog: no session needed, only ACTIVE products and variants. */
export const catalogPublicRoutes =
  (deps: { storefront: StorefrontService; categories: CategoryService; settings: StoreSettings }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { storefront, categories, settings } = deps;
    const config = { access: 'public' as const };

    app.get('/store', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: "The shop's name, currency, shipping and tax rules (for showing prices before checkout)",
        response: { 200: Ok(StoreSettings), ...errorResponses() },
      },
      handler: async () => ({ success: true as const, data: settings }),
    });

    app.get('/products', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'Browse products',
        querystring: ProductListQuery,
        response: { 200: Page(Product), ...errorResponses() },
      },
      handler: async (request, reply) => sendJsonPage(reply, await storefront.list(request.query)),
    });

    app.get('/products/:product_public_id', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'A product with its variants',
        params: IdParam('product_public_id', 'prd'),
        response: { 200: Ok(Product), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => sendJsonData(reply, await storefront.get(request.params.product_public_id)),
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
        response: { 200: Ok(Product), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => sendJsonData(reply, await storefront.bySlug(request.params.slug)),
    });

    app.get('/categories', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'Categories, flat, each with its parent_public_id (build the tree client-side)',
        querystring: CategoryListQuery,
        response: { 200: Page(Category), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await categories.list(request.query)) }),
    });

    app.get('/categories/:category_public_id', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: 'A category',
        params: IdParam('category_public_id', 'cat'),
        response: { 200: Ok(Category), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, data: await categories.get(request.params.category_public_id) }),
    });

    app.get('/categories/:category_public_id/products', {
      config,
      schema: {
        tags: ['Catalog'],
        summary: "A category's products, its subcategories included",
        params: IdParam('category_public_id', 'cat'),
        querystring: CategoryProductsQuery,
        response: { 200: Page(Product), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        await categories.get(request.params.category_public_id); // 404 for an unknown category
        return sendJsonPage(reply, await storefront.list({ ...request.query, category: request.params.category_public_id }));
      },
    });
  };
