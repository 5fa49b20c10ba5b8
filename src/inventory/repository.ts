import { sql } from 'kysely';
import type { MovementKind } from '../db/schema.js';
import type { Executor } from '../db/database.js';
import { offsetOf, type PageRequest, type Sort } from '../lib/pagination.js';
import { containsPattern } from '../lib/sql.js';
import type { InventorySortField, StockStatus } from './schemas.js';

/** SQL of the admin inventory: records joined to their variant and product. */

const stockStatus = sql<StockStatus>`stock_status(i.quantity_on_hand, i.quantity_reserved, i.reorder_level)`;
const available = sql<number>`(i.quantity_on_hand - i.quantity_reserved)`;

function records(db: Executor) {
  return db
    .selectFrom('inventory as i')
    .innerJoin('variants as v', 'v.id', 'i.variant_id')
    .innerJoin('products as p', 'p.id', 'v.product_id');
}

function selectRecord(query: ReturnType<typeof records>) {
  return query.select([
    'i.id as inventory_id',
    'i.variant_id',
    'v.public_id as variant_public_id',
    'p.public_id as product_public_id',
    'p.name as product_name',
    'v.sku',
    'i.quantity_on_hand',
    'i.quantity_reserved',
    available.as('quantity_available'),
    'i.reorder_level',
    stockStatus.as('stock_status'),
    'i.created_at',
    'i.last_stock_update',
  ]);
}

export type InventoryRecordRow = Awaited<ReturnType<typeof findRecord>> & object;

export function findRecord(db: Executor, variantPublicId: string) {
  return selectRecord(records(db).where('v.public_id', '=', variantPublicId)).executeTakeFirst();
}

export interface InventoryFilters {
  search?: string | undefined;
  stockStatus?: StockStatus | undefined;
  includeDeleted: boolean;
}

function filtered(db: Executor, filters: InventoryFilters) {
  let query = records(db);
  if (!filters.includeDeleted) query = query.where('v.deleted_at', 'is', null);
  if (filters.stockStatus) query = query.where(stockStatus, '=', filters.stockStatus);
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    query = query.where((eb) => eb.or([eb('p.name', 'ilike', pattern), eb('v.sku', 'ilike', pattern)]));
  }
  return query;
}

const SORT_COLUMNS = {
  product_name: sql`p.name`,
  sku: sql`v.sku`,
  quantity_on_hand: sql`i.quantity_on_hand`,
  quantity_available: available,
  last_stock_update: sql`i.last_stock_update`,
} as const;

export function listRecords(db: Executor, filters: InventoryFilters, sort: Sort<InventorySortField>, page: PageRequest) {
  // The tiebreak follows the sort's direction, so "-x" is exactly "x" reversed.
  return selectRecord(filtered(db, filters))
    .select((eb) => eb.fn.countAll<number>().over().as('total_count'))
    .orderBy(SORT_COLUMNS[sort.field], sort.direction)
    .orderBy('v.public_id', sort.direction)
    .limit(page.limit)
    .offset(offsetOf(page))
    .execute();
}

export async function countRecords(db: Executor, filters: InventoryFilters): Promise<number> {
  return (await filtered(db, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
}

/** Locks one record for a read-modify-write; concurrent writers queue behind the row lock. */
export function lockRecord(db: Executor, variantPublicId: string) {
  return db
    .selectFrom('inventory as i')
    .innerJoin('variants as v', 'v.id', 'i.variant_id')
    .select(['i.id', 'i.quantity_on_hand', 'i.quantity_reserved', 'i.reorder_level', 'v.deleted_at as variant_deleted_at'])
    .where('v.public_id', '=', variantPublicId)
    .forUpdate('i')
    .executeTakeFirst();
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
  await db
    .insertInto('inventory_movements')
    .values({
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
    })
    .execute();
}

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
    .select((eb) => eb.fn.countAll<number>().over().as('total_count'))
    .where('m.inventory_id', '=', inventoryId)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(page.limit)
    .offset(offsetOf(page))
    .execute();
}

export async function countMovements(db: Executor, inventoryId: number): Promise<number> {
  const row = await db
    .selectFrom('inventory_movements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('inventory_id', '=', inventoryId)
    .executeTakeFirstOrThrow();
  return row.n;
}
