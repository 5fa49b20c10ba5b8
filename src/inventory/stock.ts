import { sql } from 'kysely';
import type { Trx } from '../db/database.js';
import type { MovementKind } from '../db/schema.js';

/**
 * Stock effects of orders (contract section 8), for callers that already
 * hold a transaction. Rows are locked in ascending variant order, so two
 * checkouts touching the same variants in any cart order cannot deadlock.
 * Every effect is a fixed number of statements, whatever the line count.
 */
export interface StockLine {
  variantId: number;
  quantity: number;
}

export interface Shortage {
  variantId: number;
  requested: number;
  available: number;
}

interface Effect {
  kind: MovementKind;
  /** Signs applied to each line's quantity. */
  onHand: -1 | 0;
  reserved: 1 | -1;
}

const EFFECTS = {
  reserve: { kind: 'ORDER_PLACED', onHand: 0, reserved: 1 },
  release: { kind: 'ORDER_CANCELLED', onHand: 0, reserved: -1 },
  ship: { kind: 'ORDER_SHIPPED', onHand: -1, reserved: -1 },
} as const satisfies Record<string, Effect>;

/** Sums quantities per variant and orders them by variant ID (the lock order). */
export function mergeLines(lines: readonly StockLine[]): StockLine[] {
  const merged = new Map<number, number>();
  for (const line of lines) merged.set(line.variantId, (merged.get(line.variantId) ?? 0) + line.quantity);
  return [...merged].sort((a, b) => a[0] - b[0]).map(([variantId, quantity]) => ({ variantId, quantity }));
}

async function lockRows(trx: Trx, lines: StockLine[]) {
  return trx
    .selectFrom('inventory')
    .select(['variant_id', 'quantity_on_hand', 'quantity_reserved'])
    .where('variant_id', 'in', lines.map((l) => l.variantId))
    .orderBy('variant_id')
    .forUpdate()
    .execute();
}

async function apply(trx: Trx, lines: StockLine[], effect: Effect, orderId: number, actorUserId: number | null): Promise<void> {
  const ids = lines.map((l) => l.variantId);
  const quantities = lines.map((l) => l.quantity);
  // One UPDATE for all lines, then one INSERT of all movement rows from its result. Times come from
  // clock_timestamp(), taken under the row lock, so movements sort in the order they were applied.
  await sql`
    WITH changed AS (
      UPDATE inventory i SET
        quantity_on_hand = i.quantity_on_hand + ${effect.onHand} * d.quantity,
        quantity_reserved = i.quantity_reserved + ${effect.reserved} * d.quantity,
        last_stock_update = clock_timestamp()
      FROM unnest(${ids}::bigint[], ${quantities}::int[]) AS d(variant_id, quantity)
      WHERE i.variant_id = d.variant_id
      RETURNING i.id, i.quantity_on_hand, i.quantity_reserved, d.quantity
    )
    INSERT INTO inventory_movements
      (inventory_id, kind, delta_on_hand, delta_reserved, on_hand_after, reserved_after, actor_user_id, order_id, created_at)
    SELECT id, ${effect.kind}, ${effect.onHand} * quantity, ${effect.reserved} * quantity,
           quantity_on_hand, quantity_reserved, ${actorUserId}::bigint, ${orderId}::bigint, clock_timestamp()
    FROM changed
  `.execute(trx);
}

/**
 * Reserves every line or nothing. Returns the shortages (each short variant
 * with what is available) without changing anything when stock is missing.
 */
export async function reserveStock(trx: Trx, lines: readonly StockLine[], orderId: number, actorUserId: number): Promise<Shortage[]> {
  const merged = mergeLines(lines);
  const rows = new Map((await lockRows(trx, merged)).map((r) => [r.variant_id, r]));
  const shortages = merged.flatMap((line) => {
    const row = rows.get(line.variantId);
    const available = row ? row.quantity_on_hand - row.quantity_reserved : 0;
    return available >= line.quantity ? [] : [{ variantId: line.variantId, requested: line.quantity, available: Math.max(0, available) }];
  });
  if (shortages.length === 0) await apply(trx, merged, EFFECTS.reserve, orderId, actorUserId);
  return shortages;
}

/** Gives back what an order reserved (cancellation). */
export async function releaseStock(trx: Trx, lines: readonly StockLine[], orderId: number, actorUserId: number | null): Promise<void> {
  const merged = mergeLines(lines);
  await lockRows(trx, merged);
  await apply(trx, merged, EFFECTS.release, orderId, actorUserId);
}

/**
 * Takes shipped units out of on-hand and reserved. Returns the variants whose
 * on-hand count is below the order's quantity (an admin lowered it meanwhile).
 */
export async function shipStock(trx: Trx, lines: readonly StockLine[], orderId: number, actorUserId: number | null): Promise<Shortage[]> {
  const merged = mergeLines(lines);
  const rows = new Map((await lockRows(trx, merged)).map((r) => [r.variant_id, r]));
  const shortages = merged.flatMap((line) => {
    const onHand = rows.get(line.variantId)?.quantity_on_hand ?? 0;
    return onHand >= line.quantity ? [] : [{ variantId: line.variantId, requested: line.quantity, available: onHand }];
  });
  if (shortages.length === 0) await apply(trx, merged, EFFECTS.ship, orderId, actorUserId);
  return shortages;
}
