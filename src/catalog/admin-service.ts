import type { Db, Executor, Trx } from '../db/database.js';
import type { ImageJson, ProductRow, VariantRow } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { auditExport, writeAudit, writeAudits } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, skuTaken, slugTaken, validationError, variantOptionsTaken } from '../lib/errors.js';
import { createStockRecords } from '../inventory/service.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { pageMeta, parseSort, toPage } from '../lib/pagination.js';
import type { MediaService } from '../media/service.js';
import { liveCategoryIds } from './category-repository.js';
import { slugInUse, slugsInUse } from './slug-repository.js';
import { countProducts, hydrate, listProducts, readAdminProducts, variantsOf, type ProductFilters } from './listing-repository.js';
import { toAdminProducts, toAdminVariant } from './mappers.js';
import { productFilters } from './product-filters.js';
import {
  deleteProduct,
  deleteVariant,
  findLiveProduct,
  findProduct,
  insertProduct,
  insertVariant,
  insertVariants,
  linkProductCategory,
  lockLiveVariant,
  lockProductOfVariant,
  setProductCategories,
  skusInUse,
  unlinkProductCategory,
  updateProduct,
  updateVariant,
  variantWithOptions,
} from './product-repository.js';
import type {
  AdminProduct,
  AdminProductListQuery,
  AdminVariant,
  ImageInput,
  ProductCreate,
  ProductPatch,
  ProductSortField,
  VariantBatch,
  VariantCreate,
  VariantPatch,
} from './schemas.js';
import { chooseSlug, slugify } from './slug.js';
import { recordProductDeleted, recordProductEvent } from './product-events.js';
import { productAudit, variantAudit } from './audit-shapes.js';
import { countProductRowsForExport, productExportBatches, type ProductExportFilters } from './export-repository.js';

/** Option values with their names in order, so two sets that differ only in key order compare equal as text. */
const sortedOptions = (options: Record<string, string>) => Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * Admin catalog (contract section 6). Deletes are soft; a deleted product
 * takes its variants with it. Every write is audited, and reported as a
 * product event (product.created, .updated, .deleted), in its transaction; what
 * it derives (price range, documents, inventory keys) the database keeps in
 * the same transaction (src/db/DERIVED.md).
 */
export function createCatalogAdminService({ db, clock, media }: { db: Db; clock: Clock; media: Pick<MediaService, 'resolveImageUrls'> }) {
  /** The images as stored: URLs checked and normalised by the media module, positions from the order given. */
  async function storedImages(trx: Executor, images: ImageInput[] | undefined): Promise<string | undefined> {
    if (!images) return undefined;
    const urls = await media.resolveImageUrls(
      trx,
      'products',
      images.map((image) => image.url),
      (i) => `images.${i}.url`,
    );
    const stored: ImageJson[] = images.map((image, position) => ({ url: urls[position]!, alt_text: image.alt_text ?? null, position }));
    return JSON.stringify(stored);
  }

  async function liveProduct(trx: Executor, publicId: string, lock = false): Promise<ProductRow> {
    const product = isPublicId('prd', publicId) ? await findLiveProduct(trx, publicId, lock) : undefined;
    if (!product) throw notFound('Product');
    return product;
  }

  /** The live variant, locked after its product (src/db/LOCKING.md: a product's row before its variants'). */
  async function liveVariant(trx: Executor, publicId: string): Promise<VariantRow> {
    if (!isPublicId('var', publicId)) throw notFound('Variant');
    await lockProductOfVariant(trx, publicId);
    const variant = await lockLiveVariant(trx, publicId);
    if (!variant) throw notFound('Variant');
    return variant;
  }

  /** Categories to link, held FOR SHARE: call it before locking the product (src/db/LOCKING.md, step 7 before 8). */
  async function categoryIds(trx: Executor, publicIds: string[]): Promise<number[]> {
    const { ids, missing } = await liveCategoryIds(trx, publicIds);
    if (missing) throw notFound(`Category ${missing}`);
    return ids;
  }

  const productSlug = (trx: Executor, explicit: string | undefined, name: string, exceptId?: number) =>
    chooseSlug(
      explicit,
      name,
      () => slugTaken('product'),
      (candidate) => slugInUse(trx, 'products', candidate, exceptId),
    );

  /** The product as it is now: after its variants changed, its derived price range has too. */
  async function rereadProduct(trx: Executor, product: ProductRow): Promise<AdminProduct> {
    return readProduct(trx, (await findProduct(trx, { publicId: product.public_id }))!);
  }

  async function readProduct(trx: Executor, product: ProductRow): Promise<AdminProduct> {
    return (await readAdminProducts(trx, [product], product.deleted_at !== null))[0]!;
  }

  /** product.updated for a change made through a variant or a category link: the product read again (its price range moved). */
  async function productChanged(trx: Executor, productId: number): Promise<void> {
    const product = await findProduct(trx, { id: productId });
    await recordProductEvent(trx, 'product.updated', await readProduct(trx, product!));
  }

  async function readVariant(trx: Executor, variant: VariantRow): Promise<AdminVariant> {
    const [row] = await variantsOf(trx, [variant.product_id], 'admin', true, variant.id);
    return toAdminVariant(row!);
  }

  /** Refuses option values another live variant of the product has (the caller holds the product's lock). */
  async function checkOptionsFree(trx: Executor, productId: number, options: string, exceptId?: number): Promise<void> {
    const sku = await variantWithOptions(trx, productId, options, exceptId);
    if (sku !== undefined) throw variantOptionsTaken(sku);
  }

  /**
   * A copy's name: the first of "… (copy)", "… (copy 2)", … whose slug no product has, so a second
   * copy reads apart from the first and its slug ends like its SKUs (`-copy-2`, `-COPY-2`).
   */
  async function copyName(trx: Executor, name: string): Promise<string> {
    const names = Array.from({ length: 20 }, (_, n) => `${name.slice(0, 185)} (copy${n === 0 ? '' : ` ${n + 1}`})`);
    const taken = await slugsInUse(
      trx,
      'products',
      names.map((candidate) => slugify(candidate)),
    );
    return names.find((candidate) => !taken.has(slugify(candidate))) ?? names[0]!;
  }

  /** For each SKU, the first of `SKU-COPY`, `SKU-COPY-2`, … no variant has (SKUs stay within their 80 characters). */
  async function copySkus(trx: Executor, skus: string[]): Promise<string[]> {
    const candidates = skus.map((sku) => Array.from({ length: 20 }, (_, n) => `${sku.slice(0, 70)}-COPY${n === 0 ? '' : `-${n + 1}`}`));
    const taken = await skusInUse(trx, candidates.flat());
    const chosen = new Set<string>();
    return candidates.map((options, i) => {
      const free = options.find((sku) => !taken.has(sku.toLowerCase()) && !chosen.has(sku.toLowerCase()));
      // Twenty copies of one SKU: the next one gets a random suffix, still unique by the index.
      const sku = free ?? `${skus[i]!.slice(0, 60)}-COPY-${newPublicId('var').slice(4, 12)}`;
      chosen.add(sku.toLowerCase());
      return sku;
    });
  }

  // A racing duplicate slug or SKU that passed the checks here meets its unique constraint, which the error handler translates (lib/db-errors.ts).
  const write = <T>(work: (trx: Trx) => Promise<T>) => transaction(db, work);

  /** A category link or unlink: the category must be live, the product live and locked (its links change under its row lock). */
  async function linkTarget(trx: Trx, categoryPublicId: string, productPublicId: string) {
    if (!isPublicId('cat', categoryPublicId)) throw notFound('Category');
    const { ids, missing } = await liveCategoryIds(trx, [categoryPublicId]);
    if (missing) throw notFound('Category');
    const product = await liveProduct(trx, productPublicId, true);
    return { categoryId: ids[0]!, productId: product.id };
  }

  /** Links or unlinks a product and a category; only a change is audited. */
  const setLink = (ctx: AuthedCtx, categoryPublicId: string, productPublicId: string, linked: boolean) =>
    write(async (trx) => {
      const { categoryId, productId } = await linkTarget(trx, categoryPublicId, productPublicId);
      const changed = linked
        ? await linkProductCategory(trx, productId, categoryId)
        : await unlinkProductCategory(trx, productId, categoryId);
      if (!changed) return;
      await productChanged(trx, productId);
      await writeAudit(trx, ctx, {
        action: linked ? 'category.link_product' : 'category.unlink_product',
        entityType: 'category',
        entityPublicId: categoryPublicId,
        changes: {
          before: { product_public_id: productPublicId, linked: !linked },
          after: { product_public_id: productPublicId, linked },
        },
      });
    });

  return {
    /** Admin list: every status, optionally deleted ones, with costs and inventory. */
    async list(query: AdminProductListQuery) {
      const base = await productFilters(db, query, 'admin');
      if (!base) return { data: [], meta: pageMeta(query, 0) };
      const filters: ProductFilters = { ...base, status: query.status, includeDeleted: query.include_deleted === 'true' };
      const rows = await listProducts(db, filters, parseSort<ProductSortField>(query.sort), query);
      const { variants, categories } = await hydrate(db, rows, 'admin');
      const page = await toPage(
        rows,
        query,
        () => countProducts(db, filters),
        (row) => row,
      );
      return { data: toAdminProducts(page.data, variants, categories), meta: page.meta };
    },

    /** Every live product with the status asked for, as the import's CSV rows: how many, and the rows a batch at a time. */
    async exportProducts(ctx: AuthedCtx, filters: ProductExportFilters) {
      const total = await countProductRowsForExport(db, filters);
      await auditExport(db, ctx, 'products', filters, total);
      return { total, batches: productExportBatches(db, filters) };
    },

    async getProduct(publicId: string): Promise<AdminProduct> {
      const product = isPublicId('prd', publicId) ? await findProduct(db, { publicId }) : undefined;
      if (!product) throw notFound('Product');
      return readProduct(db, product);
    },

    createProduct: (ctx: AuthedCtx, input: ProductCreate) =>
      write(async (trx) => {
        const categories = input.category_public_ids && (await categoryIds(trx, input.category_public_ids));
        const product = await insertProduct(trx, {
          public_id: newPublicId('prd'),
          name: input.name,
          slug: await productSlug(trx, input.slug, input.name),
          description: input.description ?? '',
          brand: input.brand ?? null,
          status: input.status ?? 'DRAFT',
          images: await storedImages(trx, input.images),
        });
        if (categories) await setProductCategories(trx, product.id, categories);
        await writeAudit(trx, ctx, {
          action: 'product.create',
          entityType: 'product',
          entityPublicId: product.public_id,
          changes: { before: null, after: { ...productAudit(product), category_public_ids: input.category_public_ids ?? [] } },
        });
        const created = await readProduct(trx, product);
        await recordProductEvent(trx, 'product.created', created);
        return created;
      }),

    updateProduct: (ctx: AuthedCtx, publicId: string, patch: ProductPatch) =>
      write(async (trx) => {
        const categories = patch.category_public_ids && (await categoryIds(trx, patch.category_public_ids));
        const before = await liveProduct(trx, publicId, true);
        const images = await storedImages(trx, patch.images);
        const after = await updateProduct(trx, before.id, {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.slug !== undefined ? { slug: await productSlug(trx, patch.slug, before.name, before.id) } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.brand !== undefined ? { brand: patch.brand } : {}),
          ...(patch.status !== undefined ? { status: patch.status } : {}),
          ...(images !== undefined ? { images } : {}),
          updated_at: clock.now(),
        });
        if (categories) await setProductCategories(trx, before.id, categories);
        await writeAudit(trx, ctx, {
          action: 'product.update',
          entityType: 'product',
          entityPublicId: publicId,
          changes: {
            before: productAudit(before),
            after: { ...productAudit(after), ...(patch.category_public_ids ? { category_public_ids: patch.category_public_ids } : {}) },
          },
        });
        const updated = await readProduct(trx, after);
        await recordProductEvent(trx, 'product.updated', updated);
        return updated;
      }),

    deleteProduct: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        const product = await liveProduct(trx, publicId, true);
        const now = clock.now();
        await deleteProduct(trx, product.id, now);
        await recordProductDeleted(trx, product, now);
        await writeAudit(trx, ctx, {
          action: 'product.delete',
          entityType: 'product',
          entityPublicId: publicId,
          changes: { before: productAudit(product), after: null },
        });
      }),

    createVariant: (ctx: AuthedCtx, productPublicId: string, input: VariantCreate) =>
      write(async (trx) => {
        const product = await liveProduct(trx, productPublicId, true);
        const options = JSON.stringify(input.options ?? {});
        await checkOptionsFree(trx, product.id, options);
        const variant = await insertVariant(trx, {
          public_id: newPublicId('var'),
          product_id: product.id,
          sku: input.sku,
          name: input.name,
          options,
          price: input.price,
          compare_at_price: input.compare_at_price ?? null,
          cost_price: input.cost_price ?? null,
          status: input.status ?? 'ACTIVE',
          images: await storedImages(trx, input.images),
          position: input.position ?? 0,
        });
        await writeAudit(trx, ctx, {
          action: 'variant.create',
          entityType: 'variant',
          entityPublicId: variant.public_id,
          changes: { before: null, after: variantAudit(variant) },
        });
        await productChanged(trx, product.id);
        return readVariant(trx, variant);
      }),

    /**
     * Several variants of one product at once, all or none, each with an optional stock record:
     * the product's lock first, then the variants in the order given, then their records
     * (src/db/LOCKING.md steps 8, 9, 11). A SKU or option set twice in the batch, or already on
     * another variant, is refused naming the item (`variants.3.sku`).
     */
    createVariants: (ctx: AuthedCtx, productPublicId: string, input: VariantBatch) =>
      write(async (trx) => {
        const product = await liveProduct(trx, productPublicId, true);
        const skus = input.variants.map((v) => v.sku.toLowerCase());
        const repeated = skus.findIndex((sku, i) => skus.indexOf(sku) !== i);
        if (repeated >= 0) {
          throw validationError('Two variants of the batch have the same SKU', [
            { field: `variants.${repeated}.sku`, message: 'appears twice' },
          ]);
        }
        const taken = await skusInUse(trx, skus);
        const clash = skus.findIndex((sku) => taken.has(sku));
        if (clash >= 0) throw skuTaken(`variants.${clash}.sku`);
        const options = input.variants.map((v) => JSON.stringify(sortedOptions(v.options ?? {})));
        for (const [i, set] of options.entries()) {
          if (set === '{}') continue;
          const twin = options.indexOf(set);
          if (twin !== i) throw variantOptionsTaken(input.variants[twin]!.sku, `variants.${i}.options`);
          const existing = await variantWithOptions(trx, product.id, set);
          if (existing !== undefined) throw variantOptionsTaken(existing, `variants.${i}.options`);
        }
        const images: (string | undefined)[] = [];
        for (const item of input.variants) images.push(await storedImages(trx, item.images));
        const made = await insertVariants(
          trx,
          input.variants.map((item, i) => ({
            public_id: newPublicId('var'),
            product_id: product.id,
            sku: item.sku,
            name: item.name,
            options: options[i]!,
            price: item.price,
            compare_at_price: item.compare_at_price ?? null,
            cost_price: item.cost_price ?? null,
            status: item.status ?? 'ACTIVE',
            images: images[i],
            position: item.position ?? i,
          })),
        );
        await writeAudits(
          trx,
          ctx,
          made.map((variant) => ({
            action: 'variant.create' as const,
            entityType: 'variant' as const,
            entityPublicId: variant.public_id,
            changes: { before: null, after: variantAudit(variant) },
          })),
        );
        const stockBySku = new Map(input.variants.map((item) => [item.sku, item.stock]));
        await createStockRecords(
          trx,
          ctx,
          made.flatMap((variant) => {
            const stock = stockBySku.get(variant.sku);
            return stock ? [{ variantId: variant.id, variantPublicId: variant.public_id, ...stock }] : [];
          }),
        );
        const after = await rereadProduct(trx, product);
        await recordProductEvent(trx, 'product.updated', after);
        return after;
      }),

    updateVariant: (ctx: AuthedCtx, publicId: string, patch: VariantPatch) =>
      write(async (trx) => {
        const before = await liveVariant(trx, publicId);
        if (patch.options !== undefined) await checkOptionsFree(trx, before.product_id, JSON.stringify(patch.options), before.id);
        const images = await storedImages(trx, patch.images);
        const { options, images: _images, ...fields } = patch;
        const after = await updateVariant(trx, before.id, {
          ...fields,
          ...(options !== undefined ? { options: JSON.stringify(options) } : {}),
          ...(images !== undefined ? { images } : {}),
          updated_at: clock.now(),
        });
        await writeAudit(trx, ctx, {
          action: 'variant.update',
          entityType: 'variant',
          entityPublicId: publicId,
          changes: { before: variantAudit(before), after: variantAudit(after) },
        });
        await productChanged(trx, after.product_id);
        return readVariant(trx, after);
      }),

    deleteVariant: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        const variant = await liveVariant(trx, publicId);
        await deleteVariant(trx, variant.id, clock.now());
        await productChanged(trx, variant.product_id);
        await writeAudit(trx, ctx, {
          action: 'variant.delete',
          entityType: 'variant',
          entityPublicId: publicId,
          changes: { before: variantAudit(variant), after: null },
        });
      }),

    /**
     * A copy of a live product to start a similar one from: a DRAFT named "… (copy)" with a new
     * slug, the same description, brand, images and categories, and each live variant again with a
     * new SKU (`-COPY`, `-COPY-2`, …) and no stock record. The source is read, not locked: like a
     * product creation it holds only its categories FOR SHARE (src/db/LOCKING.md step 7).
     */
    duplicateProduct: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        const source = isPublicId('prd', publicId) ? await findLiveProduct(trx, publicId, false) : undefined;
        if (!source) throw notFound('Product');
        const { variants, categories } = await hydrate(trx, [source], 'admin');
        const categoryPublicIds = categories.map((c) => c.public_id);
        const linked = await categoryIds(trx, categoryPublicIds);
        const name = await copyName(trx, source.name);
        const product = await insertProduct(trx, {
          public_id: newPublicId('prd'),
          name,
          slug: await productSlug(trx, undefined, name),
          description: source.description,
          brand: source.brand,
          status: 'DRAFT',
          images: JSON.stringify(source.images),
        });
        await setProductCategories(trx, product.id, linked);
        const skus = await copySkus(
          trx,
          variants.map((v) => v.sku),
        );
        await insertVariants(
          trx,
          variants.map((v, i) => ({
            public_id: newPublicId('var'),
            product_id: product.id,
            sku: skus[i]!,
            name: v.name,
            options: JSON.stringify(v.options),
            price: v.price,
            compare_at_price: v.compare_at_price,
            cost_price: v.cost_price,
            status: v.status,
            images: JSON.stringify(v.images),
            position: v.position,
          })),
        );
        await writeAudit(trx, ctx, {
          action: 'product.duplicate',
          entityType: 'product',
          entityPublicId: product.public_id,
          changes: { before: null, after: { ...productAudit(product), copied_from: publicId, variant_skus: skus } },
        });
        const copy = await rereadProduct(trx, product);
        await recordProductEvent(trx, 'product.created', copy);
        return copy;
      }),

    /** PUT: links a product to a category; linking twice is fine (idempotent). */
    linkCategory: (ctx: AuthedCtx, categoryPublicId: string, productPublicId: string) =>
      setLink(ctx, categoryPublicId, productPublicId, true),

    unlinkCategory: (ctx: AuthedCtx, categoryPublicId: string, productPublicId: string) =>
      setLink(ctx, categoryPublicId, productPublicId, false),
  };
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;
