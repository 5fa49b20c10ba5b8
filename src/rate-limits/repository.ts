import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** SQL of `rate_limits`, their one owner (the limiter is limiter.ts): fixed-window counters, one row per name and key. */

/**
 * Counts one event in a single upsert (safe under concurrency): a window
 * that started at or before `windowStart` restarts at 1 from `at`, otherwise
 * it counts up. Returns the count and when its window started.
 */
export function countEvent(db: Executor, name: string, key: string, at: Date, windowStart: Date) {
  return db
    .insertInto('rate_limits')
    .values({ name, key, window_started_at: at, hits: 1 })
    .onConflict((oc) =>
      oc.columns(['name', 'key']).doUpdateSet({
        hits: sql`CASE WHEN rate_limits.window_started_at <= ${windowStart} THEN 1 ELSE rate_limits.hits + 1 END`,
        window_started_at: sql`CASE WHEN rate_limits.window_started_at <= ${windowStart} THEN ${at} ELSE rate_limits.window_started_at END`,
      }),
    )
    .returning(['hits', 'window_started_at'])
    .executeTakeFirstOrThrow();
}

export async function deleteCounter(db: Executor, name: string, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('name', '=', name).where('key', '=', key).execute();
}

/** Takes one event back (never below zero). */
export async function uncountEvent(db: Executor, name: string, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('name', '=', name)
    .where('key', '=', key)
    .where('hits', '>', 0)
    .execute();
}
