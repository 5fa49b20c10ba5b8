import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { createDb } from './db/database.js';
import type { RunningDatabase } from './db/embedded.js';
import { migrateToLatest } from './db/migrate.js';
import { createLogger } from './lib/logger.js';
import { installShutdown } from './lib/shutdown.js';

/**
 * `npm start`: config, database (embedded unless DATABASE_URL), migrations,
 * HTTP. SIGTERM and SIGINT drain: stop accepting, finish the requests in
 * flight (within SHUTDOWN_GRACE_MS), let the email worker finish, close the
 * pool, then stop the embedded server if this process runs it.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config);
  const shutdown = installShutdown({ graceMs: config.shutdownGraceMs, log });

  let database: RunningDatabase;
  if (config.databaseUrl) {
    database = { url: config.databaseUrl, stop: async () => {} };
  } else {
    // Loaded only when used: the embedded server's package is no part of a service on an external database.
    const { startEmbeddedDatabase } = await import('./db/embedded.js');
    database = await startEmbeddedDatabase(config.dataDir, { supervise: true, log: log.child({ component: 'embedded-postgres' }) });
    log.info({ dataDir: config.dataDir }, 'using embedded PostgreSQL');
  }
  shutdown.add('database', () => database.stop());

  const db = createDb(database.url, config.dbPoolSize, {
    onConnectionError: (error) => log.warn({ err: error }, 'database connection lost; it is discarded'),
  });
  shutdown.add('pool', (deadline) =>
    // Past the grace period nothing waits for a client still checked out; exiting rolls its transaction back.
    Promise.race([db.destroy(), expiresAt(deadline, 'the pool still had connections in use at the end of the grace period')]),
  );
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');

  const app = await buildApp({ config, db, log });
  shutdown.add('http', async (deadline) => {
    // Requests in flight finish. A keep-alive connection whose request finishes during the drain
    // would otherwise stay open until its keep-alive timeout: idle ones are closed as they appear.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    // Past the grace period the connections still open are cut.
    const cut = setTimeout(() => {
      log.warn('grace period over; closing the connections still open');
      app.server.closeAllConnections();
    }, Math.max(0, deadline - Date.now()));
    try {
      await app.close(); // stops accepting, waits for in-flight requests, then stops the email worker
    } finally {
      clearInterval(idle);
      clearTimeout(cut);
    }
  });
  await app.listen({ port: config.port, host: config.host });
}

/** Rejects once `deadline` has passed (at least a second from now, so a late step still gets a moment). */
function expiresAt(deadline: number, message: string): Promise<never> {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(message)), Math.max(1000, deadline - Date.now())).unref());
}

main().catch((error: unknown) => {
  console.error('start-up failed:', error);
  process.exit(1);
});
