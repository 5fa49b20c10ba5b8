import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { categoriesOf, variantsOf } from './listing-repository.js';
import { formatOptions, type ProductCsvRow } from './product-csv.js';

/**
 * The catalog export, in the import's format (src/catalog/product-csv.ts): every live product
 * with the status asked for, oldest first, a row per live variant (a product without variants gets
 * one row with empty variant cells), read by key a batch of products at a time.
 */

export interface ProductExportFilters {
  status?: 'DRAFT' | 'ACTIVE' | 'ARCHIVED' | undefined;
}

function matching(db: Executor, f: ProductExportFilters) {
  return db
    .selectFrom('products')
    .where('deleted_at', 'is', null)
    .$if(f.status !== undefined, (q) => q.where('status', '=', f.status!));
}

/** Rows the export will hold: a product's live variants, or one row for a product without any. */
export async function countProductRowsForExport(db: Executor, f: ProductExportFilters): Promise<number> {
  const row = await matching(db, f)
    .select(
      sql<number>`coalesce(sum(greatest(1, (SELECT count(*) FROM variants v WHERE v.product_id = products.id AND v.deleted_at IS NULL))), 0)::int`.as(
        'n',
      ),
    )
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function* productExportBatches(db: Executor, f: ProductExportFilters, size = 200): AsyncGenerator<ProductCsvRow[]> {
  for (let after = 0; ;) {
    const products = await matching(db, f).selectAll().where('id', '>', after).orderBy('id').limit(size).execute();
    if (products.length === 0) return;
    const ids = products.map((p) => p.id);
    const [variants, categories] = await Promise.all([variantsOf(db, ids, 'admin'), categoriesOf(db, ids)]);
    const rows: ProductCsvRow[] = [];
    for (const p of products) {
      const product = {
        product_slug: p.slug,
        product_name: p.name,
        product_status: p.status,
        brand: p.brand ?? '',
        description: p.description,
        categories: categories
          .filter((c) => c.product_id === p.id)
          .map((c) => c.slug)
          .join('|'),
      };
      const own = variants.filter((v) => v.product_id === p.id);
      if (own.length === 0) rows.push({ ...product, ...EMPTY_VARIANT });
      for (const v of own) {
        rows.push({
          ...product,
          sku: v.sku,
          variant_name: v.name,
          options: formatOptions(v.options),
          price: v.price,
          compare_at_price: v.compare_at_price ?? '',
          cost_price: v.cost_price ?? '',
          variant_status: v.status,
          quantity_on_hand: v.quantity_on_hand === null ? '' : String(v.quantity_on_hand),
          reorder_level: v.reorder_level === null ? '' : String(v.reorder_level),
        });
      }
    }
    yield rows;
    if (products.length < size) return;
    after = products.at(-1)!.id;
  }
}

const EMPTY_VARIANT = {
  sku: '',
  variant_name: '',
  options: '',
  price: '',
  compare_at_price: '',
  cost_price: '',
  variant_status: '',
  quantity_on_hand: '',
  reorder_level: '',
};
