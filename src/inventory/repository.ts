import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, InventoryTable, MovementKind } from '../db/schema.js';
import type { Executor } from '../db/database.js';
import { batchesOf } from '../lib/batches.js';
import { type PageRequest, type Sort } from '../lib/pagination.js';
import { containsPattern, countOf, eachBatchAsRecords, keyIn, offsetOf, pageClause, paged, totalOf } from '../lib/sql.js';
import type { InventorySortField, StockStatus } from './schemas.js';

/**
 * SQL of the admin inventory. A record carries copies of its variant's and
 * product's keys (kept by triggers, migration 0006), so lists, filters and
 * sorts read the inventory table alone, each through an index.
 */

const stockStatus = sql<StockStatus>`stock_status(i.quantity_on_hand, i.quantity_reserved, i.reorder_level)`;
const available = sql<number>`(i.quantity_on_hand - i.quantity_reserved)`;

function selectRecord(db: Executor) {
  return db
    .selectFrom('inventory as i')
    .select([
      'i.id as inventory_id',
      'i.variant_id',
      'i.variant_public_id',
      'i.product_public_id',
      'i.product_name',
      'i.sku',
      'i.quantity_on_hand',
      'i.quantity_reserved',
      available.as('quantity_available'),
      'i.reorder_level',
      stockStatus.as('stock_status'),
      'i.created_at',
      'i.last_stock_update',
    ]);
}

export type InventoryRecordRow = NonNullable<Awaited<ReturnType<typeof findRecord>>>;

export function findRecord(db: Executor, variantPublicId: string) {
  return selectRecord(db).where('i.variant_public_id', '=', variantPublicId).executeTakeFirst();
}

export interface InventoryFilters {
  search?: string | undefined;
  stockStatus?: StockStatus | undefined;
  includeDeleted: boolean;
}

/** The list's filters as one condition, shared by the page and its count. */
function matches(filters: InventoryFilters) {
  return (eb: ExpressionBuilder<Database & { i: InventoryTable }, 'i'>) => {
    const parts: Expression<SqlBool>[] = [];
    // Literals, not parameters: a cached plan can only use the partial index (WHERE NOT variant_deleted)
    // when the statement says so, and the statuses are skewed enough that each deserves its own plan.
    if (!filters.includeDeleted) parts.push(sql<SqlBool>`NOT i.variant_deleted`);
    if (filters.stockStatus) parts.push(eb(stockStatus, '=', sql.lit(filters.stockStatus)));
    if (filters.search) parts.push(searchMatch(filters.search));
    return eb.and(parts);
  };
}

/** Product names containing the pattern, each product's with its live record count (the narrow table of migration 0012). */
const namesLike = (pattern: string) => sql`SELECT ip.name, ip.live_records FROM inventory_products ip WHERE ip.name ILIKE ${pattern}`;

/** Ids of the variants whose SKU contains the pattern (the catalog's trigram index). */
const variantsWithSkuLike = (pattern: string) => sql`SELECT v.id FROM variants v WHERE v.sku ILIKE ${pattern}`;

/**
 * Records whose product name or SKU contains the term. Trigram indexes find
 * the matching names and SKUs; inventory is reached through its own btree
 * indexes on the copied product name (exact, kept by migration 0006's
 * triggers) and on the variant key, OR-ed as bitmaps. Inventory keeps no
 * trigram index of its own: every stock change would have to write into it
 * (finding 13), and reaching records one variant id at a time cost one probe
 * per match (finding 25).
 */
function searchMatch(search: string) {
  const pattern = containsPattern(search);
  return sql<SqlBool>`(i.product_name = ANY(ARRAY(SELECT n.name FROM (${namesLike(pattern)}) n))
    OR i.variant_id = ANY(ARRAY(${variantsWithSkuLike(pattern)})))`;
}

/** The default view (live records, nothing filtered) reads the counter migration 0009 keeps instead of counting. */
const totalQuery = (db: Executor, filters: InventoryFilters) =>
  !filters.search && !filters.stockStatus && !filters.includeDeleted
    ? db.selectFrom('inventory_totals').select('live_records as n')
    : db
        .selectFrom('inventory as i')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(matches(filters));

const SORT_COLUMNS = {
  product_name: sql`i.product_name`,
  sku: sql`i.sku`,
  quantity_on_hand: sql`i.quantity_on_hand`,
  quantity_available: available,
  last_stock_update: sql`i.last_stock_update`,
} as const;

export function listRecords(db: Executor, filters: InventoryFilters, sort: Sort<InventorySortField>, page: PageRequest) {
  if (filters.search) {
    return sort.field === 'product_name' && !filters.stockStatus && !filters.includeDeleted
      ? listByNameSearch(db, filters.search, sort.direction, page)
      : listSearched(db, filters, sort, page);
  }
  // The total comes from one scalar subquery (an index-only count), not a window over every row.
  return selectRecord(db)
    .where(matches(filters))
    .select(totalQuery(db, filters).as('total_count'))
    .orderBy(orderOf(sort))
    .$call(paged(page))
    .execute();
}

/** The sort's ORDER BY; the tiebreak follows the sort's direction, so "-x" is exactly "x" reversed. */
const orderOf = (sort: Sort<InventorySortField>) =>
  sql`${SORT_COLUMNS[sort.field]} ${sql.raw(sort.direction)}, i.variant_public_id ${sql.raw(sort.direction)}`;

/**
 * A search with any other sort or filter: the matching records are found
 * once, kept with their sort keys, and both the page and the total are
 * taken from them (finding 25).
 */
async function listSearched(db: Executor, filters: InventoryFilters, sort: Sort<InventorySortField>, page: PageRequest) {
  const matched = db
    .selectFrom('inventory as i')
    .select(['i.id', 'i.product_name', 'i.sku', 'i.quantity_on_hand', 'i.quantity_reserved', 'i.last_stock_update', 'i.variant_public_id'])
    .where(matches(filters));
  const pageIds = sql`SELECT i.id FROM matched i ORDER BY ${orderOf(sort)} ${pageClause(page)}`;
  const result = await sql<InventoryRecordRow & { total_count: number }>`
    WITH matched AS MATERIALIZED (${matched})
    ${selectRecord(db)
      .select(sql<number>`(SELECT count(*) FROM matched)::int`.as('total_count'))
      .where(keyIn('i.id', pageIds))
      .orderBy(orderOf(sort))}
  `.execute(db);
  return result.rows;
}

/**
 * The default sort of a search (product name), for live records: the page
 * is read in order from the product-name index for the matching names
 * (PostgreSQL walks an index in order across a list of keys, so it stops
 * after the page), merged with the few SKU matches; the total adds up the
 * matching products' live record counts (migration 0012) and the SKU
 * matches whose product name does not match. No matching record is visited
 * beyond the page (finding 25).
 */
async function listByNameSearch(db: Executor, search: string, direction: Sort<InventorySortField>['direction'], page: PageRequest) {
  const pattern = containsPattern(search);
  const order = orderOf({ field: 'product_name', direction });
  const dir = sql.raw(direction);
  const first = sql.lit(offsetOf(page) + page.limit);
  // by_sku probes inventory by an array of variant ids rather than joining: the join's generic estimate
  // (200 SKU matches, one probe each) kept PostgreSQL re-planning this statement on every call.
  const result = await sql<InventoryRecordRow & { total_count: number }>`
    WITH named AS MATERIALIZED (${namesLike(pattern)}),
    by_sku AS MATERIALIZED (
      SELECT i.id, i.product_name, i.variant_public_id, i.product_name ILIKE ${pattern} AS name_matches FROM inventory i
      WHERE i.variant_id = ANY(ARRAY(${variantsWithSkuLike(pattern)})) AND NOT i.variant_deleted),
    page AS (
      (SELECT i.id, i.product_name, i.variant_public_id FROM inventory i
       WHERE i.product_name = ANY(ARRAY(SELECT name FROM named)) AND NOT i.variant_deleted
       ORDER BY ${order} LIMIT ${first})
      UNION
      (SELECT i.id, i.product_name, i.variant_public_id FROM by_sku i)
      ORDER BY product_name ${dir}, variant_public_id ${dir} ${pageClause(page)})
    ${selectRecord(db)
      .select(
        sql<number>`((SELECT coalesce(sum(live_records), 0) FROM named) + (SELECT count(*) FROM by_sku WHERE NOT name_matches))::int`.as(
          'total_count',
        ),
      )
      .where(keyIn('i.id', sql`SELECT id FROM page`))
      .orderBy(order)}
  `.execute(db);
  return result.rows;
}

export async function countRecords(db: Executor, filters: InventoryFilters): Promise<number> {
  return (await totalQuery(db, filters).executeTakeFirstOrThrow()).n;
}

/** Locks one record for a read-modify-write; concurrent writers queue behind the row lock. */
export function lockRecord(db: Executor, variantPublicId: string) {
  return db
    .selectFrom('inventory as i')
    .select(['i.id', 'i.quantity_on_hand', 'i.quantity_reserved', 'i.reorder_level', 'i.variant_deleted'])
    .where('i.variant_public_id', '=', variantPublicId)
    .forUpdate()
    .executeTakeFirst();
}

/** The records of these variants (by public ID), locked in variant order: a stock import. */
export function lockRecords(db: Executor, variantPublicIds: readonly string[]) {
  if (variantPublicIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('inventory as i')
    .select(['i.id', 'i.variant_public_id', 'i.quantity_on_hand', 'i.quantity_reserved', 'i.reorder_level', 'i.variant_deleted'])
    .where('i.variant_public_id', 'in', variantPublicIds)
    .orderBy('i.variant_id')
    .forUpdate()
    .execute();
}

/**
 * Units of a record that orders still hold: what their placements reserved,
 * less what their cancellations and shipments gave back. Read from the
 * record's own movements, under its row lock (checkouts take the same lock).
 */
export async function heldByOrders(db: Executor, inventoryId: number): Promise<number> {
  const row = await db
    .selectFrom('inventory_movements')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta_reserved'), eb.lit(0)).as('held'))
    .where('inventory_id', '=', inventoryId)
    .where('order_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

export interface MovementInput {
  inventoryId: number;
  kind: MovementKind;
  deltaOnHand: number;
  deltaReserved: number;
  onHandAfter: number;
  reservedAfter: number;
  reason: string | null;
  actorUserId: number | null;
  orderId?: number | null;
}

export async function insertMovement(db: Executor, m: MovementInput): Promise<void> {
  await insertMovements(db, [m]);
}

/** Movements in order, a batch of rows per statement. */
export async function insertMovements(db: Executor, movements: readonly MovementInput[]): Promise<void> {
  for (const batch of batchesOf(movements)) {
    await db
      .insertInto('inventory_movements')
      .values(
        batch.map((m) => ({
          inventory_id: m.inventoryId,
          kind: m.kind,
          delta_on_hand: m.deltaOnHand,
          delta_reserved: m.deltaReserved,
          on_hand_after: m.onHandAfter,
          reserved_after: m.reservedAfter,
          reason: m.reason,
          actor_user_id: m.actorUserId,
          order_id: m.orderId ?? null,
          // The time of the change, taken under the record's row lock. The column default now() is the
          // transaction's start: a writer that began first but got the lock second got the older time,
          // so "newest first" listed concurrent movements out of the order they were applied.
          created_at: sql`clock_timestamp()`,
        })),
      )
      .execute();
  }
}

const movementsOf = (db: Executor, inventoryId: number) =>
  db.selectFrom('inventory_movements as m').where('m.inventory_id', '=', inventoryId);

export function listMovements(db: Executor, inventoryId: number, page: PageRequest) {
  return db
    .selectFrom('inventory_movements as m')
    .leftJoin('users as u', 'u.id', 'm.actor_user_id')
    .leftJoin('orders as o', 'o.id', 'm.order_id')
    .select([
      'o.public_id as order_public_id',
      'm.kind',
      'm.delta_on_hand',
      'm.delta_reserved',
      'm.on_hand_after',
      'm.reserved_after',
      'm.reason',
      'm.created_at',
      'u.public_id as actor_public_id',
      'u.email as actor_email',
    ])
    .select(countOf(movementsOf(db, inventoryId)).as('total_count'))
    .where('m.inventory_id', '=', inventoryId)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .$call(paged(page))
    .execute();
}

export const countMovements = (db: Executor, inventoryId: number): Promise<number> => totalOf(movementsOf(db, inventoryId))();

/** A live variant's ID (a record is created for live variants only). Reads the catalog's table; catalog owns it. */
export async function findLiveVariantId(db: Executor, variantPublicId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('variants')
    .select('id')
    .where('public_id', '=', variantPublicId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Creates records for variants (in variant order, a batch of rows per statement); returns those
 * made, without the variants that already had one.
 */
export async function insertRecords(
  db: Executor,
  records: readonly { variantId: number; quantityOnHand: number; reorderLevel: number | null }[],
) {
  const created = [];
  for (const batch of batchesOf([...records].sort((a, b) => a.variantId - b.variantId))) {
    created.push(
      ...(await db
        .insertInto('inventory')
        .values(batch.map((r) => ({ variant_id: r.variantId, quantity_on_hand: r.quantityOnHand, reorder_level: r.reorderLevel })))
        .onConflict((oc) => oc.column('variant_id').doNothing())
        .returning(['id', 'variant_id', 'quantity_on_hand', 'quantity_reserved', 'reorder_level'])
        .execute()),
    );
  }
  return created;
}

/** Writes many locked records' on-hand stock and reorder level, a batch per statement; `stock_changed` sets last_stock_update. */
export async function updateRecords(
  db: Executor,
  records: readonly { id: number; quantity_on_hand: number; reorder_level: number | null; stock_changed: boolean }[],
  now: Date,
): Promise<void> {
  await eachBatchAsRecords(
    db,
    records,
    'id bigint, quantity_on_hand integer, reorder_level integer, stock_changed boolean',
    (x) => sql`
      UPDATE inventory i
      SET quantity_on_hand = x.quantity_on_hand, reorder_level = x.reorder_level,
          last_stock_update = CASE WHEN x.stock_changed THEN ${now}::timestamptz ELSE i.last_stock_update END
      FROM ${x}
      WHERE i.id = x.id`,
  );
}

/** Writes a locked record's new quantities; `stockUpdatedAt` is set when a stock quantity changed. */
export async function updateRecord(
  db: Executor,
  id: number,
  changes: { quantity_on_hand?: number; quantity_reserved?: number; reorder_level?: number | null },
  stockUpdatedAt: Date | null,
): Promise<void> {
  await db
    .updateTable('inventory')
    .set({ ...changes, ...(stockUpdatedAt ? { last_stock_update: stockUpdatedAt } : {}) })
    .where('id', '=', id)
    .execute();
}

/** The record ID of a variant (deleted variants' records included). */
export async function findRecordId(db: Executor, variantPublicId: string): Promise<number | undefined> {
  const row = await db.selectFrom('inventory').select('id').where('variant_public_id', '=', variantPublicId).executeTakeFirst();
  return row?.id;
}
