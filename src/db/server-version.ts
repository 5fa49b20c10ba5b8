import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * The oldest PostgreSQL the service is tested on: the suite passes on 15 (Debian 12's server) but for
 * the query-plan tests, whose plans are 18's (the embedded server). Anything older was never tried, so
 * it is refused up front with a clear message rather than failing halfway through a migration.
 */
export const MINIMUM_POSTGRES_MAJOR = 15;

export class UnsupportedServerError extends Error {
  constructor(version: string) {
    super(`PostgreSQL ${version} is not supported: the service needs PostgreSQL ${MINIMUM_POSTGRES_MAJOR} or later`);
    this.name = 'UnsupportedServerError';
  }
}

/** `server_version_num` (e.g. 150018) to its major version (15); PostgreSQL 10+ numbers are major * 10000 + minor. */
export function majorOf(versionNum: number): number {
  return Math.floor(versionNum / 10_000);
}

export function checkServerVersion(versionNum: number, version: string): void {
  if (!Number.isInteger(versionNum) || majorOf(versionNum) < MINIMUM_POSTGRES_MAJOR) throw new UnsupportedServerError(version);
}

export async function assertSupportedServer(db: Db): Promise<void> {
  const { rows } = await sql<{ num: string; version: string }>`
    SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS version`.execute(db);
  const row = rows[0]!;
  checkServerVersion(Number(row.num), row.version);
}
