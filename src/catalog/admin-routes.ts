import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { BulkResult, eachItem } from '../lib/bulk.js';
import { sendCsvStream } from '../lib/csv.js';
import { PRODUCT_CSV_COLUMNS } from './product-csv.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import type { CatalogAdminService } from './admin-service.js';
import type { CategoryService } from './categories-service.js';
import {
  AdminProduct,
  AdminProductListQuery,
  BulkProductDelete,
  BulkProductStatus,
  ProductStatus,
  VariantBatch,
  AdminVariant,
  Category,
  CategoryCreate,
  CategoryPatch,
  ProductCreate,
  ProductPatch,
  VariantCreate,
  VariantPatch,
} from './schemas.js';
import { Type } from 'typebox';

/** Catalog management for ADMIN and SUPER_ADMIN. */
export const catalogAdminRoutes =
  (deps: { catalog: CatalogAdminService; categories: CategoryService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { catalog, categories } = deps;
    const config = { access: 'admin' as const };
    const tags = ['Admin: catalog'];
    const product = IdParam('product_public_id', 'prd');
    const variant = IdParam('variant_public_id', 'var');
    const category = IdParam('category_public_id', 'cat');
    const link = Type.Object({ category_public_id: Type.String(), product_public_id: Type.String() });
    const productWrite = errorResponses('NOT_FOUND', 'SLUG_TAKEN', 'INVALID_IMAGE_URL');
    const variantWrite = errorResponses('NOT_FOUND', 'SKU_TAKEN', 'VARIANT_OPTIONS_TAKEN', 'INVALID_IMAGE_URL');
    const categoryWrite = errorResponses('NOT_FOUND', 'SLUG_TAKEN');
    const removal = errorResponses('NOT_FOUND');

    app.get('/admin/products', {
      config,
      schema: {
        tags,
        summary: 'All products, any status',
        querystring: AdminProductListQuery,
        response: { 200: Page(AdminProduct), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await catalog.list(request.query)) }),
    });

    app.get('/admin/products/:product_public_id', {
      config,
      schema: {
        tags,
        summary: 'A product with costs and inventory (deleted ones too)',
        params: product,
        response: { 200: Ok(AdminProduct), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, data: await catalog.getProduct(request.params.product_public_id) }),
    });

    app.post('/admin/products', {
      config,
      schema: { tags, summary: 'Create a product', body: ProductCreate, response: { 201: Ok(AdminProduct), ...productWrite } },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await catalog.createProduct(authedCtxOf(request), request.body) }),
    });

    app.patch('/admin/products/:product_public_id', {
      config,
      schema: {
        tags,
        summary: 'Edit a product',
        params: product,
        body: ProductPatch,
        response: { 200: Ok(AdminProduct), ...productWrite },
      },
      handler: async (request) => ({
        success: true as const,
        data: await catalog.updateProduct(authedCtxOf(request), request.params.product_public_id, request.body),
      }),
    });

    app.delete('/admin/products/:product_public_id', {
      config,
      schema: { tags, summary: 'Delete a product and its variants (soft)', params: product, response: { 204: NoContent, ...removal } },
      handler: async (request, reply) => {
        await catalog.deleteProduct(authedCtxOf(request), request.params.product_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.get('/admin/exports/products', {
      config: { ...config, csvOnly: true },
      schema: {
        tags,
        summary: 'Every live product (optionally of one status) as CSV in the import format, a row per variant, streamed',
        querystring: Type.Object({ status: Type.Optional(ProductStatus) }),
        response: { 200: Type.String(), ...errorResponses() },
      },
      handler: async (request, reply) => {
        const { total, batches } = await catalog.exportProducts(authedCtxOf(request), request.query);
        return sendCsvStream(reply, 'products.csv', PRODUCT_CSV_COLUMNS, batches, total);
      },
    });

    app.post('/admin/products/bulk-status', {
      config,
      schema: {
        tags,
        summary: 'Set the status of many products, each as PATCH /admin/products/{prd} would (and audited so)',
        body: BulkProductStatus,
        response: { 200: Ok(BulkResult), ...errorResponses() },
      },
      handler: async (request) => {
        const ctx = authedCtxOf(request);
        const { product_public_ids: ids, status } = request.body;
        return { success: true as const, data: await eachItem(ids, (id) => catalog.updateProduct(ctx, id, { status })) };
      },
    });

    app.post('/admin/products/bulk-delete', {
      config,
      schema: {
        tags,
        summary: 'Delete many products (soft), each as DELETE /admin/products/{prd} would (and audited so)',
        body: BulkProductDelete,
        response: { 200: Ok(BulkResult), ...errorResponses() },
      },
      handler: async (request) => {
        const ctx = authedCtxOf(request);
        return { success: true as const, data: await eachItem(request.body.product_public_ids, (id) => catalog.deleteProduct(ctx, id)) };
      },
    });

    app.post('/admin/products/:product_public_id/duplicate', {
      config,
      schema: {
        tags,
        summary: 'Copy a product as a DRAFT with a new slug, its categories and images, and its variants with new SKUs (no stock)',
        params: product,
        response: { 201: Ok(AdminProduct), ...errorResponses('NOT_FOUND', 'SKU_TAKEN') },
      },
      handler: async (request, reply) =>
        reply
          .code(201)
          .send({ success: true as const, data: await catalog.duplicateProduct(authedCtxOf(request), request.params.product_public_id) }),
    });

    app.post('/admin/products/:product_public_id/variants/batch', {
      config,
      schema: {
        tags,
        summary: 'Add several variants at once (e.g. every size × colour), each with an optional stock record: all or none',
        params: product,
        body: VariantBatch,
        response: { 201: Ok(AdminProduct), ...errorResponses('NOT_FOUND', 'SKU_TAKEN', 'VARIANT_OPTIONS_TAKEN', 'INVALID_IMAGE_URL') },
      },
      handler: async (request, reply) =>
        reply.code(201).send({
          success: true as const,
          data: await catalog.createVariants(authedCtxOf(request), request.params.product_public_id, request.body),
        }),
    });

    app.post('/admin/products/:product_public_id/variants', {
      config,
      schema: {
        tags,
        summary: 'Add a variant',
        params: product,
        body: VariantCreate,
        response: { 201: Ok(AdminVariant), ...variantWrite },
      },
      handler: async (request, reply) =>
        reply.code(201).send({
          success: true as const,
          data: await catalog.createVariant(authedCtxOf(request), request.params.product_public_id, request.body),
        }),
    });

    app.patch('/admin/variants/:variant_public_id', {
      config,
      schema: {
        tags,
        summary: 'Edit a variant',
        params: variant,
        body: VariantPatch,
        response: { 200: Ok(AdminVariant), ...variantWrite },
      },
      handler: async (request) => ({
        success: true as const,
        data: await catalog.updateVariant(authedCtxOf(request), request.params.variant_public_id, request.body),
      }),
    });

    app.delete('/admin/variants/:variant_public_id', {
      config,
      schema: { tags, summary: 'Delete a variant (soft)', params: variant, response: { 204: NoContent, ...removal } },
      handler: async (request, reply) => {
        await catalog.deleteVariant(authedCtxOf(request), request.params.variant_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.post('/admin/categories', {
      config,
      schema: { tags, summary: 'Create a category', body: CategoryCreate, response: { 201: Ok(Category), ...categoryWrite } },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await categories.create(authedCtxOf(request), request.body) }),
    });

    app.patch('/admin/categories/:category_public_id', {
      config,
      schema: {
        tags,
        summary: 'Edit or move a category',
        params: category,
        body: CategoryPatch,
        response: { 200: Ok(Category), ...categoryWrite },
      },
      handler: async (request) => ({
        success: true as const,
        data: await categories.update(authedCtxOf(request), request.params.category_public_id, request.body),
      }),
    });

    app.delete('/admin/categories/:category_public_id', {
      config,
      schema: {
        tags,
        summary: 'Delete a category (soft); its children move up to its parent',
        params: category,
        response: { 204: NoContent, ...removal },
      },
      handler: async (request, reply) => {
        await categories.remove(authedCtxOf(request), request.params.category_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.put('/admin/categories/:category_public_id/products/:product_public_id', {
      config,
      schema: { tags, summary: 'Put a product in a category (idempotent)', params: link, response: { 204: NoContent, ...removal } },
      handler: async (request, reply) => {
        await catalog.linkCategory(authedCtxOf(request), request.params.category_public_id, request.params.product_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.delete('/admin/categories/:category_public_id/products/:product_public_id', {
      config,
      schema: { tags, summary: 'Take a product out of a category (idempotent)', params: link, response: { 204: NoContent, ...removal } },
      handler: async (request, reply) => {
        await catalog.unlinkCategory(authedCtxOf(request), request.params.category_public_id, request.params.product_public_id);
        return sendEmpty(reply, 204);
      },
    });
  };
