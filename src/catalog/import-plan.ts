import type { Executor } from '../db/database.js';
import type { ProductRow, VariantRow } from '../db/schema.js';
import { categorySlugsOf, liveCategoriesBySlug, liveProductsBy, liveVariantsOf, onHandOf, variantsBySku } from './import-repository.js';
import type { ImportRow, ParsedRow, Refusal } from './import-rows.js';

/**
 * What an import would do, decided before anything is written: for each row, the product and
 * variant it creates or updates, or why it is refused. Rows are checked against each other (a SKU
 * twice, two rows giving one product different names, two variants of a product with the same
 * options) and against the store (a SKU of a deleted variant, a SKU that belongs to another
 * product than the row says, an unknown category).
 */

export interface ProductTarget {
  key: string;
  existing: ProductRow | null;
  /** Product fields as the rows give them (the first valid row that gives one). */
  fields: Partial<Pick<ImportRow, 'product_slug' | 'product_name' | 'product_status' | 'brand' | 'description' | 'categories'>>;
  /** The product's categories now (slugs, sorted), for an existing product. */
  currentCategories: string[];
}

export interface VariantTarget {
  line: number;
  row: ImportRow;
  product: ProductTarget;
  existing: VariantRow | null;
  hasStockRecord: boolean;
  /** The variant's quantity on hand as planned; null when it has no stock record yet. */
  onHand: number | null;
}

export interface ImportPlan {
  targets: VariantTarget[];
  products: ProductTarget[];
  /** Every category the rows name, by slug. */
  categories: Map<string, { id: number; publicId: string }>;
  refused: Refusal[];
}

const PRODUCT_FIELDS = ['product_name', 'product_status', 'brand', 'description', 'categories'] as const;
const optionsKey = (options: Record<string, string>) => JSON.stringify(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const STOCK_FIELDS = new Set(['sku', 'quantity_on_hand', 'reorder_level']);
/** A row with nothing but stock figures (a stock count's) counts a variant the store has; it never makes one. */
const onlyStock = (row: ImportRow) => Object.keys(row).every((field) => STOCK_FIELDS.has(field));

export async function planImport(db: Executor, parsed: ParsedRow[], earlier: Refusal[]): Promise<ImportPlan> {
  const refused = [...earlier];
  const refuse = (p: ParsedRow, field: string, message: string) => refused.push({ line: p.line, sku: p.row.sku, field, message });

  // A SKU twice in the file: the later row is refused.
  const firstLine = new Map<string, number>();
  const rows = parsed.filter((p) => {
    const sku = p.row.sku.toLowerCase();
    const first = firstLine.get(sku);
    if (first !== undefined) return void refuse(p, 'sku', `appears already on line ${first}`);
    firstLine.set(sku, p.line);
    return true;
  });

  const variants = new Map(
    (
      await variantsBySku(
        db,
        rows.map((p) => p.row.sku),
      )
    ).map((v) => [v.sku.toLowerCase(), v]),
  );
  const slugs = [...new Set(rows.map((p) => p.row.product_slug).filter((slug): slug is string => slug !== undefined))];
  const bySlug = new Map((await liveProductsBy(db, { slugs })).map((p) => [p.slug, p]));
  const ofVariants = new Map(
    (await liveProductsBy(db, { ids: [...new Set([...variants.values()].map((v) => v.product_id))] })).map((p) => [p.id, p]),
  );
  const products = new Map<string, ProductTarget>();
  const productFor = (key: string, existing: ProductRow | null): ProductTarget => {
    let target = products.get(key);
    if (!target) products.set(key, (target = { key, existing, fields: {}, currentCategories: [] }));
    return target;
  };

  // Each row's variant and product.
  const targets: VariantTarget[] = [];
  for (const p of rows) {
    const existing = variants.get(p.row.sku.toLowerCase());
    if (existing?.deleted_at) {
      refuse(p, 'sku', 'belongs to a deleted variant; SKUs are never reused, choose another');
      continue;
    }
    if (existing) {
      const product = ofVariants.get(existing.product_id);
      if (!product) {
        refuse(p, 'sku', 'belongs to a variant of a deleted product');
        continue;
      }
      if (p.row.product_slug !== undefined && p.row.product_slug !== product.slug) {
        refuse(p, 'product_slug', `SKU ${existing.sku} belongs to product ${product.slug}; a variant cannot move to another product`);
        continue;
      }
      targets.push({
        line: p.line,
        row: p.row,
        product: productFor(`id:${product.id}`, product),
        existing,
        hasStockRecord: false,
        onHand: null,
      });
      continue;
    }
    if (onlyStock(p.row)) {
      refuse(p, 'sku', 'is not in the catalog: a stock count only updates existing variants');
      continue;
    }
    if (p.row.variant_name === undefined || p.row.price === undefined) {
      refuse(p, p.row.variant_name === undefined ? 'variant_name' : 'price', 'is needed for a new variant');
      continue;
    }
    const product = p.row.product_slug !== undefined ? bySlug.get(p.row.product_slug) : undefined;
    if (product) {
      targets.push({
        line: p.line,
        row: p.row,
        product: productFor(`id:${product.id}`, product),
        existing: null,
        hasStockRecord: false,
        onHand: null,
      });
    } else if (p.row.product_slug === undefined && p.row.product_name === undefined) {
      refuse(p, 'product_name', 'is needed for a new variant: give product_slug of an existing product, or a product_name');
    } else {
      // A new product, known by its slug when the rows give one (its name may be on another of its rows), else by name.
      const key = p.row.product_slug !== undefined ? `slug:${p.row.product_slug}` : `name:${p.row.product_name!.toLowerCase()}`;
      const target = productFor(key, null);
      if (p.row.product_slug !== undefined) target.fields.product_slug = p.row.product_slug;
      targets.push({ line: p.line, row: p.row, product: target, existing: null, hasStockRecord: false, onHand: null });
    }
  }

  // Categories the rows name must exist.
  const categorySlugs = [...new Set(targets.flatMap((t) => t.row.categories ?? []))];
  const categories = new Map((await liveCategoriesBySlug(db, categorySlugs)).map((c) => [c.slug, { id: c.id, publicId: c.public_id }]));
  let valid = targets.filter((t) => {
    const unknown = (t.row.categories ?? []).filter((slug) => !categories.has(slug));
    if (unknown.length > 0) return void refuse(t, 'categories', `no category has slug ${unknown.join(', ')}`);
    return true;
  });

  // A reorder level alone cannot make a stock record.
  const onHand = await onHandOf(
    db,
    valid.flatMap((t) => (t.existing ? [t.existing.id] : [])),
  );
  valid = valid.filter((t) => {
    t.onHand = t.existing ? (onHand.get(t.existing.id) ?? null) : null;
    t.hasStockRecord = t.onHand !== null;
    if (!t.hasStockRecord && t.row.quantity_on_hand === undefined && t.row.reorder_level !== undefined) {
      return void refuse(t, 'quantity_on_hand', 'is needed with reorder_level to make a stock record');
    }
    return true;
  });

  // A product's fields come from its first valid row that gives each; a later row may repeat them, not contradict them.
  const givenOn = new Map<string, number>();
  valid = valid.filter((t) => {
    for (const field of PRODUCT_FIELDS) {
      const value = t.row[field];
      if (value === undefined) continue;
      const current = t.product.fields[field];
      if (current === undefined) continue;
      if (!same(current, value))
        return void refuse(t, field, `differs from line ${givenOn.get(`${t.product.key}:${field}`)} for the same product`);
    }
    for (const field of PRODUCT_FIELDS) {
      if (t.row[field] !== undefined && t.product.fields[field] === undefined) {
        (t.product.fields as Record<string, unknown>)[field] = t.row[field];
        givenOn.set(`${t.product.key}:${field}`, t.line);
      }
    }
    return true;
  });

  // A new product needs a name from one of its rows.
  valid = valid.filter((t) => {
    if (t.product.existing || t.product.fields.product_name !== undefined) return true;
    return void refuse(t, 'product_name', `no product has slug ${t.row.product_slug}: give a product_name on one of its rows to make it`);
  });

  // Option values stay unique among a product's live variants, as the API requires.
  const existingIds = [...new Set(valid.flatMap((t) => (t.product.existing ? [t.product.existing.id] : [])))];
  const taken = new Map<string, Map<string, string>>(); // product key -> options key -> SKU
  for (const v of await liveVariantsOf(db, existingIds)) {
    const key = `id:${v.product_id}`;
    if (!taken.has(key)) taken.set(key, new Map());
    if (Object.keys(v.options).length > 0) taken.get(key)!.set(optionsKey(v.options), v.sku);
  }
  valid = valid.filter((t) => {
    const sets = taken.get(t.product.key) ?? new Map<string, string>();
    taken.set(t.product.key, sets);
    const before = t.existing && Object.keys(t.existing.options).length > 0 ? optionsKey(t.existing.options) : null;
    const options = t.row.options ?? t.existing?.options ?? {};
    if (Object.keys(options).length === 0) {
      if (before) sets.delete(before);
      return true;
    }
    const key = optionsKey(options);
    const holder = sets.get(key);
    if (holder !== undefined && holder.toLowerCase() !== t.row.sku.toLowerCase()) {
      return void refuse(t, 'options', `the same as variant ${holder}: change a value`);
    }
    if (before) sets.delete(before);
    sets.set(key, t.row.sku);
    return true;
  });

  for (const c of await categorySlugsOf(db, existingIds)) {
    products.get(`id:${c.product_id}`)?.currentCategories.push(c.slug);
  }
  const used = new Set(valid.map((t) => t.product.key));
  return {
    targets: valid,
    products: [...products.values()].filter((p) => used.has(p.key)),
    categories,
    refused: refused.sort((a, b) => a.line - b.line),
  };
}
