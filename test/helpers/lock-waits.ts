import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { waitFor } from './mail.js';

/**
 * Resolves once a backend of this test's database waits for a lock, in a
 * statement matching `query` (an ILIKE pattern) when given: the moment a race
 * test has put the other side where it wants it.
 */
export function someoneWaitsOnALock(db: Db, query = '%', timeoutMs = 10_000): Promise<true> {
  return waitFor(async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE ${query}`.execute(db);
    return rows[0]!.n > 0 || null;
  }, timeoutMs) as Promise<true>;
}
