import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { ProductRow, VariantRow } from '../db/schema.js';

/** Reads a catalog import plans with: what the file's SKUs, slugs and categories name today. */

/** Variants, live or deleted, with any of these SKUs (compared lower-cased, as the unique index does). */
export async function variantsBySku(db: Executor, skus: readonly string[]): Promise<(VariantRow & { product_public_id: string })[]> {
  if (skus.length === 0) return [];
  return db
    .selectFrom('variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .selectAll('v')
    .select('p.public_id as product_public_id')
    .where(
      sql<string>`lower(v.sku)`,
      'in',
      skus.map((sku) => sku.toLowerCase()),
    )
    .execute();
}

export async function liveProductsBy(db: Executor, by: { slugs: readonly string[] } | { ids: readonly number[] }): Promise<ProductRow[]> {
  const query = db.selectFrom('products').selectAll().where('deleted_at', 'is', null);
  if ('slugs' in by) return by.slugs.length === 0 ? [] : query.where('slug', 'in', by.slugs).execute();
  return by.ids.length === 0 ? [] : query.where('id', 'in', by.ids).execute();
}

export async function liveCategoriesBySlug(db: Executor, slugs: readonly string[]) {
  if (slugs.length === 0) return [];
  return db
    .selectFrom('categories')
    .select(['id', 'public_id', 'slug'])
    .where('slug', 'in', slugs)
    .where('deleted_at', 'is', null)
    .execute();
}

/** The live variants of these products, for the option sets an import must keep unique. */
export async function liveVariantsOf(db: Executor, productIds: readonly number[]) {
  if (productIds.length === 0) return [];
  return db
    .selectFrom('variants')
    .select(['id', 'product_id', 'sku', 'options'])
    .where('product_id', 'in', productIds)
    .where('deleted_at', 'is', null)
    .execute();
}

/** The quantity on hand of each of these variants that has a stock record, by variant ID. */
export async function onHandOf(db: Executor, variantIds: readonly number[]): Promise<Map<number, number>> {
  if (variantIds.length === 0) return new Map();
  const rows = await db.selectFrom('inventory').select(['variant_id', 'quantity_on_hand']).where('variant_id', 'in', variantIds).execute();
  return new Map(rows.map((row) => [row.variant_id, row.quantity_on_hand]));
}

/** The category slugs of each of these products. */
export async function categorySlugsOf(db: Executor, productIds: readonly number[]) {
  if (productIds.length === 0) return [];
  return db
    .selectFrom('product_categories as pc')
    .innerJoin('categories as c', 'c.id', 'pc.category_id')
    .select(['pc.product_id', 'c.slug'])
    .where('pc.product_id', 'in', productIds)
    .where('c.deleted_at', 'is', null)
    .orderBy('c.slug')
    .execute();
}
