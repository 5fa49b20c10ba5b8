import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The readiness probe's one statement: the database answers. */
export async function ping(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
