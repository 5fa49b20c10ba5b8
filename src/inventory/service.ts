import type { Db, Trx } from '../db/database.js';
import { writeAudit, writeAudits, type AuditEntry } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { inventoryExists, notFound, reservationHeld, stockRuleViolation as stockRule, validationError } from '../lib/errors.js';
import { runIdempotent, type IdempotencyRequest } from '../idempotency/idempotency.js';
import { eachItem, type BulkResult } from '../lib/bulk.js';
import { isPublicId } from '../lib/ids.js';
import { parseSort, toPage, type PageRequest } from '../lib/pagination.js';
import {
  countMovements,
  countRecords,
  findLiveVariantId,
  findRecord,
  findRecordId,
  heldByOrders,
  insertMovement,
  insertMovements,
  insertRecords,
  listMovements,
  listRecords,
  lockRecord,
  updateRecord,
  updateRecords,
  type MovementInput,
} from './repository.js';
import { toInventoryRecord } from './mappers.js';
import type {
  BulkAdjust,
  InventoryAdjust,
  InventoryCreate,
  InventoryListQuery,
  InventoryRecord,
  InventorySortField,
  Movement,
  ReservationChange,
} from './schemas.js';

/** The quantity columns are PostgreSQL integers. */
const MAX_QUANTITY = 2_147_483_647;

type Quantities = { quantity_on_hand: number; quantity_reserved: number; reorder_level: number | null };
const snapshot = (q: Quantities): Quantities => ({
  quantity_on_hand: q.quantity_on_hand,
  quantity_reserved: q.quantity_reserved,
  reorder_level: q.reorder_level,
});

/**
 * A new variant's stock record, its CREATE movement and audit entry, in the caller's transaction:
 * POST /admin/inventory, and a catalog write that makes variants with their stock (a batch of
 * variants, an import). The caller has found the variant live; a record it already has is
 * INVENTORY_EXISTS.
 */
export async function createStockRecord(
  trx: Trx,
  ctx: AuthedCtx,
  input: { variantId: number; variantPublicId: string; quantity_on_hand: number; reorder_level?: number | null },
): Promise<void> {
  await createStockRecords(trx, ctx, [input]);
}

/** createStockRecord for many variants at once (a variant batch, a catalog import): a few statements, whatever their number. */
export async function createStockRecords(
  trx: Trx,
  ctx: AuthedCtx,
  inputs: readonly { variantId: number; variantPublicId: string; quantity_on_hand: number; reorder_level?: number | null }[],
): Promise<void> {
  const created = await insertRecords(
    trx,
    inputs.map((input) => ({
      variantId: input.variantId,
      quantityOnHand: input.quantity_on_hand,
      reorderLevel: input.reorder_level ?? null,
    })),
  );
  if (created.length < inputs.length) throw inventoryExists();
  const publicIds = new Map(inputs.map((input) => [input.variantId, input.variantPublicId]));
  await insertMovements(
    trx,
    created.map((record) => ({
      inventoryId: record.id,
      kind: 'CREATE' as const,
      deltaOnHand: record.quantity_on_hand,
      deltaReserved: 0,
      onHandAfter: record.quantity_on_hand,
      reservedAfter: 0,
      reason: null,
      actorUserId: ctx.actor.userId,
    })),
  );
  await writeAudits(
    trx,
    ctx,
    created.map((record) => ({
      action: 'inventory.create' as const,
      entityType: 'inventory' as const,
      entityPublicId: publicIds.get(record.variant_id)!,
      changes: { before: null, after: snapshot(record) },
    })),
  );
}

/**
 * Sets or changes a locked record's on-hand stock and/or reorder level, with an ADJUST movement
 * when the stock changed and an audit entry, in the caller's transaction (the record was locked
 * with `lockRecord`): PATCH /admin/inventory/{var} and a stock import.
 */
export async function adjustStockRecord(
  trx: Trx,
  ctx: AuthedCtx,
  before: Quantities & { id: number },
  variantPublicId: string,
  input: StockChange,
  now: Date,
): Promise<void> {
  const change = stockAdjustment(ctx, before, variantPublicId, input);
  await updateRecord(trx, before.id, change.quantities, change.movement ? now : null);
  if (change.movement) await insertMovement(trx, change.movement);
  await writeAudit(trx, ctx, change.audit);
}

/** adjustStockRecord for many locked records at once (a catalog import or stock count): a few statements, whatever their number. */
export async function adjustStockRecords(
  trx: Trx,
  ctx: AuthedCtx,
  items: readonly { before: Quantities & { id: number }; variantPublicId: string; input: StockChange }[],
  now: Date,
): Promise<void> {
  const changes = items.map((item) => ({ id: item.before.id, ...stockAdjustment(ctx, item.before, item.variantPublicId, item.input) }));
  await updateRecords(
    trx,
    changes.map((c) => ({ id: c.id, ...c.quantities, stock_changed: c.movement !== null })),
    now,
  );
  await insertMovements(
    trx,
    changes.flatMap((c) => (c.movement ? [c.movement] : [])),
  );
  await writeAudits(
    trx,
    ctx,
    changes.map((c) => c.audit),
  );
}

type StockChange = Pick<InventoryAdjust, 'quantity_on_hand' | 'quantity_change' | 'reorder_level' | 'reason'>;

/** What a stock adjustment writes, checked against the stock rules: the new quantities, its movement (none when the stock stays), its audit entry. */
function stockAdjustment(ctx: AuthedCtx, before: Quantities & { id: number }, variantPublicId: string, input: StockChange) {
  const onHand = input.quantity_on_hand ?? before.quantity_on_hand + (input.quantity_change ?? 0);
  if (onHand < 0) throw stockRule(`On-hand quantity cannot go below zero (it would be ${onHand})`);
  if (onHand > MAX_QUANTITY) throw stockRule(`On-hand quantity cannot exceed ${MAX_QUANTITY} (it would be ${onHand})`);
  const reorderLevel = input.reorder_level === undefined ? before.reorder_level : input.reorder_level;
  const movement: MovementInput | null =
    onHand === before.quantity_on_hand
      ? null
      : {
          inventoryId: before.id,
          kind: 'ADJUST',
          deltaOnHand: onHand - before.quantity_on_hand,
          deltaReserved: 0,
          onHandAfter: onHand,
          reservedAfter: before.quantity_reserved,
          reason: input.reason ?? null,
          actorUserId: ctx.actor.userId,
        };
  const audit: AuditEntry = {
    action: 'inventory.adjust',
    entityType: 'inventory',
    entityPublicId: variantPublicId,
    changes: {
      before: snapshot(before),
      after: { quantity_on_hand: onHand, quantity_reserved: before.quantity_reserved, reorder_level: reorderLevel },
    },
    reason: input.reason ?? null,
  };
  return { quantities: { quantity_on_hand: onHand, reorder_level: reorderLevel }, movement, audit };
}

/**
 * Admin inventory (spec "Admin inventory", contract section 7). Every write
 * locks the record's row, checks the stock rules against the locked values,
 * writes the change, a movement row and an audit entry in one transaction.
 */
export function createInventoryService({ db, clock }: { db: Db; clock: Clock }) {
  async function readRecord(trx: Trx, variantPublicId: string): Promise<InventoryRecord> {
    const row = await findRecord(trx, variantPublicId);
    if (!row) throw notFound('Inventory record');
    return toInventoryRecord(row);
  }

  async function lockLive(trx: Trx, variantPublicId: string) {
    const locked = isPublicId('var', variantPublicId) ? await lockRecord(trx, variantPublicId) : undefined;
    if (!locked || locked.variant_deleted) throw notFound('Inventory record');
    return locked;
  }

  return {
    async list(query: InventoryListQuery) {
      const filters = { search: query.search, stockStatus: query.stock_status, includeDeleted: query.include_deleted === 'true' };
      const rows = await listRecords(db, filters, parseSort<InventorySortField>(query.sort), query);
      return toPage(rows, query, () => countRecords(db, filters), toInventoryRecord);
    },

    async get(variantPublicId: string): Promise<InventoryRecord> {
      const row = isPublicId('var', variantPublicId) ? await findRecord(db, variantPublicId) : undefined;
      if (!row) throw notFound('Inventory record');
      return toInventoryRecord(row);
    },

    /** A variant with a record is INVENTORY_EXISTS, also when concurrent creates race (the unique index decides). */
    async create(ctx: AuthedCtx, input: InventoryCreate, idempotency: IdempotencyRequest | null) {
      return runIdempotent(db, ctx.actor.userId, idempotency, 201, clock.now(), async (trx) => {
        const variantId = isPublicId('var', input.variant_public_id) ? await findLiveVariantId(trx, input.variant_public_id) : undefined;
        if (variantId === undefined) throw notFound('Variant');
        await createStockRecord(trx, ctx, { variantId, variantPublicId: input.variant_public_id, ...input });
        return readRecord(trx, input.variant_public_id);
      });
    },

    /** Each change as its own adjustment (own transaction, movement and audit entry), with the one reason. */
    async bulkAdjust(ctx: AuthedCtx, { reason, adjustments }: BulkAdjust): Promise<BulkResult> {
      const changes = new Map(adjustments.map((a) => [a.variant_public_id, a.quantity_change]));
      if (changes.size < adjustments.length) {
        throw validationError('A variant appears twice', [{ field: 'adjustments', message: 'name each variant at most once' }]);
      }
      return eachItem([...changes.keys()], (id) => this.adjust(ctx, id, { quantity_change: changes.get(id)!, reason }, null));
    },

    async adjust(ctx: AuthedCtx, variantPublicId: string, input: InventoryAdjust, idempotency: IdempotencyRequest | null) {
      const setsOnHand = input.quantity_on_hand !== undefined;
      const changesOnHand = input.quantity_change !== undefined;
      if (setsOnHand && changesOnHand) {
        throw validationError('Send quantity_on_hand or quantity_change, not both', [
          { field: 'quantity_change', message: 'cannot be combined with quantity_on_hand' },
        ]);
      }
      if (!setsOnHand && !changesOnHand && input.reorder_level === undefined) {
        throw validationError('Nothing to change: send quantity_on_hand, quantity_change or reorder_level', [
          { field: 'quantity_on_hand', message: 'one of quantity_on_hand, quantity_change or reorder_level is required' },
        ]);
      }
      return runIdempotent(db, ctx.actor.userId, idempotency, 200, clock.now(), async (trx) => {
        await adjustStockRecord(trx, ctx, await lockLive(trx, variantPublicId), variantPublicId, input, clock.now());
        return readRecord(trx, variantPublicId);
      });
    },

    /** Manual hold (change > 0) or release (change < 0), for exceptional cases. */
    async changeReservation(ctx: AuthedCtx, variantPublicId: string, input: ReservationChange, idempotency: IdempotencyRequest | null) {
      return runIdempotent(db, ctx.actor.userId, idempotency, 200, clock.now(), async (trx) => {
        const before = await lockLive(trx, variantPublicId);
        const reserved = before.quantity_reserved + input.change;
        if (reserved < 0) throw stockRule(`Cannot release ${-input.change}: only ${before.quantity_reserved} reserved`);
        if (input.change < 0) {
          // Units placed orders hold stay reserved until those orders ship or are cancelled; releasing them
          // by hand would leave the orders unable to do either.
          const held = await heldByOrders(trx, before.id);
          if (reserved < held) {
            throw reservationHeld(held, before.quantity_reserved);
          }
        }
        // A hold may not make stock unavailable; a release only adds availability, so it stands even when
        // an oversold record stays below zero (contract section 7).
        if (input.change > 0 && before.quantity_on_hand - reserved < 0) {
          throw stockRule(`Available quantity cannot go below zero (it would be ${before.quantity_on_hand - reserved})`);
        }
        await updateRecord(trx, before.id, { quantity_reserved: reserved }, clock.now());
        const kind = input.change > 0 ? 'RESERVE' : 'RELEASE';
        await insertMovement(trx, {
          inventoryId: before.id,
          kind,
          deltaOnHand: 0,
          deltaReserved: input.change,
          onHandAfter: before.quantity_on_hand,
          reservedAfter: reserved,
          reason: input.reason ?? null,
          actorUserId: ctx.actor.userId,
        });
        await writeAudit(trx, ctx, {
          action: kind === 'RESERVE' ? 'inventory.reserve' : 'inventory.release',
          entityType: 'inventory',
          entityPublicId: variantPublicId,
          changes: { before: snapshot(before), after: { ...snapshot(before), quantity_reserved: reserved } },
          reason: input.reason ?? null,
        });
        return readRecord(trx, variantPublicId);
      });
    },

    async movements(variantPublicId: string, page: PageRequest) {
      const recordId = isPublicId('var', variantPublicId) ? await findRecordId(db, variantPublicId) : undefined;
      if (recordId === undefined) throw notFound('Inventory record');
      const rows = await listMovements(db, recordId, page);
      return toPage(
        rows,
        page,
        () => countMovements(db, recordId),
        (row): Movement => ({
          kind: row.kind,
          delta_on_hand: row.delta_on_hand,
          delta_reserved: row.delta_reserved,
          quantity_on_hand_after: row.on_hand_after,
          quantity_reserved_after: row.reserved_after,
          reason: row.reason,
          actor: row.actor_public_id && row.actor_email ? { public_id: row.actor_public_id, email: row.actor_email } : null,
          order_public_id: row.order_public_id,
          created_at: row.created_at.toISOString(),
        }),
      );
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
