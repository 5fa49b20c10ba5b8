import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import { NAMED_STATEMENT_REFUSALS } from './named-statements.js';
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
 * Statements are prepared once per connection and reused: for an API's short
 * queries planning costs as much as running (bench finding 12). A named
 * statement is parsed once and, after five runs, runs on a cached plan when
 * that plan is no worse than a fresh one (plan_cache_mode = auto). Scripts are never named (they may hold
 * several commands, which a prepared statement cannot; see preparable), and
 * at most MAX_NAMED texts are, so the statements each
 * server connection keeps stay bounded whatever SQL the service builds.
 * Behind a pooler that does not keep prepared statements between
 * transactions, `namedStatements: false` (DB_NAMED_STATEMENTS=false) sends
 * every statement unnamed; bench/NOTES.md (finding 31) gives the cost.
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
 * Begins a statement that is planned afresh at every run, never from a cached
 * plan: one over a queue table, empty for hours and then holding thousands of
 * rows within seconds. Its cached plan is made while the table is empty, when
 * every plan costs nothing and a sequential scan wins, and is kept until an
 * ANALYZE of the table (bench/NOTES.md: a webhook claim took 66 ms a run on
 * one during the checkout bench). Planning such a statement costs about a
 * millisecond; it runs a few times a second at most.
 */
export const PLANNED_EACH_RUN = '/* planned each run */ ';

/**
 * A statement with parameters, or a single query (SELECT or WITH, no `;`)
 * without them: a page whose limit, offset and filters are all literals still
 * deserves its cached plan. Scripts (migrations, seeds) are left alone, and so
 * is a statement that asks to be planned at every run.
 */
const SINGLE_QUERY = /^\s*(select|with)\b[^;]*$/i;
const preparable = (text: string, values: unknown) =>
  !text.startsWith(PLANNED_EACH_RUN) && ((Array.isArray(values) && values.length > 0) || SINGLE_QUERY.test(text));

function prepareStatements(client: pg.PoolClient, onRefused: (error: Error) => void): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof config === 'string' && preparable(config, values) ? statementName(config) : undefined;
    if (!name) return query(config, values, callback);
    const result = query({ name, text: config, values }, callback);
    // Observed, not handled: the caller still gets the failure.
    if (result instanceof Promise)
      result.catch((error: Error & { code?: string }) => {
        if (error.code !== undefined && NAMED_STATEMENT_REFUSALS.has(error.code)) onRefused(error);
      });
    return result;
  }) as typeof client.query;
}

/**
 * A statement that gets no answer within `timeoutMs` cuts its connection: a frozen server or a
 * network path that drops packets closes nothing, and the request (and every one after it on that
 * connection) would wait for ever. Cut, the statement fails as a lost connection does (ETIMEDOUT:
 * 503 with Retry-After, src/lib/db-errors.ts), the client is discarded, and the next request gets a
 * fresh connection. Cursors (streamed exports) answer batch by batch and are not timed.
 */
function boundStatements(client: pg.PoolClient, timeoutMs: number): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    const timer = setTimeout(() => {
      const error = Object.assign(new Error(`the database gave no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
      (client as unknown as { connection?: { stream?: { destroy(error: Error): void } } }).connection?.stream?.destroy(error);
    }, timeoutMs);
    return result.finally(() => clearTimeout(timer));
  }) as typeof client.query;
}

export interface DbOptions {
  /**
   * false: every statement goes unnamed (parsed and planned each time), for a pooler that does not keep
   * prepared statements between transactions (PgBouncer before 1.21 in transaction mode). Default true.
   */
  namedStatements?: boolean;
  /** Sees every executed statement (tests count them to catch N+1 queries). */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /** Told when a named statement fails as it does behind a pooler that does not keep them (see named-statements.ts). */
  onNamedStatementRefused?: (error: Error) => void;
  /** Told when a pooled connection fails (the server ended it, the socket died); the connection is then discarded. */
  onConnectionError?: (error: Error) => void;
  /** Cut a connection whose statement has no answer this long (boundStatements); none when absent. */
  queryTimeoutMs?: number;
}

const pools = new WeakMap<Db, { pool: pg.Pool; max: number }>();

export function createDb(connectionString: string, poolSize: number, options: DbOptions = {}): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // pg-pool listens for errors on idle clients only. A client checked out by a request whose
  // connection the server ends (a failover, pg_terminate_backend, a restart) would emit an
  // unhandled 'error' and take the process down; every client gets a listener for its whole life.
  // Its pending query fails with the error, the request answers 503, and pg-pool discards the
  // client on release because it is no longer queryable.
  const connectionFailed = (error: Error) => options.onConnectionError?.(error);
  // pg-pool also re-emits an idle client's error here, with the client attached (its connection
  // parameters, password included): the client's own listener below has reported it already, once.
  pool.on('error', () => undefined);
  // Each open connection until its socket has closed, for closePool.
  const open = new Map<pg.PoolClient, Promise<void>>();
  pool.on('connect', (client) => {
    client.on('error', connectionFailed);
    open.set(
      client,
      new Promise<void>((resolve) => client.once('end', resolve)).then(() => void open.delete(client)),
    );
    if (options.namedStatements !== false) prepareStatements(client, (error) => options.onNamedStatementRefused?.(error));
    if (options.queryTimeoutMs !== undefined) boundStatements(client, options.queryTimeoutMs);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: { connect: () => pool.connect(), end: () => closePool(pool, open) } }),
    ...(options.onQuery ? { log: (event) => options.onQuery!(event.query.sql, event.query.parameters) } : {}),
  });
  pools.set(db, { pool, max: poolSize });
  return db;
}

/**
 * Ends the pool (`db.destroy()`) and resolves once every connection it had
 * is closed. pg-pool's own end resolves as soon as it has asked its idle
 * connections to close, while their goodbyes are still on the wire: a
 * server stopped right after (the embedded one, at shutdown) ends them first,
 * and each would be reported as a connection lost.
 */
async function closePool(pool: pg.Pool, open: ReadonlyMap<pg.PoolClient, Promise<void>>): Promise<void> {
  await pool.end();
  await Promise.all(open.values());
}

/** The connection counts of a Db's pool, for metrics. */
export function poolStats(db: Db): { total: number; idle: number; waiting: number; max: number } {
  const entry = pools.get(db);
  if (!entry) return { total: 0, idle: 0, waiting: 0, max: 0 };
  const { pool, max } = entry;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max };
}
