import type { Kysely } from 'kysely';
import { fanOut } from './0022-fan-out-waits-for-deletions.js';

/**
 * The fan-out stops locking the targets it picks, and a target's deletion
 * stops waiting for the fan-outs that picked it.
 *
 * Migration 0022 made a deletion take its target `FOR UPDATE`, conflicting
 * with the `FOR KEY SHARE` every fan-out takes on it. PostgreSQL lets a new
 * `KEY SHARE` locker past a waiting `FOR UPDATE` while other `KEY SHARE`
 * holders remain, so under steady checkout load the lock is never free and a
 * deletion could wait without end, holding the endpoint's row (and, at a
 * start, the cache-target sync's advisory lock) all the while. A deletion
 * now takes no lock a fan-out holds: what a fan-out still commits for a
 * target deleted meanwhile is not claimed once the deletion has committed
 * (claims skip deleted targets), and the pruner cancels it
 * (`cancelOrphanedDeliveries`), so the event it holds ages out as usual.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await fanOut(false).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await fanOut(true).execute(db);
}
