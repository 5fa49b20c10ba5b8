import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** SQL of `idempotency_keys`, their one owner (the rules are in idempotency.ts). */

/** Forgets the account's key when it was claimed before `before` (24 hours ago). */
export async function forgetStaleKey(db: Executor, userId: number, key: string, before: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('created_at', '<', before).execute();
}

/**
 * Claims the key in the caller's transaction; false when another request
 * holds it (a concurrent claim waits here until that one commits or rolls back).
 */
export async function claimKey(db: Executor, userId: number, key: string, fingerprint: string, now: Date): Promise<boolean> {
  const claimed = await db
    .insertInto('idempotency_keys')
    // Dated by the service's clock, which decides when a key is stale (forgetStaleKey, the pruner).
    .values({ user_id: userId, key, fingerprint, status_code: 0, response: 'null', created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The first request's fingerprint and answer. */
export function findKey(db: Executor, userId: number, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
}

/** Stores the answer to replay. */
export async function storeResponse(db: Executor, userId: number, key: string, status: number, data: unknown): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: status, response: JSON.stringify(data) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

/** Deletes up to `batchSize` keys claimed before `before` (past their replay window), oldest first; how many went. */
export async function deleteExpiredKeys(db: Executor, before: Date, batchSize: number): Promise<number> {
  const oldest = db
    .selectFrom('idempotency_keys')
    .select(['user_id', 'key'])
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(batchSize);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where(sql<boolean>`(user_id, key) IN (${oldest})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the keys' age index (migration 0029, built concurrently) exists and can be used. */
export async function keyAgesIndexed(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ valid: boolean }>`
    SELECT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('idempotency_keys_by_age')), false) AS valid
  `.execute(db);
  return rows[0]?.valid === true;
}
