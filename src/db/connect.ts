import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Shutdown } from '../lib/shutdown.js';
import { createDb, type Db } from './database.js';
import type { RunningDatabase } from './embedded.js';
import { migrateToLatest } from './migrate.js';

/**
 * A long-running process's database (the API, the standalone email worker):
 * DATABASE_URL, or the supervised embedded server under DATA_DIR; the pool;
 * pending migrations applied. Both are closed at shutdown, the pool never
 * waiting past the grace period (exiting rolls back what a cut request left open).
 */
export async function connectDatabase(
  config: Config,
  log: Logger,
  shutdown: Shutdown,
  onConnectionLost: () => void = () => {},
): Promise<Db> {
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

  const db = createDb(database.url, config.dbPoolSize, {
    onConnectionError: (error) => {
      onConnectionLost();
      log.warn({ err: error }, 'database connection lost; it is discarded');
    },
  });
  shutdown.add('pool', (deadline) =>
    Promise.race([db.destroy(), expiresAt(deadline, 'the pool still had connections in use at the end of the grace period')]),
  );
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
  return db;
}

/** Rejects once `deadline` has passed (at least a second from now, so a late step still gets a moment). */
function expiresAt(deadline: number, message: string): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(message)), Math.max(1000, deadline - Date.now())).unref());
}
