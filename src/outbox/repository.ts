import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/database.js';
import { keyIn } from '../lib/sql.js';
import type { EmailKind, EmailPayloads } from './emails.js';

/**
 * SQL of the `outbox`, its one owner. Emails are queued here in the same
 * transaction as the change that causes them (contract section 13), so a
 * committed change always has its email and a rolled-back one never does.
 * The delivery worker (src/email/worker.ts) claims, leases and marks them
 * through the functions below.
 */
export async function enqueueEmail<K extends EmailKind>(
  db: Executor,
  kind: K,
  recipient: string,
  payload: EmailPayloads[K],
): Promise<void> {
  await db
    .insertInto('outbox')
    .values({ kind, recipient, payload: JSON.stringify(payload) })
    .execute();
}

/** A payload field: its value, or an SQL expression over the row source of the statement the email is queued in. */
type PayloadSource<P> = { [F in keyof P]: P[F] | RawBuilder<P[F]> };

/**
 * enqueueEmail as one part of the caller's own statement (a data-modifying
 * CTE, so the email costs no round trip of its own): one message per row of
 * `from`, its payload fields either values or SQL over that row (a number
 * the same statement generates, say). Typed by template like enqueueEmail.
 */
export function queuedEmailFrom<K extends EmailKind>(
  kind: K,
  recipient: string,
  payload: PayloadSource<EmailPayloads[K]>,
  from: RawBuilder<unknown>,
) {
  const entries = Object.entries(payload) as [string, unknown][];
  const values = Object.fromEntries(entries.filter(([, value]) => !isSql(value)));
  const computed = entries.filter((entry): entry is [string, RawBuilder<unknown>] => isSql(entry[1]));
  const fields =
    computed.length === 0
      ? sql`'{}'::jsonb`
      : sql`jsonb_build_object(${sql.join(computed.map(([key, value]) => sql`${key}::text, ${value}`))})`;
  return sql`INSERT INTO outbox (kind, recipient, payload) SELECT ${kind}, ${recipient}, ${JSON.stringify(values)}::jsonb || ${fields} FROM ${from}`;
}

const isSql = (value: unknown): value is RawBuilder<unknown> => typeof value === 'object' && value !== null && 'toOperationNode' in value;

/**
 * Takes up to `limit` due messages nobody else holds (FOR UPDATE SKIP LOCKED)
 * under `claim`, hidden from other workers until `leaseEnd`: the longest due
 * first, in the order of `outbox_pending`, so the scan stops at the limit
 * whatever the backlog (ordered by ID, it read and sorted every due message).
 */
export function claimDueEmails(db: Executor, claim: string, now: Date, leaseEnd: Date, limit: number) {
  const due = db
    .selectFrom('outbox')
    .select('id')
    .where('delivered_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('outbox')
    .set({ next_attempt_at: leaseEnd, claim })
    .where(keyIn('id', due))
    .returning(['id', 'kind', 'recipient', 'payload', 'attempts'])
    .execute();
}

/**
 * Renews the lease on what the claim still holds of `ids` (its batch); returns the IDs it holds.
 * The batch's IDs reach its rows by primary key (`claim` has no index: the pending index would be read whole).
 */
export async function renewEmailLease(db: Executor, claim: string, ids: readonly number[], leaseEnd: Date): Promise<Set<number>> {
  const held = await db
    .updateTable('outbox')
    .set({ next_attempt_at: leaseEnd })
    .where('id', '=', (eb) => eb.fn.any(eb.val(ids)))
    .where('claim', '=', claim)
    .where('delivered_at', 'is', null)
    .returning('id')
    .execute();
  return new Set(held.map((row) => row.id));
}

/** Hands back what the claim holds of `ids` (its batch) and has not sent, due at `now`. */
export async function releaseEmailClaim(db: Executor, claim: string, ids: readonly number[], now: Date): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ next_attempt_at: now, claim: null })
    .where('id', '=', (eb) => eb.fn.any(eb.val(ids)))
    .where('claim', '=', claim)
    .where('delivered_at', 'is', null)
    .execute();
}

/**
 * Records a failed attempt and when to try again (`null`: never, the
 * attempts are used up), only while `claim` still holds the message.
 */
export async function recordEmailFailure(
  db: Executor,
  id: number,
  claim: string,
  attempts: number,
  retryAt: Date | null,
  error: string,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ attempts, next_attempt_at: retryAt ?? sql<Date>`'infinity'::timestamptz`, last_error: error.slice(0, 500), claim: null })
    .where('id', '=', id)
    .where('claim', '=', claim)
    .where('delivered_at', 'is', null)
    .execute();
}

/** Marks a message delivered whoever holds it now (sent is sent), keeping `payload` (the token removed) for support. */
export async function markEmailDelivered(db: Executor, id: number, attempts: number, payload: object, now: Date): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ delivered_at: now, attempts, payload: JSON.stringify(payload), last_error: null, claim: null })
    .where('id', '=', id)
    .where('delivered_at', 'is', null)
    .execute();
}

/** Delivered messages are kept for support a while, then deleted in batches. */
export async function deleteDeliveredEmails(db: Executor, deliveredBefore: Date, batchSize: number): Promise<number> {
  const result = await db
    .deleteFrom('outbox')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('outbox')
        .select('id')
        .where('delivered_at', 'is not', null)
        .where('delivered_at', '<', deliveredBefore)
        .limit(batchSize),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The backlog for metrics: messages not yet delivered and the age in seconds of the oldest (0 when none). */
export async function emailBacklog(db: Executor): Promise<{ pending: number; age: number }> {
  const { rows } = await sql<{ pending: number; age: number | null }>`
    SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS age
    FROM outbox WHERE delivered_at IS NULL`.execute(db);
  return { pending: rows[0]?.pending ?? 0, age: rows[0]?.age ?? 0 };
}
