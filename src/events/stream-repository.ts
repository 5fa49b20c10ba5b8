import { sql } from 'kysely';
import { PLANNED_EACH_RUN, type Executor, type Trx } from '../db/database.js';
import type { TargetKind } from '../db/schema.js';

/**
 * SQL of the event stream, its one owner (migration 0024): `event_inbox`
 * (events not yet placed), `event_stream` (every event at its position) and
 * `event_cursors` (each target's place in it, and the lease of the
 * dispatcher reading it). What a target was sent, or still owes after a
 * failure, is a delivery row (./delivery-repository.ts).
 */

/** Events placed in the stream per statement. */
export const SEQUENCE_BATCH = 1_000;

/** One sequencer at a time: it is what makes positions commit in order. */
const SEQUENCER_LOCK = sql`hashtext('event_stream.sequencer')`;

/**
 * Places up to `limit` events of the inbox in the stream, in event ID order,
 * at the next positions; returns how many. One statement, which first tries
 * the sequencer's transaction-scoped advisory lock and places nothing when
 * another sequencer holds it (that one is doing the work); the lock is held
 * to the commit, so positions commit in the order they were taken (a
 * rolled-back sequencer leaves a gap, never a position seen out of turn).
 * The statement may have read the inbox before the lock was free: what
 * committed meanwhile is placed next time, and a row the previous holder
 * took is skipped when the delete finds it gone.
 */
export async function sequenceEvents(db: Executor, limit: number): Promise<number> {
  const result = await sql`${sql.raw(PLANNED_EACH_RUN)}
    WITH taken AS (
      DELETE FROM event_inbox WHERE event_id IN (
        SELECT event_id FROM event_inbox WHERE (SELECT pg_try_advisory_xact_lock(${SEQUENCER_LOCK}))
        ORDER BY event_id LIMIT ${limit}
      )
      RETURNING event_id, type
    )
    INSERT INTO event_stream (position, event_id, type)
    SELECT nextval('event_stream_position'), event_id, type FROM (SELECT event_id, type FROM taken ORDER BY event_id) ordered`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Places every committed event waiting in the inbox, and holds the
 * sequencer's lock to the end of `trx`: a target inserted next gets its
 * cursor (migration 0024's trigger) after all of them, so it is sent what is
 * written from its creation on, as a subscription made at a moment should be.
 */
export async function placeWaitingEvents(trx: Trx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK})`.execute(trx);
  while ((await sequenceEvents(trx, SEQUENCE_BATCH)) === SEQUENCE_BATCH);
}

export interface CursorClaimRequest {
  claim: string;
  /** At most this many cursors. */
  limit: number;
  now: Date;
  leaseEnd: Date;
  /** Targets this worker is already sending to. */
  busyTargets: number[];
  /** Only targets of these kinds (absent: every kind). */
  kinds?: TargetKind[];
}

export interface ClaimedCursor {
  target_id: number;
  position: number;
  kind: TargetKind;
  target_public_id: string;
  event_types: string[];
  failing_since: Date | null;
}

/**
 * Leases the cursors of active targets that have events to read and that no
 * other dispatcher holds; one statement, the cursors locked SKIP LOCKED in
 * target order. The lease check is re-made on the locked row, so a cursor
 * another dispatcher took since this statement's snapshot is skipped.
 */
export async function claimCursors(db: Executor, request: CursorClaimRequest): Promise<ClaimedCursor[]> {
  const { rows } = await sql<ClaimedCursor>`${sql.raw(PLANNED_EACH_RUN)}
    WITH ready AS (
      SELECT c.target_id FROM event_cursors c JOIN event_targets t ON t.id = c.target_id
      WHERE t.status = 'ACTIVE' AND t.deleted_at IS NULL AND NOT (t.id = ANY(${request.busyTargets}::bigint[]))
        AND (${request.kinds ?? null}::text[] IS NULL OR t.kind = ANY(${request.kinds ?? null}::text[]))
        AND c.position < (SELECT coalesce(max(position), 0) FROM event_stream)
        AND (c.lease_until IS NULL OR c.lease_until <= ${request.now})
      ORDER BY c.target_id
      LIMIT ${request.limit}
      FOR UPDATE OF c SKIP LOCKED
    ),
    claimed AS (
      UPDATE event_cursors c SET claim = ${request.claim}, lease_until = ${request.leaseEnd}
      FROM ready WHERE c.target_id = ready.target_id
      RETURNING c.target_id, c.position
    )
    SELECT c.target_id, c.position, t.kind, t.public_id AS target_public_id, t.event_types, t.failing_since
    FROM claimed c JOIN event_targets t ON t.id = c.target_id
    ORDER BY c.target_id`.execute(db);
  return rows;
}

export interface StreamEvent {
  position: number;
  id: number;
  public_id: string;
  type: string;
  version: number;
  ordering_key: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/**
 * The next events of the stream for a target (those of its types), up to `limit`, looking at most `scan` positions ahead; and the
 * position the read reached: the last event returned when the limit was
 * met, otherwise the end of what was looked at (events of other types
 * included, so a target does not read them again).
 */
export async function readStream(
  db: Executor,
  cursor: StreamCursor,
  limit: number,
  scan: number,
): Promise<{ events: StreamEvent[]; reached: number }> {
  const { rows } = await readStreamStatement(cursor, limit, scan).execute(db);
  const head = rows[0]?.head ?? cursor.position;
  const events = rows.filter((row) => row.position !== null).map(({ head: _head, ...event }) => event);
  const reached = events.length === limit ? events[events.length - 1]!.position : Math.max(head, cursor.position);
  return { events, reached };
}

export interface StreamCursor {
  target_id: number;
  position: number;
  event_types: string[];
}

/**
 * readStream's statement: the stream's narrow rows after the cursor, of the
 * target's types, up to the limit, then each of those events by its primary
 * key; with the head it may look up to. Whatever plan the statistics lead
 * to (a scan of the window and a sort, or the index in order), it touches
 * the window's narrow rows at most, never an event it does not return
 * (`test/webhooks-claim-cost.test.ts`).
 */
export function readStreamStatement(cursor: StreamCursor, limit: number, scan: number) {
  return sql<StreamEvent & { head: number }>`${sql.raw(PLANNED_EACH_RUN)}
    WITH head AS (SELECT least(coalesce(max(position), 0), ${cursor.position + scan}::bigint) AS position FROM event_stream)
    SELECT s.position, e.id, e.public_id, e.type, e.version, e.ordering_key, e.payload, e.created_at, head.position AS head
    FROM head LEFT JOIN LATERAL (
      SELECT s.position, s.event_id FROM event_stream s
      WHERE s.position > ${cursor.position} AND s.position <= head.position AND s.type = ANY(${cursor.event_types}::text[])
        -- Paused or deleted since the lease was taken: nothing more is read for it.
        AND EXISTS (SELECT 1 FROM event_targets t WHERE t.id = ${cursor.target_id} AND t.status = 'ACTIVE' AND t.deleted_at IS NULL)
      ORDER BY s.position
      LIMIT ${limit}
    ) s ON true
    LEFT JOIN events e ON e.id = s.event_id
    ORDER BY s.position`;
}

/** Moves a cursor and ends its lease, if `claim` still holds it; false when the lease was lost (another dispatcher reads it now). */
export async function advanceCursor(trx: Trx, targetId: number, claim: string, position: number): Promise<boolean> {
  const result = await trx
    .updateTable('event_cursors')
    .set({ position, claim: null, lease_until: null })
    .where('target_id', '=', targetId)
    .where('claim', '=', claim)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a claim's lease of a target's cursor without moving it (what it read is read again). */
export async function releaseCursor(db: Executor, targetId: number, claim: string): Promise<void> {
  await db
    .updateTable('event_cursors')
    .set({ claim: null, lease_until: null })
    .where('target_id', '=', targetId)
    .where('claim', '=', claim)
    .execute();
}

/**
 * Deletes, in a batch, stream rows no live target will read: every cursor
 * has passed them, or none that has not takes their type (so a paused
 * endpoint keeps only its own types' events, not everyone's); returns how many.
 */
export async function pruneStream(db: Executor, batchSize: number): Promise<number> {
  const result = await sql`${sql.raw(PLANNED_EACH_RUN)}
    DELETE FROM event_stream WHERE position IN (
      SELECT s.position FROM event_stream s
      WHERE NOT EXISTS (
        SELECT 1 FROM event_cursors c JOIN event_targets t ON t.id = c.target_id
        WHERE t.deleted_at IS NULL AND c.position < s.position AND s.type = ANY(t.event_types)
      )
      ORDER BY s.position LIMIT ${batchSize}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Events waiting for active targets of a kind that no delivery row holds yet:
 * in the inbox, or in the stream past the target's cursor; how many, and
 * when the oldest was written.
 */
export async function unreadEvents(db: Executor, kind: TargetKind): Promise<{ count: number; oldest: Date | null }> {
  // Counted on the narrow rows; the oldest is each target's first unread event, and the inbox's first, by primary key.
  const { rows } = await sql<{ count: number; oldest: Date | null }>`${sql.raw(PLANNED_EACH_RUN)}
    WITH targets AS (
      SELECT t.id, t.event_types, c.position FROM event_targets t JOIN event_cursors c ON c.target_id = t.id
      WHERE t.status = 'ACTIVE' AND t.deleted_at IS NULL AND t.kind = ${kind}
    ),
    firsts AS (
      SELECT f.event_id FROM targets t CROSS JOIN LATERAL (
        SELECT s.event_id FROM event_stream s WHERE s.position > t.position AND s.type = ANY(t.event_types) ORDER BY s.position LIMIT 1
      ) f
      UNION ALL
      SELECT min(i.event_id) FROM event_inbox i WHERE EXISTS (SELECT 1 FROM targets t WHERE i.type = ANY(t.event_types))
    )
    SELECT (SELECT count(*)::int FROM targets t JOIN event_stream s ON s.position > t.position AND s.type = ANY(t.event_types))
         + (SELECT count(*)::int FROM event_inbox i JOIN targets t ON i.type = ANY(t.event_types)) AS count,
           (SELECT min(e.created_at) FROM firsts f JOIN events e ON e.id = f.event_id) AS oldest`.execute(db);
  return rows[0] ?? { count: 0, oldest: null };
}

/** How far `eventsWaiting` counts. */
export const WAITING_COUNTED_UP_TO = 10_000;

/**
 * The events a target has not read yet (in the inbox, or in the stream past
 * its cursor), of its types, counted up to WAITING_COUNTED_UP_TO: an
 * expression over the query's `event_targets` row, aliased `t`.
 */
export const eventsWaiting = () => sql<number>`least(${WAITING_COUNTED_UP_TO}, (
    SELECT count(*)::int FROM (
      SELECT 1 FROM event_cursors c JOIN event_stream s ON s.position > c.position
      WHERE c.target_id = t.id AND s.type = ANY(t.event_types) LIMIT ${WAITING_COUNTED_UP_TO}
    ) w
  ) + (
    SELECT count(*)::int FROM (
      SELECT 1 FROM event_inbox i WHERE i.type = ANY(t.event_types) LIMIT ${WAITING_COUNTED_UP_TO}
    ) i
  ))`;

/** Whether events wait in the inbox to be placed in the stream. */
export async function inboxWaiting(db: Executor): Promise<boolean> {
  return (await db.selectFrom('event_inbox').select('event_id').limit(1).executeTakeFirst()) !== undefined;
}
