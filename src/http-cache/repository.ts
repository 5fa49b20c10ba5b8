import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/**
 * SQL of `catalog_version` and `cache_targets`, their one owner (migration
 * 0018). The version is written only by the database's own trigger; the
 * service reads it.
 */

/**
 * The version as a column of another query: read in the same statement as a
 * public read's data, it is the version of exactly what that statement saw.
 */
export const catalogVersionColumn = sql<number>`(SELECT version FROM catalog_version)`;

export async function readCatalogVersion(db: Executor): Promise<number> {
  const row = await db.selectFrom('catalog_version').select('version').executeTakeFirstOrThrow();
  return row.version;
}

/** The cache targets that exist now (live), with their URLs. */
export function liveCacheTargets(db: Executor) {
  return db
    .selectFrom('event_targets as t')
    .innerJoin('cache_targets as c', 'c.target_id', 't.id')
    .select(['t.id', 't.public_id', 't.status', 'c.url'])
    .where('t.kind', '=', 'cache')
    .where('t.deleted_at', 'is', null)
    .orderBy('t.id')
    .forNoKeyUpdate()
    .execute();
}

export async function insertCacheTarget(db: Executor, targetId: number, url: string): Promise<void> {
  await db.insertInto('cache_targets').values({ target_id: targetId, url }).execute();
}

export function cacheDestinations(db: Executor, targetIds: number[]) {
  return db
    .selectFrom('cache_targets')
    .select(['target_id', 'url'])
    .where('target_id', 'in', targetIds.length > 0 ? targetIds : [-1])
    .execute();
}

/** Serialises the start-up sync of several instances (a transaction-scoped advisory lock). */
export async function lockCacheTargetSync(db: Executor): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('cache_targets.sync'))`.execute(db);
}
