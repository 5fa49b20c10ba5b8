import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Shutdown } from '../lib/shutdown.js';
import { createDb, type Db } from './database.js';
import type { RunningDatabase } from './embedded.js';
import { buildConcurrentIndexes } from './concurrent-indexes.js';
import { CONCURRENT_INDEXES, MIGRATION_NAMES, migrateToLatest } from './migrate.js';
import { assertNamedStatementsKept } from './named-statements.js';
import { assertNotNewer, readSchemaState, schemaIsCurrent, watchSchema, type SchemaGate } from './schema-state.js';
import { assertSupportedServer } from './server-version.js';

/** How often an instance waiting for `npm run db:migrate` looks at the schema again. */
const SCHEMA_POLL_MS = 1000;

/**
 * A long-running process's database (the API, the standalone email worker):
 * DATABASE_URL, or the supervised embedded server under DATA_DIR; the pool;
 * pending migrations applied (MIGRATE_ON_START, through MIGRATION_DATABASE_URL
 * when set), or else the schema checked against the code: a newer one stops
 * the start, an older one is watched until it is migrated (`schema`). Both are
 * closed at shutdown, the pool never waiting past the grace period (exiting
 * rolls back what a cut request left open).
 */
export async function connectDatabase(
  config: Config,
  log: Logger,
  shutdown: Shutdown,
  onConnectionLost: () => void = () => {},
): Promise<{ db: Db; schema: SchemaGate }> {
  let database: RunningDatabase;
  if (config.databaseUrl) {
    database = { url: config.databaseUrl, stop: async () => {} };
  } else {
    // Loaded only when used: the embedded server's code is no part of a service on an external database.
    const { startEmbeddedDatabase } = await import('./embedded.js');
    database = await startEmbeddedDatabase(config.dataDir, { supervise: true, log: log.child({ component: 'embedded-postgres' }) });
    log.info({ dataDir: config.dataDir }, 'using embedded PostgreSQL');
  }
  shutdown.add('database', () => database.stop());

  // An external URL may be a pooler's; the embedded server is always reached directly.
  if (config.dbNamedStatements && config.databaseUrl) {
    const check = await assertNamedStatementsKept(database.url);
    if (check === 'unknown')
      log.warn('could not check that DATABASE_URL keeps named statements (the pooler gave no second connection in time)');
  }
  let refusalSeen = false;
  const db = createDb(database.url, config.dbPoolSize, {
    namedStatements: config.dbNamedStatements,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    onNamedStatementRefused: (error) => {
      if (refusalSeen) return;
      refusalSeen = true;
      log.error(
        { err: error },
        'a named statement was refused: the pooler at DATABASE_URL does not keep them; set DB_NAMED_STATEMENTS=false',
      );
    },
    onConnectionError: (error) => {
      onConnectionLost();
      log.warn({ err: connectionErrorOf(error) }, 'database connection lost; it is discarded');
    },
  });
  shutdown.add('pool', (deadline) =>
    Promise.race([db.destroy(), expiresAt(deadline, 'the pool still had connections in use at the end of the grace period')]),
  );

  if (config.migrateOnStart) {
    const applied = await migrateToLatest(config.migrationDatabaseUrl ?? database.url, {
      lockTimeoutMs: config.migrationLockTimeoutMs,
      onRetry: (attempt, error) => log.warn({ err: error, attempt }, 'a migration waited too long for a table lock; trying again'),
    });
    if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
    buildIndexesInBackground(config.migrationDatabaseUrl ?? database.url, log, shutdown);
    return { db, schema: schemaIsCurrent };
  }
  await assertSupportedServer(db);
  const state = await readSchemaState(db, MIGRATION_NAMES);
  assertNotNewer(state);
  const schema = watchSchema(db, state, { expected: MIGRATION_NAMES, intervalMs: SCHEMA_POLL_MS, log });
  shutdown.add('schema watch', async () => schema.stop());
  return { db, schema };
}

/** Rejects once `deadline` has passed (at least a second from now, so a late step still gets a moment). */
function expiresAt(deadline: number, message: string): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(message)), Math.max(1000, deadline - Date.now())).unref());
}

/**
 * What a lost connection's log line keeps of its error: the server's code and words, never what
 * the driver hangs on it (pg-pool attaches the client, connection parameters and password included).
 */
function connectionErrorOf(error: Error & { code?: string }): { type: string; message: string; code?: string; stack?: string } {
  return {
    type: error.name,
    message: error.message,
    ...(error.code ? { code: error.code } : {}),
    ...(error.stack ? { stack: error.stack } : {}),
  };
}

/**
 * The migrations' concurrent indexes (concurrent-indexes.ts), built while the instance serves: a
 * build on a large table can take minutes, and the service works without the index meanwhile, only
 * slower. Each start tries again what is missing; shutdown cancels a build in flight.
 */
function buildIndexesInBackground(url: string, log: Logger, shutdown: Shutdown): void {
  const stop = new AbortController();
  const done = buildConcurrentIndexes(url, CONCURRENT_INDEXES, { signal: stop.signal }).then(({ built, failed }) => {
    if (built.length > 0) log.info({ indexes: built }, 'built indexes concurrently');
    for (const { name, error } of failed) log.warn({ err: error, index: name }, 'an index build failed; the next start tries again');
  });
  shutdown.add('index builds', (deadline) => {
    stop.abort();
    return Promise.race([done, expiresAt(deadline, 'an index build was still being cancelled at the end of the grace period')]);
  });
}
