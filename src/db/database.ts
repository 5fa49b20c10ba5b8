import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { Database } from './schema.js';

// COUNT(*) and identity keys are int8; they stay far below 2^53, so numbers are safe.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// NUMERIC (money) stays a string: exact decimals never pass through floating point.
// DATE stays the text PostgreSQL sends (YYYY-MM-DD), never shifted by a time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Data functions accept either the pool or an open transaction as their first argument. */
export type Executor = Db | Trx;

/** `onQuery` sees every executed statement (tests count them to catch N+1 queries). */
export function createDb(connectionString: string, poolSize: number, onQuery?: (sql: string, parameters: readonly unknown[]) => void): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery ? { log: (event) => onQuery(event.query.sql, event.query.parameters) } : {}),
  });
}
