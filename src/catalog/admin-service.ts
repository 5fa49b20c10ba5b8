import type { Db, Executor, Trx } from '../db/database.js';
import type { ImageJson, ProductRow, VariantRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { AuthedCtx } from '../lib/context.js';
import { isUniqueViolation } from '../lib/db-errors.js';
import { conflict, notFound } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import type { MediaService } from '../media/service.js';
import { toAdminProducts, toAdminVariant } from './mappers.js';
import { lockProductOfVariant, variantsOf } from './repository.js';
import type { AdminProduct, AdminVariant, ImageInput, ProductCreate, ProductPatch, VariantCreate, VariantPatch } from './schemas.js';
import { chooseSlug } from './slug.js';
import { hydrate } from './storefront-service.js';
import { transaction } from '../db/transaction.js';

const slugTaken = () => conflict('SLUG_TAKEN', 'Another product already uses this slug');
const skuTaken = () => conflict('SKU_TAKEN', 'Another variant already uses this SKU');

/** The fields an audit entry records for a product or variant (no derived or internal columns). */
const productAudit = (p: ProductRow) => ({ name: p.name, slug: p.slug, description: p.description, brand: p.brand, status: p.status, images: p.images });
const variantAudit = (v: VariantRow) => ({
  sku: v.sku,
  name: v.name,
  options: v.options,
  price: v.price,
  compare_at_price: v.compare_at_price,
  cost_price: v.cost_price,
  status: v.status,
  position: v.position,
});

/**
 * Admin catalog writes (contract section 6). Deletes are soft; a deleted
 * product takes its variants with it. Every write is audited in its transaction.
 */
export function createCatalogAdminService({ db, media }: { db: Db; media: Pick<MediaService, 'resolveImageUrls'> }) {
  /** The images as stored: URLs checked and normalised by the media module, positions from the order given. */
  async function storedImages(trx: Executor, images: ImageInput[] | undefined): Promise<string | undefined> {
    if (!images) return undefined;
    const urls = await media.resolveImageUrls(trx, 'products', images.map((image) => image.url), (i) => `images.${i}.url`);
    const stored: ImageJson[] = images.map((image, position) => ({ url: urls[position]!, alt_text: image.alt_text ?? null, position }));
    return JSON.stringify(stored);
  }

  async function liveProduct(trx: Executor, publicId: string, lock = false): Promise<ProductRow> {
    if (!isPublicId('prd', publicId)) throw notFound('Product');
    let query = trx.selectFrom('products').selectAll().where('public_id', '=', publicId).where('deleted_at', 'is', null);
    if (lock) query = query.forNoKeyUpdate();
    const product = await query.executeTakeFirst();
    if (!product) throw notFound('Product');
    return product;
  }

  /** The live variant, locked after its product (src/db/LOCKING.md: a product's row before its variants'). */
  async function liveVariant(trx: Executor, publicId: string): Promise<VariantRow> {
    if (!isPublicId('var', publicId)) throw notFound('Variant');
    await lockProductOfVariant(trx, publicId);
    const variant = await trx.selectFrom('variants').selectAll().where('public_id', '=', publicId).where('deleted_at', 'is', null).forNoKeyUpdate().executeTakeFirst();
    if (!variant) throw notFound('Variant');
    return variant;
  }

  async function categoryIds(trx: Executor, publicIds: string[]): Promise<number[]> {
    if (publicIds.length === 0) return [];
    const rows = await trx
      .selectFrom('categories')
      .select(['id', 'public_id'])
      .where('public_id', 'in', publicIds)
      .where('deleted_at', 'is', null)
      .execute();
    const missing = publicIds.find((id) => !rows.some((row) => row.public_id === id));
    if (missing) throw notFound(`Category ${missing}`);
    return rows.map((row) => row.id);
  }

  async function setCategories(trx: Trx, productId: number, publicIds: string[]): Promise<void> {
    const ids = await categoryIds(trx, publicIds);
    await trx.deleteFrom('product_categories').where('product_id', '=', productId).execute();
    if (ids.length > 0) await trx.insertInto('product_categories').values(ids.map((category_id) => ({ product_id: productId, category_id }))).execute();
  }


  async function readProduct(trx: Executor, productId: number): Promise<AdminProduct> {
    const product = await trx.selectFrom('products').selectAll().where('id', '=', productId).executeTakeFirstOrThrow();
    const { variants, categories } = await hydrate(trx, [product], 'admin', product.deleted_at !== null);
    return toAdminProducts([product], variants, categories)[0]!;
  }

  async function readVariant(trx: Executor, variant: VariantRow): Promise<AdminVariant> {
    const [row] = await variantsOf(trx, [variant.product_id], 'admin', true, variant.id);
    return toAdminVariant(row!);
  }

  /** Runs a write, translating the catalog's unique constraints into 409s. */
  async function write<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    try {
      return await transaction(db, work);
    } catch (error) {
      if (isUniqueViolation(error, 'products_slug_unique')) throw slugTaken();
      if (isUniqueViolation(error, 'variants_sku_unique')) throw skuTaken();
      throw error;
    }
  }

  return {
    async getProduct(publicId: string): Promise<AdminProduct> {
      if (!isPublicId('prd', publicId)) throw notFound('Product');
      const product = await db.selectFrom('products').select('id').where('public_id', '=', publicId).executeTakeFirst();
      if (!product) throw notFound('Product');
      return readProduct(db, product.id);
    },

    createProduct: (ctx: AuthedCtx, input: ProductCreate) =>
      write(async (trx) => {
        const images = await storedImages(trx, input.images);
        const product = await trx
          .insertInto('products')
          .values({
            public_id: newPublicId('prd'),
            name: input.name,
            slug: await chooseSlug(trx, 'products', input.slug, input.name, slugTaken),
            description: input.description ?? '',
            brand: input.brand ?? null,
            status: input.status ?? 'DRAFT',
            images,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (input.category_public_ids) await setCategories(trx, product.id, input.category_public_ids);
        await writeAudit(trx, ctx, {
          action: 'product.create',
          entityType: 'product',
          entityPublicId: product.public_id,
          changes: { before: null, after: { ...productAudit(product), category_public_ids: input.category_public_ids ?? [] } },
        });
        return readProduct(trx, product.id);
      }),

    updateProduct: (ctx: AuthedCtx, publicId: string, patch: ProductPatch) =>
      write(async (trx) => {
        const before = await liveProduct(trx, publicId, true);
        const images = await storedImages(trx, patch.images);
        const after = await trx
          .updateTable('products')
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.slug !== undefined ? { slug: await chooseSlug(trx, 'products', patch.slug, before.name, slugTaken, before.id) } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {}),
            ...(patch.brand !== undefined ? { brand: patch.brand } : {}),
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(images !== undefined ? { images } : {}),
            updated_at: new Date(),
          })
          .where('id', '=', before.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (patch.category_public_ids) await setCategories(trx, before.id, patch.category_public_ids);
        await writeAudit(trx, ctx, {
          action: 'product.update',
          entityType: 'product',
          entityPublicId: publicId,
          changes: { before: productAudit(before), after: { ...productAudit(after), ...(patch.category_public_ids ? { category_public_ids: patch.category_public_ids } : {}) } },
        });
        return readProduct(trx, before.id);
      }),

    deleteProduct: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        const product = await liveProduct(trx, publicId, true);
        const now = new Date();
        // Variants before the product row's update: the variants' trigger locks their inventory records
        // before the product's document, the order checkout takes them in (src/db/LOCKING.md).
        await trx.updateTable('variants').set({ deleted_at: now, updated_at: now }).where('product_id', '=', product.id).where('deleted_at', 'is', null).execute();
        await trx.updateTable('products').set({ deleted_at: now, updated_at: now }).where('id', '=', product.id).execute();
        await writeAudit(trx, ctx, { action: 'product.delete', entityType: 'product', entityPublicId: publicId, changes: { before: productAudit(product), after: null } });
      }),

    createVariant: (ctx: AuthedCtx, productPublicId: string, input: VariantCreate) =>
      write(async (trx) => {
        const product = await liveProduct(trx, productPublicId, true);
        const images = await storedImages(trx, input.images);
        const variant = await trx
          .insertInto('variants')
          .values({
            public_id: newPublicId('var'),
            product_id: product.id,
            sku: input.sku,
            name: input.name,
            options: JSON.stringify(input.options ?? {}),
            price: input.price,
            compare_at_price: input.compare_at_price ?? null,
            cost_price: input.cost_price ?? null,
            status: input.status ?? 'ACTIVE',
            images,
            position: input.position ?? 0,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { action: 'variant.create', entityType: 'variant', entityPublicId: variant.public_id, changes: { before: null, after: variantAudit(variant) } });
        return readVariant(trx, variant);
      }),

    updateVariant: (ctx: AuthedCtx, publicId: string, patch: VariantPatch) =>
      write(async (trx) => {
        const before = await liveVariant(trx, publicId);
        const images = await storedImages(trx, patch.images);
        const { options, images: _images, ...fields } = patch;
        const after = await trx
          .updateTable('variants')
          .set({
            ...fields,
            ...(options !== undefined ? { options: JSON.stringify(options) } : {}),
            ...(images !== undefined ? { images } : {}),
            updated_at: new Date(),
          })
          .where('id', '=', before.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { action: 'variant.update', entityType: 'variant', entityPublicId: publicId, changes: { before: variantAudit(before), after: variantAudit(after) } });
        return readVariant(trx, after);
      }),

    deleteVariant: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        const variant = await liveVariant(trx, publicId);
        const now = new Date();
        await trx.updateTable('variants').set({ deleted_at: now, updated_at: now }).where('id', '=', variant.id).execute();
        await writeAudit(trx, ctx, { action: 'variant.delete', entityType: 'variant', entityPublicId: publicId, changes: { before: variantAudit(variant), after: null } });
      }),

    /** PUT: links a product to a category; linking twice is fine (idempotent). */
    linkCategory: (ctx: AuthedCtx, categoryPublicId: string, productPublicId: string) =>
      write(async (trx) => {
        if (!isPublicId('cat', categoryPublicId)) throw notFound('Category');
        const [categoryId] = await categoryIds(trx, [categoryPublicId]).catch(() => {
          throw notFound('Category');
        });
        const product = await liveProduct(trx, productPublicId, true); // a product's category links change only under its row lock
        const inserted = await trx
          .insertInto('product_categories')
          .values({ product_id: product.id, category_id: categoryId! })
          .onConflict((oc) => oc.doNothing())
          .returning('product_id')
          .executeTakeFirst();
        if (inserted) {
          await writeAudit(trx, ctx, { action: 'category.link_product', entityType: 'category', entityPublicId: categoryPublicId, changes: { before: { product_public_id: productPublicId, linked: false }, after: { product_public_id: productPublicId, linked: true } } });
        }
      }),

    unlinkCategory: (ctx: AuthedCtx, categoryPublicId: string, productPublicId: string) =>
      write(async (trx) => {
        if (!isPublicId('cat', categoryPublicId)) throw notFound('Category');
        const [categoryId] = await categoryIds(trx, [categoryPublicId]).catch(() => {
          throw notFound('Category');
        });
        const product = await liveProduct(trx, productPublicId, true); // a product's category links change only under its row lock
        const deleted = await trx
          .deleteFrom('product_categories')
          .where('product_id', '=', product.id)
          .where('category_id', '=', categoryId!)
          .returning('product_id')
          .executeTakeFirst();
        if (deleted) {
          await writeAudit(trx, ctx, { action: 'category.unlink_product', entityType: 'category', entityPublicId: categoryPublicId, changes: { before: { product_public_id: productPublicId, linked: true }, after: { product_public_id: productPublicId, linked: false } } });
        }
      }),
  };
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;
