import { sql, type ExpressionBuilder } from 'kysely';
import { PLANNED_EACH_RUN, type Executor } from '../db/database.js';
import type { Database, DeliveryState, TargetKind } from '../db/schema.js';
import { eachBatchAsRecords, keyIn } from '../lib/sql.js';
import { unreadEvents } from './stream-repository.js';

/**
 * SQL of `event_deliveries`, their one owner: one row per event and target,
 * written by the dispatcher once the event was read from the stream and
 * tried (./stream-repository.ts); what is PENDING is then claimed, sent and
 * marked by the dispatcher (./dispatcher.ts). Claims follow the email outbox's: a claim is
 * taken in one short statement, FOR UPDATE SKIP LOCKED, and hides what it
 * takes from other workers until its lease ends; marks are single statements.
 * A statement that writes several deliveries locks them in id order first
 * (`lockedInOrder`), so two such statements never wait on each other in a cycle.
 */

/** `id = ANY(ARRAY(...))` over the rows `where` picks, locked in ascending id order before the write touches them. */
const lockedInOrder =
  (where: (eb: ExpressionBuilder<Database, 'event_deliveries'>) => ReturnType<ExpressionBuilder<Database, 'event_deliveries'>['and']>) =>
  (eb: ExpressionBuilder<Database, 'event_deliveries'>) =>
    keyIn('id', eb.selectFrom('event_deliveries').select('id').where(where).orderBy('id').forUpdate());

export interface ClaimRequest {
  claim: string;
  now: Date;
  leaseEnd: Date;
  /** At most this many in all, and this many per target. */
  limit: number;
  perTarget: number;
  /** Targets this worker is already sending to (their next batch waits for the current one). */
  busyTargets: number[];
  /** Only targets of these kinds (absent: every kind). */
  kinds?: TargetKind[];
}

export interface ClaimedDelivery {
  id: number;
  public_id: string;
  attempts: number;
  /** The attempts before this round of retries (a redelivery starts one): the backoff counts the rest. */
  attempts_before_round: number;
  first_attempt_at: Date | null;
  target_id: number;
  kind: string;
  target_public_id: string;
  failing_since: Date | null;
  event_public_id: string;
  type: string;
  version: number;
  payload: Record<string, unknown>;
  event_created_at: Date;
}

/**
 * Takes due deliveries of active targets, up to `perTarget` each. A delivery
 * is due only when it is the earliest event with its ordering key still
 * pending for its target (being sent, or waiting for a retry), so one target
 * sees a resource's events in the order they happened. The lock step
 * re-checks `next_attempt_at`, so a row another worker claimed since this
 * statement's snapshot is skipped, not taken twice.
 *
 * Every step has one sensible plan whatever the statistics say, because a
 * queue's statistics are always stale (a burst arrives after the last
 * ANALYZE saw an empty table): each target's due deliveries come off
 * `event_deliveries_due` in claim order and stop at the limit, the ordering
 * check is one `min()` probe of `event_deliveries_in_order` per candidate (a
 * NOT EXISTS became an anti-join that read the target's whole backlog per
 * candidate), and the lock step reaches each candidate by its primary key,
 * one lateral lookup each (an `id = ANY(...)` filter, or a join the planner
 * could hash, walked the whole pending index).
 */
export function claimDueDeliveriesStatement(request: ClaimRequest) {
  return sql<ClaimedDelivery>`${sql.raw(PLANNED_EACH_RUN)}
    WITH candidates AS (
      SELECT d.id, d.event_id FROM event_targets t
      CROSS JOIN LATERAL (
        SELECT d.id, d.event_id FROM event_deliveries d
        WHERE d.target_id = t.id AND d.state = 'PENDING' AND d.next_attempt_at <= ${request.now}
          AND d.event_id = (
            SELECT min(p.event_id) FROM event_deliveries p
            WHERE p.target_id = d.target_id AND p.ordering_key = d.ordering_key AND p.state = 'PENDING'
          )
        ORDER BY d.next_attempt_at, d.event_id
        LIMIT ${request.perTarget}
      ) d
      WHERE t.status = 'ACTIVE' AND t.deleted_at IS NULL AND NOT (t.id = ANY(${request.busyTargets}::bigint[]))
        AND (${request.kinds ?? null}::text[] IS NULL OR t.kind = ANY(${request.kinds ?? null}::text[]))
      ORDER BY d.event_id
      LIMIT ${request.limit}
    ),
    locked AS (
      SELECT d.id FROM (SELECT id FROM candidates ORDER BY id) c
      CROSS JOIN LATERAL (
        SELECT d.id FROM event_deliveries d
        WHERE d.id = c.id AND d.state = 'PENDING' AND d.next_attempt_at <= ${request.now}
        FOR UPDATE SKIP LOCKED
      ) d
    ),
    claimed AS (
      UPDATE event_deliveries d SET claim = ${request.claim}, next_attempt_at = ${request.leaseEnd}
      FROM locked WHERE d.id = locked.id
      RETURNING d.id, d.public_id, d.attempts, d.attempts_before_round, d.first_attempt_at, d.target_id, d.event_id
    )
    SELECT c.id, c.public_id, c.attempts, c.attempts_before_round, c.first_attempt_at, c.target_id, t.kind, t.public_id AS target_public_id, t.failing_since,
           e.public_id AS event_public_id, e.type, e.version, e.payload, e.created_at AS event_created_at
    FROM claimed c JOIN event_targets t ON t.id = c.target_id JOIN events e ON e.id = c.event_id
    ORDER BY e.id`;
}

export async function claimDueDeliveries(db: Executor, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const { rows } = await claimDueDeliveriesStatement(request).execute(db);
  return rows;
}

/** What one attempt found out, as the log shows it. */
export interface AttemptRecord {
  attempts: number;
  startedAt: Date;
  status: number | null;
  body: string | null;
  latencyMs: number;
  error: string | null;
}

const attemptColumns = (a: AttemptRecord) => ({
  attempts: a.attempts,
  first_attempt_at: sql<Date>`coalesce(first_attempt_at, ${a.startedAt}::timestamptz)`,
  last_attempt_at: a.startedAt,
  response_status: a.status,
  response_body: a.body,
  latency_ms: a.latencyMs,
  last_error: a.error,
  claim: null,
});

/**
 * Marks deliveries done whoever holds them now (sent is sent), unless they
 * were cancelled meanwhile: one statement for a target's share of a batch,
 * planned at each run and reaching each delivery by its primary key, like the claim.
 * The last failure's reason stays: the log says why it took more than one attempt.
 */
export async function markDeliveriesSucceeded(db: Executor, done: { id: number; attempt: AttemptRecord }[]): Promise<void> {
  const rows = done.map(({ id, attempt: a }) => ({
    id,
    attempts: a.attempts,
    at: a.startedAt.toISOString(),
    status: a.status,
    body: a.body,
    latency: a.latencyMs,
  }));
  await eachBatchAsRecords(
    db,
    rows,
    'id bigint, attempts int, at timestamptz, status int, body text, latency int',
    (records) => sql`${sql.raw(PLANNED_EACH_RUN)}
      WITH v AS MATERIALIZED (SELECT * FROM ${records}),
      locked AS (
        SELECT d.id FROM (SELECT id FROM v ORDER BY id) v
        CROSS JOIN LATERAL (SELECT d.id FROM event_deliveries d WHERE d.id = v.id AND d.state = 'PENDING' FOR UPDATE) d
      )
      UPDATE event_deliveries d SET state = 'SUCCEEDED', attempts = v.attempts, delivered_at = v.at,
        first_attempt_at = coalesce(d.first_attempt_at, v.at), last_attempt_at = v.at, response_status = v.status,
        response_body = v.body, latency_ms = v.latency, claim = NULL
      FROM v WHERE d.id = v.id AND d.id IN (SELECT id FROM locked)`,
  );
}

/** A delivery first written after its event was read from the stream: sent (with its attempt), or held back untried. */
export interface FirstDelivery {
  eventId: number;
  orderingKey: string;
  eventCreatedAt: Date;
  /** Absent: held back, due at once (it waits behind an earlier delivery of its ordering key). */
  attempt?: AttemptRecord & { ok: boolean };
  /** After a failed attempt: when to try again (null: never). */
  retryAt?: Date | null;
}

/**
 * Writes the deliveries of a target's stream batch, once each: SUCCEEDED,
 * PENDING (a failure to retry, or a delivery held back untried) or FAILED.
 * Their `created_at` is their event's, as for every delivery the log lists.
 */
export async function insertFirstDeliveries(db: Executor, targetId: number, deliveries: FirstDelivery[], now: Date): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto('event_deliveries')
    .values(
      deliveries.map(({ eventId, orderingKey, eventCreatedAt, attempt, retryAt }) => {
        const state = !attempt ? 'PENDING' : attempt.ok ? 'SUCCEEDED' : retryAt ? 'PENDING' : 'FAILED';
        return {
          event_id: eventId,
          target_id: targetId,
          ordering_key: orderingKey,
          state,
          attempts: attempt?.attempts ?? 0,
          next_attempt_at: (attempt && !attempt.ok && retryAt) || now,
          first_attempt_at: attempt?.startedAt ?? null,
          last_attempt_at: attempt?.startedAt ?? null,
          response_status: attempt?.status ?? null,
          response_body: attempt?.body ?? null,
          latency_ms: attempt?.latencyMs ?? null,
          last_error: attempt?.error ?? null,
          delivered_at: attempt?.ok ? attempt.startedAt : null,
          created_at: eventCreatedAt,
        };
      }),
    )
    .execute();
}

/** Which of these ordering keys have a delivery still PENDING for the target (their later events wait behind it). */
export async function pendingOrderingKeys(db: Executor, targetId: number, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('event_deliveries')
    .select('ordering_key')
    .distinct()
    .where('target_id', '=', targetId)
    .where('ordering_key', 'in', keys)
    .where('state', '=', 'PENDING')
    .execute();
  return new Set(rows.map((row) => row.ordering_key));
}

/**
 * Records a failed attempt and when to try again (`null`: never, the retry
 * window is over), only while `claim` still holds the delivery: a worker
 * whose lease lapsed must not push back one another worker is sending.
 */
export async function recordDeliveryFailure(db: Executor, id: number, claim: string, attempt: AttemptRecord, retryAt: Date | null) {
  await db
    .updateTable('event_deliveries')
    .set({ ...attemptColumns(attempt), ...(retryAt ? { next_attempt_at: retryAt } : { state: 'FAILED' }) })
    .where('id', '=', id)
    .where('claim', '=', claim)
    .where('state', '=', 'PENDING')
    .execute();
}

/**
 * Hands back what `claim` holds for one target and did not send, due at
 * `now`. One target's only: a claim spans several targets, and the others'
 * shares may still be sending under it (released, they would be claimed and
 * sent again).
 */
export async function releaseTargetClaim(db: Executor, targetId: number, claim: string, now: Date): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({ claim: null, next_attempt_at: now })
    .where(lockedInOrder((eb) => eb.and([eb('target_id', '=', targetId), eb('claim', '=', claim), eb('state', '=', 'PENDING')])))
    .execute();
}

/** A resumed target's waiting deliveries are due at once (their backoff was for the receiver that was down). */
export async function deliverPendingNow(db: Executor, targetId: number, now: Date): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({ next_attempt_at: now })
    .where(
      lockedInOrder((eb) =>
        eb.and([eb('target_id', '=', targetId), eb('state', '=', 'PENDING'), eb('claim', 'is', null), eb('next_attempt_at', '>', now)]),
      ),
    )
    .execute();
}

/** A deleted target's waiting deliveries will never go out. */
export async function cancelPendingDeliveries(db: Executor, targetId: number): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({ state: 'CANCELLED', claim: null })
    .where(lockedInOrder((eb) => eb.and([eb('target_id', '=', targetId), eb('state', '=', 'PENDING')])))
    .execute();
}

/**
 * Cancels, in a batch, waiting deliveries of deleted targets: those a
 * dispatcher's batch (a failure's retry, what waits behind it) committed
 * after the deletion had cancelled the ones it could see.
 * One being sent under a live claim is left to finish (its mark records
 * what happened); a row another statement holds locked, to the next run.
 */
export async function cancelOrphanedDeliveries(db: Executor, batchSize: number, now: Date): Promise<number> {
  const result = await db
    .updateTable('event_deliveries')
    .set({ state: 'CANCELLED', claim: null })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('event_deliveries as d')
        .innerJoin('event_targets as t', 't.id', 'd.target_id')
        .select('d.id')
        .where('t.deleted_at', 'is not', null)
        .where('d.state', '=', 'PENDING')
        .where((eb) => eb.or([eb('d.claim', 'is', null), eb('d.next_attempt_at', '<=', now)]))
        .limit(batchSize)
        .forUpdate('d')
        .skipLocked(),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Sends one delivery again, from a new round of retries, with the same
 * webhook-id. One being sent right now is left to finish (and returned as is).
 */
export function redeliverOne(db: Executor, targetId: number, publicId: string, now: Date) {
  return db
    .updateTable('event_deliveries')
    .set({
      state: 'PENDING',
      next_attempt_at: now,
      first_attempt_at: null,
      attempts_before_round: sql`attempts`,
      delivered_at: null,
      claim: null,
    })
    .where('target_id', '=', targetId)
    .where('public_id', '=', publicId)
    .where((eb) => eb.or([eb('state', '<>', 'PENDING'), eb('claim', 'is', null)]))
    .returning('id')
    .executeTakeFirst();
}

/** Every delivery of the target that gave up (FAILED) for an event at or after `since`, due again now; returns how many. */
export async function redeliverFailedSince(db: Executor, targetId: number, since: Date, now: Date): Promise<number> {
  const result = await db
    .updateTable('event_deliveries')
    .set({ state: 'PENDING', next_attempt_at: now, first_attempt_at: null, attempts_before_round: sql`attempts`, claim: null })
    .where(lockedInOrder((eb) => eb.and([eb('target_id', '=', targetId), eb('state', '=', 'FAILED'), eb('created_at', '>=', since)])))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Finished deliveries (sent, given up, cancelled) are deleted in batches once older than the retention. */
export async function deleteFinishedDeliveries(db: Executor, createdBefore: Date, batchSize: number): Promise<number> {
  const result = await db
    .deleteFrom('event_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('event_deliveries')
        .select('id')
        .where('state', '<>', 'PENDING')
        .where('created_at', '<', createdBefore)
        .orderBy('created_at')
        .limit(batchSize),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The backlog for metrics: deliveries waiting for active targets (of one
 * kind), PENDING or not yet read from the stream, and the age in seconds of
 * the oldest (0 when none).
 */
export async function deliveryBacklog(db: Executor, kind: TargetKind): Promise<{ pending: number; age: number }> {
  const { rows } = await sql<{ pending: number; oldest: Date | null; now: Date }>`
    SELECT count(*)::int AS pending, min(d.created_at) AS oldest, now() AS now
    FROM event_deliveries d JOIN event_targets t ON t.id = d.target_id
    WHERE d.state = 'PENDING' AND t.status = 'ACTIVE' AND t.deleted_at IS NULL AND t.kind = ${kind}`.execute(db);
  const unread = await unreadEvents(db, kind);
  const oldest = [rows[0]?.oldest, unread.oldest].filter((at): at is Date => !!at).sort((a, b) => a.getTime() - b.getTime())[0];
  return {
    pending: (rows[0]?.pending ?? 0) + unread.count,
    age: oldest && rows[0] ? Math.max(0, (rows[0].now.getTime() - oldest.getTime()) / 1000) : 0,
  };
}

export type { DeliveryState };
