import { writeAudit } from '../audit/audit-log.js';
import type { Trx } from '../db/database.js';
import type { ProductRow, VariantRow } from '../db/schema.js';
import { lockRecord } from '../inventory/repository.js';
import { adjustStockRecord, createStockRecord } from '../inventory/service.js';
import type { AuthedCtx } from '../lib/context.js';
import { concurrentChange, notFound, slugTaken } from '../lib/errors.js';
import { newPublicId } from '../lib/ids.js';
import { toCents } from '../lib/money.js';
import { productAudit, variantAudit } from './audit-shapes.js';
import { liveCategoryIds } from './category-repository.js';
import type { ImportPlan, ProductTarget, VariantTarget } from './import-plan.js';
import { findLiveProduct, insertProduct, insertVariant, setProductCategories, updateProduct, updateVariant } from './product-repository.js';
import { chooseSlug } from './slug.js';
import { slugInUse } from './slug-repository.js';

export interface ImportCounts {
  created: { products: number; variants: number; stock_records: number };
  updated: { products: number; variants: number; stock_records: number };
}

const money = (value: string | null | undefined) => (value === null || value === undefined ? value : toCents(value));

/**
 * Writes a plan in one transaction, in the lock order of src/db/LOCKING.md: the categories it
 * links (FOR SHARE), the existing products (by ID), their and the new products' variants, then
 * the stock records (by variant ID). Only what differs from the store is written and audited,
 * so importing the same file twice changes nothing the second time.
 */
export async function applyImport(trx: Trx, ctx: AuthedCtx, plan: ImportPlan, now: Date, reason: string): Promise<ImportCounts> {
  const counts: ImportCounts = {
    created: { products: 0, variants: 0, stock_records: 0 },
    updated: { products: 0, variants: 0, stock_records: 0 },
  };
  // Held FOR SHARE before any product (step 7 before 8), so a deletion in flight finishes first or waits.
  const { missing } = await liveCategoryIds(
    trx,
    [...plan.categories.values()].map((c) => c.publicId),
  );
  if (missing) throw concurrentChange('A category of the file was deleted meanwhile; import again');
  const linkIds = (slugs: string[]) => slugs.map((slug) => plan.categories.get(slug)!.id).sort((a, b) => a - b);

  const rows = new Map<string, ProductRow>();
  const existing = plan.products.filter((p) => p.existing).sort((a, b) => a.existing!.id - b.existing!.id);
  for (const target of existing) {
    const locked = await findLiveProduct(trx, target.existing!.public_id, true);
    if (!locked) throw concurrentChange(`Product ${target.existing!.slug} was deleted meanwhile; import again`);
    rows.set(target.key, await updateProductFields(trx, ctx, target, locked, linkIds, counts, now, reason));
  }
  for (const target of plan.products.filter((p) => !p.existing))
    rows.set(target.key, await createProduct(trx, ctx, target, linkIds, counts, reason));

  const variants: { target: VariantTarget; variant: VariantRow }[] = [];
  const updates = plan.targets.filter((t) => t.existing).sort((a, b) => a.existing!.id - b.existing!.id);
  for (const target of updates) variants.push({ target, variant: await updateVariantFields(trx, ctx, target, counts, now, reason) });
  for (const target of plan.targets.filter((t) => !t.existing)) {
    variants.push({ target, variant: await createVariant(trx, ctx, target, rows.get(target.product.key)!, counts, reason) });
  }

  for (const { target, variant } of variants.sort((a, b) => a.variant.id - b.variant.id)) {
    const { quantity_on_hand, reorder_level } = target.row;
    if (quantity_on_hand === undefined && reorder_level === undefined) continue;
    const record = target.hasStockRecord ? await lockRecord(trx, variant.public_id) : undefined;
    if (!record) {
      await createStockRecord(trx, ctx, {
        variantId: variant.id,
        variantPublicId: variant.public_id,
        quantity_on_hand: quantity_on_hand!,
        reorder_level,
      });
      counts.created.stock_records++;
    } else if (
      (quantity_on_hand ?? record.quantity_on_hand) !== record.quantity_on_hand ||
      (reorder_level !== undefined && reorder_level !== record.reorder_level)
    ) {
      await adjustStockRecord(trx, ctx, record, variant.public_id, { quantity_on_hand, reorder_level, reason: reason }, now);
      counts.updated.stock_records++;
    }
  }
  return counts;
}

async function updateProductFields(
  trx: Trx,
  ctx: AuthedCtx,
  target: ProductTarget,
  before: ProductRow,
  linkIds: (slugs: string[]) => number[],
  counts: ImportCounts,
  now: Date,
  reason: string,
): Promise<ProductRow> {
  const f = target.fields;
  const changes = {
    ...(f.product_name !== undefined && f.product_name !== before.name ? { name: f.product_name } : {}),
    ...(f.product_status !== undefined && f.product_status !== before.status ? { status: f.product_status } : {}),
    ...(f.brand !== undefined && f.brand !== before.brand ? { brand: f.brand } : {}),
    ...(f.description !== undefined && f.description !== before.description ? { description: f.description } : {}),
  };
  const categories = f.categories && [...f.categories].sort().join('|') !== target.currentCategories.join('|') ? f.categories : undefined;
  if (Object.keys(changes).length === 0 && !categories) return before;
  const after = Object.keys(changes).length > 0 ? await updateProduct(trx, before.id, { ...changes, updated_at: now }) : before;
  if (categories) await setProductCategories(trx, before.id, linkIds(categories));
  await writeAudit(trx, ctx, {
    action: 'product.update',
    entityType: 'product',
    entityPublicId: before.public_id,
    changes: { before: productAudit(before), after: { ...productAudit(after), ...(categories ? { category_slugs: categories } : {}) } },
    reason,
  });
  counts.updated.products++;
  return after;
}

async function createProduct(
  trx: Trx,
  ctx: AuthedCtx,
  target: ProductTarget,
  linkIds: (slugs: string[]) => number[],
  counts: ImportCounts,
  reason: string,
): Promise<ProductRow> {
  const f = target.fields;
  const name = f.product_name!;
  const slug = await chooseSlug(
    f.product_slug,
    name,
    () => slugTaken('product'),
    (candidate) => slugInUse(trx, 'products', candidate),
  );
  const product = await insertProduct(trx, {
    public_id: newPublicId('prd'),
    name,
    slug,
    description: f.description ?? '',
    brand: f.brand ?? null,
    status: f.product_status ?? 'DRAFT',
  });
  if (f.categories) await setProductCategories(trx, product.id, linkIds(f.categories));
  await writeAudit(trx, ctx, {
    action: 'product.create',
    entityType: 'product',
    entityPublicId: product.public_id,
    changes: { before: null, after: { ...productAudit(product), category_slugs: f.categories ?? [] } },
    reason,
  });
  counts.created.products++;
  return product;
}

async function updateVariantFields(
  trx: Trx,
  ctx: AuthedCtx,
  target: VariantTarget,
  counts: ImportCounts,
  now: Date,
  reason: string,
): Promise<VariantRow> {
  const before = target.existing!;
  const r = target.row;
  const changes = {
    ...(r.variant_name !== undefined && r.variant_name !== before.name ? { name: r.variant_name } : {}),
    ...(r.options !== undefined && JSON.stringify(sorted(r.options)) !== JSON.stringify(sorted(before.options))
      ? { options: JSON.stringify(r.options) }
      : {}),
    ...(r.price !== undefined && money(r.price) !== money(before.price) ? { price: r.price } : {}),
    ...(r.compare_at_price !== undefined && money(r.compare_at_price) !== money(before.compare_at_price)
      ? { compare_at_price: r.compare_at_price }
      : {}),
    ...(r.cost_price !== undefined && money(r.cost_price) !== money(before.cost_price) ? { cost_price: r.cost_price } : {}),
    ...(r.variant_status !== undefined && r.variant_status !== before.status ? { status: r.variant_status } : {}),
  };
  if (Object.keys(changes).length === 0) return before;
  const after = await updateVariant(trx, before.id, { ...changes, updated_at: now });
  await writeAudit(trx, ctx, {
    action: 'variant.update',
    entityType: 'variant',
    entityPublicId: before.public_id,
    changes: { before: variantAudit(before), after: variantAudit(after) },
    reason,
  });
  counts.updated.variants++;
  return after;
}

async function createVariant(
  trx: Trx,
  ctx: AuthedCtx,
  target: VariantTarget,
  product: ProductRow,
  counts: ImportCounts,
  reason: string,
): Promise<VariantRow> {
  if (!product) throw notFound('Product');
  const r = target.row;
  const variant = await insertVariant(trx, {
    public_id: newPublicId('var'),
    product_id: product.id,
    sku: r.sku,
    name: r.variant_name!,
    options: JSON.stringify(r.options ?? {}),
    price: r.price!,
    compare_at_price: r.compare_at_price ?? null,
    cost_price: r.cost_price ?? null,
    status: r.variant_status ?? 'ACTIVE',
  });
  await writeAudit(trx, ctx, {
    action: 'variant.create',
    entityType: 'variant',
    entityPublicId: variant.public_id,
    changes: { before: null, after: variantAudit(variant) },
    reason,
  });
  counts.created.variants++;
  return variant;
}

const sorted = (options: Record<string, string>) => Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));
