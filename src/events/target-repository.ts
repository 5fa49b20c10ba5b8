import type { Selectable } from 'kysely';
import type { Executor, Trx } from '../db/database.js';
import type { EventTargetsTable, TargetKind, TargetStatus } from '../db/schema.js';
import { placeWaitingEvents } from './stream-repository.js';

/**
 * SQL of `event_targets`, their one owner: whoever consumes the event stream
 * (a webhook endpoint; the kind's own table holds its address). A target's
 * row is locked before its deliveries' rows by every writer that takes both
 * (src/db/LOCKING.md).
 */

export type TargetRow = Selectable<EventTargetsTable>;

/** A new target, with its cursor at the stream's head: it is sent the events written from now on. */
export async function insertTarget(
  trx: Trx,
  target: { publicId: string; kind: TargetKind; eventTypes: string[]; status: TargetStatus; now: Date },
): Promise<TargetRow> {
  await placeWaitingEvents(trx);
  return trx
    .insertInto('event_targets')
    .values({
      public_id: target.publicId,
      kind: target.kind,
      event_types: target.eventTypes,
      status: target.status,
      paused_reason: target.status === 'PAUSED' ? 'MANUAL' : null,
      paused_at: target.status === 'PAUSED' ? target.now : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A live target of this kind, row-locked for a change (its deliveries are locked after it, if at all). */
export function lockTarget(db: Executor, kind: TargetKind, publicId: string): Promise<TargetRow | undefined> {
  return db
    .selectFrom('event_targets')
    .selectAll()
    .where('public_id', '=', publicId)
    .where('kind', '=', kind)
    .where('deleted_at', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/**
 * Changes what a target subscribes to and whether it runs. Pausing by hand
 * records why; resuming clears the failure streak, so a target an operator
 * resumes gets a full day again before it can be paused for failing.
 */
export function updateTarget(
  db: Executor,
  id: number,
  changes: { eventTypes?: string[]; status?: TargetStatus },
  now: Date,
): Promise<TargetRow> {
  return db
    .updateTable('event_targets')
    .set({
      updated_at: now,
      ...(changes.eventTypes ? { event_types: changes.eventTypes } : {}),
      ...(changes.status === 'PAUSED' ? { status: 'PAUSED', paused_reason: 'MANUAL', paused_at: now } : {}),
      ...(changes.status === 'ACTIVE' ? { status: 'ACTIVE', paused_reason: null, paused_at: null, failing_since: null } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Deletes a target (softly). It waits for no dispatcher: its cursor is no
 * longer claimed once the deletion has committed, and a delivery row a
 * dispatcher writes for it meanwhile (a failure's retry) is cancelled by
 * the pruner (migration 0023).
 */
export async function deleteTarget(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('event_targets').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
}

/** Notes the first failure since the last success (a no-op, and no lock, while a streak is already running). */
export async function markTargetFailing(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('event_targets').set({ failing_since: now }).where('id', '=', id).where('failing_since', 'is', null).execute();
}

/** Ends a failure streak after a success (a no-op, and no lock, when there is none). */
export async function clearTargetFailing(db: Executor, id: number): Promise<void> {
  await db.updateTable('event_targets').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

/** Pauses an active target whose failures started at `failingBefore` or earlier; returns it when this call paused it. */
export function pauseFailingTarget(db: Executor, id: number, failingBefore: Date, now: Date) {
  return db
    .updateTable('event_targets')
    .set({ status: 'PAUSED', paused_reason: 'FAILING', paused_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('deleted_at', 'is', null)
    .where('failing_since', '<=', failingBefore)
    .returning(['id', 'public_id', 'kind', 'failing_since'])
    .executeTakeFirst();
}
