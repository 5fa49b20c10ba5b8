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

/**
 * Statements are prepared once per connection and reused. Planning a
 * statement costs PostgreSQL as much as running it for the short queries an
 * API makes (measured in bench/NOTES.md); a named statement is parsed once and,
 * after five runs, runs on a cached plan when that plan is no worse than a
 * fresh one (plan_cache_mode = auto). Scripts are never named (they may hold
 * several commands, which a prepared statement cannot; see preparable), and
 * at most MAX_NAMED texts are, so the statements each
 * server connection keeps stay bounded whatever SQL the service builds.
 */
const MAX_NAMED = 1000;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED) {
    name = `s${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A statement with parameters, or a single query (SELECT or WITH, no `;`)
 * without them: a page whose limit, offset and filters are all literals still
 * deserves its cached plan. Scripts (migrations, seeds) are left alone.
 */
const SINGLE_QUERY = /^\s*(select|with)\b[^;]*$/i;
const preparable = (text: string, values: unknown) => (Array.isArray(values) && values.length > 0) || SINGLE_QUERY.test(text);

function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof config === 'string' && preparable(config, values) ? statementName(config) : undefined;
    return name ? query({ name, text: config, values }, callback) : query(config, values, callback);
  }) as typeof client.query;
}

/** `onQuery` sees every executed statement (tests count them to catch N+1 queries). */
export function createDb(connectionString: string, poolSize: number, onQuery?: (sql: string, parameters: readonly unknown[]) => void): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', prepareStatements);
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery ? { log: (event) => onQuery(event.query.sql, event.query.parameters) } : {}),
  });
}
