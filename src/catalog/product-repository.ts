import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../db/database.js';
import { batchesOf } from '../lib/batches.js';
import { eachBatchAsRecords, movedImageList } from '../lib/sql.js';
import type { ProductRow, ProductsTable, VariantRow, VariantsTable } from '../db/schema.js';

/**
 * Product and variant SQL for the admin catalog: single rows, writes and
 * category links. Row locks follow src/db/LOCKING.md: a product's row before
 * its variants', and a product's category links only under its row lock.
 * What a write derives (price range, documents, inventory keys) the database
 * does in the same statement (src/db/DERIVED.md).
 */

/** A live product by public ID; `lock` holds its row (FOR NO KEY UPDATE) for the rest of the transaction. */
export function findLiveProduct(db: Executor, publicId: string, lock = false): Promise<ProductRow | undefined> {
  const query = db.selectFrom('products').selectAll().where('public_id', '=', publicId).where('deleted_at', 'is', null);
  return (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

/** Any product, deleted or not, by public ID or internal ID. */
export function findProduct(db: Executor, by: { publicId: string } | { id: number }): Promise<ProductRow | undefined> {
  const query = db.selectFrom('products').selectAll();
  return ('id' in by ? query.where('id', '=', by.id) : query.where('public_id', '=', by.publicId)).executeTakeFirst();
}

/** Locks the product row of a variant (by the variant's public ID), before the variant itself is locked. */
export async function lockProductOfVariant(db: Executor, variantPublicId: string): Promise<void> {
  await db
    .selectFrom('products')
    .select('id')
    .where('id', '=', (eb) => eb.selectFrom('variants').select('product_id').where('public_id', '=', variantPublicId))
    .forNoKeyUpdate()
    .execute();
}

/**
 * The SKU of a live variant of the product with exactly these option values (JSON equality, so key
 * order does not matter), other than `exceptId`; variants without options are told apart by name.
 * Callers hold the product's row lock, so no other variant write of the product runs meanwhile.
 */
export async function variantWithOptions(db: Executor, productId: number, options: string, exceptId?: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('variants')
    .select('sku')
    .where('product_id', '=', productId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`options = ${options}::jsonb AND options <> '{}'::jsonb`)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return row?.sku;
}

/** Which of these SKUs, lower-cased, a variant already has (live or deleted: SKUs are unique case-insensitively over both). */
export async function skusInUse(db: Executor, skus: string[]): Promise<Set<string>> {
  if (skus.length === 0) return new Set();
  const lower = skus.map((sku) => sku.toLowerCase());
  const rows = await db
    .selectFrom('variants')
    .select(sql<string>`lower(sku)`.as('sku'))
    .where(sql<string>`lower(sku)`, 'in', lower)
    .execute();
  return new Set(rows.map((row) => row.sku));
}

/** A live variant by public ID, locked for the rest of the transaction (lock its product first). */
export function lockLiveVariant(db: Executor, publicId: string): Promise<VariantRow | undefined> {
  return db
    .selectFrom('variants')
    .selectAll()
    .where('public_id', '=', publicId)
    .where('deleted_at', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Live products by internal ID, locked (FOR NO KEY UPDATE) in ID order; a deleted or missing one is left out. */
export function lockLiveProducts(db: Executor, ids: readonly number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('products')
    .selectAll()
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** Variants by internal ID, locked (FOR NO KEY UPDATE) in ID order and read as they are once locked (lock their products first). */
export function lockVariants(db: Executor, ids: readonly number[]): Promise<VariantRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('variants').selectAll().where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
}

/** Many products, in order, a batch of rows per statement (each statement's triggers fire once for its batch). */
export async function insertProducts(db: Executor, values: readonly Insertable<ProductsTable>[]): Promise<ProductRow[]> {
  const rows: ProductRow[] = [];
  for (const batch of batchesOf(values)) rows.push(...(await db.insertInto('products').values(batch).returningAll().execute()));
  return rows;
}

/** Many variants, in order, a batch of rows per statement. */
export async function insertVariants(db: Executor, values: readonly Insertable<VariantsTable>[]): Promise<VariantRow[]> {
  const rows: VariantRow[] = [];
  for (const batch of batchesOf(values)) rows.push(...(await db.insertInto('variants').values(batch).returningAll().execute()));
  return rows;
}

/** The fields an import writes of many products at once, each given whole (locked first with lockLiveProducts). */
export type ProductFields = Pick<ProductRow, 'id' | 'name' | 'brand' | 'description'>;

/** Writes each product's fields as given and sets its updated_at, a batch of products per statement; returns the rows as written. */
export function updateProducts(db: Executor, products: readonly ProductFields[], now: Date): Promise<ProductRow[]> {
  return eachBatchAsRecords(
    db,
    products,
    'id bigint, name text, brand text, description text',
    (x) => sql<ProductRow>`
      UPDATE products p
      SET name = x.name, brand = x.brand, description = x.description, updated_at = ${now}
      FROM ${x}
      WHERE p.id = x.id
      RETURNING p.*`,
  );
}

/** The live products linked to a category (whatever their status), in ID order. */
export async function liveProductIdsInCategory(db: Executor, categoryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('product_categories as pc')
    .innerJoin('products as p', 'p.id', 'pc.product_id')
    .select('p.id')
    .where('pc.category_id', '=', categoryId)
    .where('p.deleted_at', 'is', null)
    .orderBy('p.id')
    .execute();
  return rows.map((row) => row.id);
}

/** Makes `links` the only category links of these products (their rows held), a batch per statement. */
export async function replaceProductCategories(
  db: Executor,
  productIds: readonly number[],
  links: readonly { product_id: number; category_id: number }[],
): Promise<void> {
  for (const batch of batchesOf(productIds)) await db.deleteFrom('product_categories').where('product_id', 'in', batch).execute();
  await linkProductsToCategories(db, links);
}

/** The editable fields of many variants at once, each given whole (locked first with lockVariants). */
export type VariantFields = Pick<VariantRow, 'id' | 'name' | 'options' | 'price' | 'compare_at_price' | 'cost_price' | 'status'>;

/** Writes each variant's fields as given, a batch of variants per statement; returns the rows as written. */
export function updateVariants(db: Executor, variants: readonly VariantFields[], now: Date): Promise<VariantRow[]> {
  return eachBatchAsRecords(
    db,
    variants,
    'id bigint, name text, options jsonb, price numeric, compare_at_price numeric, cost_price numeric, status text',
    (x) => sql<VariantRow>`
      UPDATE variants v
      SET name = x.name, options = x.options, price = x.price, compare_at_price = x.compare_at_price,
          cost_price = x.cost_price, status = x.status, updated_at = ${now}
      FROM ${x}
      WHERE v.id = x.id
      RETURNING v.*`,
  );
}

/** Sets many products' statuses (their rows held), a batch per statement; `touch` also sets updated_at. */
export async function setProductStatuses(
  db: Executor,
  statuses: readonly { id: number; status: ProductRow['status']; touch: boolean }[],
  now: Date,
): Promise<void> {
  await eachBatchAsRecords(
    db,
    statuses,
    'id bigint, status text, touch boolean',
    (x) => sql`
      UPDATE products p
      SET status = x.status, updated_at = CASE WHEN x.touch THEN ${now}::timestamptz ELSE p.updated_at END
      FROM ${x}
      WHERE p.id = x.id`,
  );
}

/** Links products to categories (hold the products' rows); pairs already linked are left as they are. */
export async function linkProductsToCategories(db: Executor, links: readonly { product_id: number; category_id: number }[]): Promise<void> {
  for (const batch of batchesOf(links))
    await db
      .insertInto('product_categories')
      .values(batch)
      .onConflict((oc) => oc.doNothing())
      .execute();
}

export function insertProduct(db: Executor, values: Insertable<ProductsTable>): Promise<ProductRow> {
  return db.insertInto('products').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateProduct(db: Executor, id: number, changes: Updateable<ProductsTable>): Promise<ProductRow> {
  return db.updateTable('products').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Soft-deletes a product and its live variants. Variants first: their trigger
 * locks their inventory records before the product's document, the order a
 * checkout takes them in; the product row's own update comes after.
 */
export async function deleteProduct(db: Executor, id: number, now: Date): Promise<void> {
  await db
    .updateTable('variants')
    .set({ deleted_at: now, updated_at: now })
    .where('product_id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
  await db.updateTable('products').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
}

export function insertVariant(db: Executor, values: Insertable<VariantsTable>): Promise<VariantRow> {
  return db.insertInto('variants').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateVariant(db: Executor, id: number, changes: Updateable<VariantsTable>): Promise<VariantRow> {
  return db.updateTable('variants').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteVariant(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('variants').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
}

/** Replaces a product's categories (hold the product's row). */
export async function setProductCategories(db: Executor, productId: number, categoryIds: readonly number[]): Promise<void> {
  await db.deleteFrom('product_categories').where('product_id', '=', productId).execute();
  if (categoryIds.length > 0)
    await db
      .insertInto('product_categories')
      .values(categoryIds.map((category_id) => ({ product_id: productId, category_id })))
      .execute();
}

/** Links a product to a category (hold the product's row); false when it already was. */
export async function linkProductCategory(db: Executor, productId: number, categoryId: number): Promise<boolean> {
  const inserted = await db
    .insertInto('product_categories')
    .values({ product_id: productId, category_id: categoryId })
    .onConflict((oc) => oc.doNothing())
    .returning('product_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Unlinks a product from a category (hold the product's row); false when it was not linked. */
export async function unlinkProductCategory(db: Executor, productId: number, categoryId: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('product_categories')
    .where('product_id', '=', productId)
    .where('category_id', '=', categoryId)
    .returning('product_id')
    .executeTakeFirst();
  return deleted !== undefined;
}

/**
 * Points every product and variant image under the image host's old address `from` at `to` (a move
 * of PUBLIC_BASE_URL): products, then variants, each locked in ID order (LOCKING.md steps 8, 9). The
 * documents and cache purges follow by trigger, as for any image edit. Returns the rows changed.
 */
export async function moveImageUrls(trx: Executor, from: string, to: string): Promise<number> {
  let changed = 0;
  for (const table of ['products', 'variants'] as const) {
    const images = movedImageList('images', 'url', from, to);
    const result = await sql`
      WITH locked AS (SELECT id FROM ${sql.table(table)} WHERE ${images.needed} ORDER BY id FOR UPDATE)
      UPDATE ${sql.table(table)} t SET images = ${movedImageList('t.images', 'url', from, to).value}
      FROM locked WHERE t.id = locked.id`.execute(trx);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}
