import { writeAudits, type AuditEntry } from '../audit/audit-log.js';
import type { Trx } from '../db/database.js';
import type { ProductRow, VariantRow } from '../db/schema.js';
import { lockRecords } from '../inventory/repository.js';
import { adjustStockRecords, createStockRecords } from '../inventory/service.js';
import type { AuthedCtx } from '../lib/context.js';
import { concurrentChange, slugTaken } from '../lib/errors.js';
import { newPublicId } from '../lib/ids.js';
import { toCents } from '../lib/money.js';
import { productAudit, variantAudit } from './audit-shapes.js';
import { liveCategoryIds } from './category-repository.js';
import type { ImportPlan, ProductTarget, VariantTarget } from './import-plan.js';
import { liveProductsBy } from './import-repository.js';
import { readAdminProducts } from './listing-repository.js';
import { recordProductEvents } from './product-events.js';
import {
  insertProducts,
  insertVariants,
  linkProductsToCategories,
  lockLiveProducts,
  lockVariants,
  replaceProductCategories,
  setProductStatuses,
  updateProducts,
  updateVariants,
  type ProductFields,
  type VariantFields,
} from './product-repository.js';
import { chooseSlugs } from './slug.js';
import { slugsInUse } from './slug-repository.js';

export interface ImportCounts {
  created: { products: number; variants: number; stock_records: number };
  updated: { products: number; variants: number; stock_records: number };
}

/** What the steps of one import share: the counts it reports, the audit entries it writes, the existing products it changed. */
interface Applying {
  trx: Trx;
  ctx: AuthedCtx;
  now: Date;
  reason: string;
  counts: ImportCounts;
  audit: AuditEntry[];
  /** Existing products whose fields, categories or variants changed: each gets one product.updated. */
  changed: Set<number>;
  /**
   * Statuses set last, after the stock records: a product made or made ACTIVE moves the storefront
   * total (LOCKING.md step 15), which must come after the inventory total a new record moves (13).
   * `touch`: an existing product's change, which also sets its updated_at.
   */
  statuses: { id: number; status: ProductRow['status']; touch: boolean }[];
  /** Category IDs by slug, sorted. */
  linkIds: (slugs: readonly string[]) => number[];
  /** The rows the import changes, as they are once locked: products and variants by ID, stock records by variant public ID. */
  locked: {
    products: Map<number, ProductRow>;
    variants: Map<number, VariantRow>;
    records: Map<string, StockRecord>;
  };
}

type StockRecord = Awaited<ReturnType<typeof lockRecords>>[number];

const money = (value: string | null | undefined) => (value === null || value === undefined ? value : toCents(value));
const sorted = (options: Record<string, string>) => Object.fromEntries(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * Writes a plan in one transaction, in the lock order of src/db/LOCKING.md: every row it changes
 * is locked before anything is written (the categories it links FOR SHARE, then the existing
 * products by ID, their variants by ID, their stock records by variant ID), so the derived rows
 * its writes' triggers lock (documents, totals) come after all of them, as in a checkout. Changes
 * are worked out against the locked rows, not the plan's earlier reads, so an edit committed
 * meanwhile is neither undone nor missing from the audit's "before". Only what differs from the
 * store is written and audited, so importing the same file twice changes nothing the second time.
 *
 * Rows of a kind are written together, a batch per statement: the database keeps what it derives
 * from a table (documents, price ranges, stock totals, cache purges) once per statement, so an
 * import of thousands of rows costs a few statements' derivations instead of thousands.
 * Each created product is reported as product.created and each changed one as product.updated,
 * once, as it stands after the import.
 */
export async function applyImport(trx: Trx, ctx: AuthedCtx, plan: ImportPlan, now: Date, reason: string): Promise<ImportCounts> {
  // Held FOR SHARE before any product (step 7 before 8), so a deletion in flight finishes first or waits.
  const { missing } = await liveCategoryIds(
    trx,
    [...plan.categories.values()].map((c) => c.publicId),
  );
  if (missing) throw concurrentChange('A category of the file was deleted meanwhile; import again');
  const run: Applying = {
    trx,
    ctx,
    now,
    reason,
    counts: { created: { products: 0, variants: 0, stock_records: 0 }, updated: { products: 0, variants: 0, stock_records: 0 } },
    audit: [],
    changed: new Set(),
    statuses: [],
    linkIds: (slugs) => slugs.map((slug) => plan.categories.get(slug)!.id).sort((a, b) => a - b),
    locked: await lockRows(trx, plan),
  };

  const existing = await updateExistingProducts(run, plan);
  const created = await createProducts(run, plan);
  const variants = [...(await updateVariantFields(run, plan)), ...(await createVariants(run, plan, new Map([...existing, ...created])))];
  await writeAudits(trx, ctx, run.audit);
  await applyStock(run, variants);
  await setProductStatuses(trx, run.statuses, now);
  await reportProducts(run, [...created.values()]);
  return run.counts;
}

/** Steps 8, 9 and 11 of the lock order: the existing products, their variants the file names, and those variants' stock records. */
async function lockRows(trx: Trx, plan: ImportPlan): Promise<Applying['locked']> {
  const existing = plan.products.filter((p) => p.existing);
  const productIds = existing.map((t) => t.existing!.id);
  const products = new Map((await lockLiveProducts(trx, productIds)).map((p) => [p.id, p]));
  const gone = existing.find((t) => !products.has(t.existing!.id));
  if (gone) throw concurrentChange(`Product ${gone.existing!.slug} was deleted meanwhile; import again`);
  const targets = plan.targets.filter((t) => t.existing);
  const variantIds = targets.map((t) => t.existing!.id);
  const variants = new Map((await lockVariants(trx, variantIds)).map((v) => [v.id, v]));
  const stocked = targets.filter((t) => t.hasStockRecord && (t.row.quantity_on_hand !== undefined || t.row.reorder_level !== undefined));
  const stockedIds = stocked.map((t) => t.existing!.public_id);
  const records = new Map((await lockRecords(trx, stockedIds)).map((r) => [r.variant_public_id, r]));
  return { products, variants, records };
}

/** What the file changes of an existing product, worked out against its locked row; null when nothing. */
function productChange(target: ProductTarget, before: ProductRow) {
  const f = target.fields;
  const status = f.product_status !== undefined && f.product_status !== before.status ? f.product_status : undefined;
  const fields = {
    ...(f.product_name !== undefined && f.product_name !== before.name ? { name: f.product_name } : {}),
    ...(f.brand !== undefined && f.brand !== before.brand ? { brand: f.brand } : {}),
    ...(f.description !== undefined && f.description !== before.description ? { description: f.description } : {}),
  };
  // Both sides sorted here: the database's collation may order slugs differently from JavaScript.
  const categories =
    f.categories && [...f.categories].sort().join('|') !== [...target.currentCategories].sort().join('|') ? f.categories : undefined;
  if (Object.keys(fields).length === 0 && !categories && !status) return null;
  const written: ProductFields = { id: before.id, name: before.name, brand: before.brand, description: before.description, ...fields };
  return { target, before, status, categories, fields: Object.keys(fields).length > 0 ? written : undefined };
}

/** The existing products, written where the file differs from them: their fields, then their category links, a batch per statement. */
async function updateExistingProducts(run: Applying, plan: ImportPlan): Promise<Map<string, ProductRow>> {
  const rows = new Map<string, ProductRow>();
  const changes: NonNullable<ReturnType<typeof productChange>>[] = [];
  for (const target of plan.products.filter((p) => p.existing).sort((a, b) => a.existing!.id - b.existing!.id)) {
    const before = run.locked.products.get(target.existing!.id)!;
    rows.set(target.key, before);
    const change = productChange(target, before);
    if (change) changes.push(change);
  }
  const written = await updateProducts(
    run.trx,
    changes.flatMap((c) => (c.fields ? [c.fields] : [])),
    run.now,
  );
  const after = new Map(written.map((p) => [p.id, p]));
  const relinked = changes.filter((c) => c.categories);
  await replaceProductCategories(
    run.trx,
    relinked.map((c) => c.before.id),
    relinked.flatMap((c) => run.linkIds(c.categories!).map((category_id) => ({ product_id: c.before.id, category_id }))),
  );
  for (const { target, before, status, categories } of changes) {
    const row = after.get(before.id) ?? before;
    rows.set(target.key, row);
    if (status) run.statuses.push({ id: before.id, status, touch: true });
    run.audit.push({
      action: 'product.update',
      entityType: 'product',
      entityPublicId: before.public_id,
      changes: {
        before: productAudit(before),
        after: { ...productAudit(row), ...(status ? { status } : {}), ...(categories ? { category_slugs: categories } : {}) },
      },
      reason: run.reason,
    });
    run.counts.updated.products++;
    run.changed.add(before.id);
  }
  return rows;
}

/** The file's new products and their category links, together. */
async function createProducts(run: Applying, plan: ImportPlan): Promise<Map<string, ProductRow>> {
  const targets = plan.products.filter((p) => !p.existing);
  if (targets.length === 0) return new Map();
  const slugs = await chooseSlugs(
    targets.map((t) => ({ explicit: t.fields.product_slug, name: t.fields.product_name! })),
    () => slugTaken('product'),
    (candidates) => slugsInUse(run.trx, 'products', candidates),
  );
  const inserted = await insertProducts(
    run.trx,
    targets.map((t, i) => ({
      public_id: newPublicId('prd'),
      name: t.fields.product_name!,
      slug: slugs[i]!,
      description: t.fields.description ?? '',
      brand: t.fields.brand ?? null,
      status: 'DRAFT', // its own status is set last (run.statuses)
    })),
  );
  const bySlug = new Map(inserted.map((p) => [p.slug, p]));
  const created = targets.map((t, i) => ({ target: t, product: bySlug.get(slugs[i]!)! }));
  await linkProductsToCategories(
    run.trx,
    created.flatMap(({ target, product }) =>
      run.linkIds(target.fields.categories ?? []).map((category_id) => ({ product_id: product.id, category_id })),
    ),
  );
  for (const { target, product } of created) {
    const status = target.fields.product_status ?? 'DRAFT';
    if (status !== 'DRAFT') run.statuses.push({ id: product.id, status, touch: false });
    run.audit.push({
      action: 'product.create',
      entityType: 'product',
      entityPublicId: product.public_id,
      changes: { before: null, after: { ...productAudit(product), status, category_slugs: target.fields.categories ?? [] } },
      reason: run.reason,
    });
  }
  run.counts.created.products += created.length;
  return new Map(created.map(({ target, product }) => [target.key, product]));
}

/** The existing variants the file changes, written together. */
async function updateVariantFields(run: Applying, plan: ImportPlan): Promise<{ target: VariantTarget; variant: VariantRow }[]> {
  const targets = plan.targets.filter((t) => t.existing).sort((a, b) => a.existing!.id - b.existing!.id);
  const locked = run.locked.variants;
  const wanted = new Map<number, VariantFields>();
  for (const target of targets) {
    const before = locked.get(target.existing!.id)!;
    const r = target.row;
    const after: VariantFields = {
      id: before.id,
      name: r.variant_name ?? before.name,
      options:
        r.options !== undefined && JSON.stringify(sorted(r.options)) !== JSON.stringify(sorted(before.options))
          ? r.options
          : before.options,
      price: r.price !== undefined && money(r.price) !== money(before.price) ? r.price : before.price,
      compare_at_price:
        r.compare_at_price !== undefined && money(r.compare_at_price) !== money(before.compare_at_price)
          ? r.compare_at_price
          : before.compare_at_price,
      cost_price: r.cost_price !== undefined && money(r.cost_price) !== money(before.cost_price) ? r.cost_price : before.cost_price,
      status: r.variant_status ?? before.status,
    };
    const differs =
      after.name !== before.name ||
      after.options !== before.options ||
      after.price !== before.price ||
      after.compare_at_price !== before.compare_at_price ||
      after.cost_price !== before.cost_price ||
      after.status !== before.status;
    if (differs) wanted.set(before.id, after);
  }
  const written = new Map((await updateVariants(run.trx, [...wanted.values()], run.now)).map((v) => [v.id, v]));
  return targets.map((target) => {
    const before = locked.get(target.existing!.id)!;
    const after = written.get(before.id);
    if (!after) return { target, variant: before };
    run.audit.push({
      action: 'variant.update',
      entityType: 'variant',
      entityPublicId: before.public_id,
      changes: { before: variantAudit(before), after: variantAudit(after) },
      reason: run.reason,
    });
    run.counts.updated.variants++;
    run.changed.add(before.product_id);
    return { target, variant: after };
  });
}

/** The file's new variants, of new and existing products, together. */
async function createVariants(
  run: Applying,
  plan: ImportPlan,
  products: Map<string, ProductRow>,
): Promise<{ target: VariantTarget; variant: VariantRow }[]> {
  const targets = plan.targets.filter((t) => !t.existing);
  const inserted = await insertVariants(
    run.trx,
    targets.map((t) => ({
      public_id: newPublicId('var'),
      product_id: products.get(t.product.key)!.id,
      sku: t.row.sku,
      name: t.row.variant_name!,
      options: JSON.stringify(t.row.options ?? {}),
      price: t.row.price!,
      compare_at_price: t.row.compare_at_price ?? null,
      cost_price: t.row.cost_price ?? null,
      status: t.row.variant_status ?? 'ACTIVE',
    })),
  );
  const bySku = new Map(inserted.map((v) => [v.sku, v]));
  return targets.map((target) => {
    const variant = bySku.get(target.row.sku)!;
    run.audit.push({
      action: 'variant.create',
      entityType: 'variant',
      entityPublicId: variant.public_id,
      changes: { before: null, after: variantAudit(variant) },
      reason: run.reason,
    });
    run.counts.created.variants++;
    if (target.product.existing) run.changed.add(variant.product_id);
    return { target, variant };
  });
}

/** Stock: the existing records adjusted where the file differs from them, new ones made together. */
async function applyStock(run: Applying, variants: { target: VariantTarget; variant: VariantRow }[]): Promise<void> {
  const withStock = variants
    .filter(({ target }) => target.row.quantity_on_hand !== undefined || target.row.reorder_level !== undefined)
    .sort((a, b) => a.variant.id - b.variant.id);
  const records = run.locked.records;
  const toCreate = [];
  const toAdjust = [];
  for (const { target, variant } of withStock) {
    const { quantity_on_hand, reorder_level } = target.row;
    const record = records.get(variant.public_id);
    if (!record) {
      toCreate.push({ variantId: variant.id, variantPublicId: variant.public_id, quantity_on_hand: quantity_on_hand!, reorder_level });
    } else if (
      (quantity_on_hand ?? record.quantity_on_hand) !== record.quantity_on_hand ||
      (reorder_level !== undefined && reorder_level !== record.reorder_level)
    ) {
      toAdjust.push({ before: record, variantPublicId: variant.public_id, input: { quantity_on_hand, reorder_level, reason: run.reason } });
    }
  }
  await adjustStockRecords(run.trx, run.ctx, toAdjust, run.now);
  await createStockRecords(run.trx, run.ctx, toCreate);
  run.counts.updated.stock_records += toAdjust.length;
  run.counts.created.stock_records += toCreate.length;
}

/** product.created for each new product and product.updated for each changed one, as they stand now. */
async function reportProducts(run: Applying, created: ProductRow[]): Promise<void> {
  const read = async (ids: number[]) => readAdminProducts(run.trx, await liveProductsBy(run.trx, { ids }));
  if (created.length > 0) await recordProductEvents(run.trx, 'product.created', await read(created.map((p) => p.id)));
  if (run.changed.size > 0) await recordProductEvents(run.trx, 'product.updated', await read([...run.changed]));
}
