import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { createDb } from './db/database.js';
import { startEmbeddedDatabase, type RunningDatabase } from './db/embedded.js';
import { migrateToLatest } from './db/migrate.js';

/** `npm start`: config, database (embedded unless DATABASE_URL), migrations, HTTP, graceful shutdown. */
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

  const database: RunningDatabase = config.databaseUrl
    ? { url: config.databaseUrl, stop: async () => {} }
    : await startEmbeddedDatabase(config.dataDir);
  const db = createDb(database.url, config.dbPoolSize);
  const applied = await migrateToLatest(db);

  const app = await buildApp({ config, db });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');
  if (!config.databaseUrl) app.log.info({ dataDir: config.dataDir }, 'using embedded PostgreSQL');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
      await db.destroy();
      await database.stop();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error('start-up failed:', error);
  process.exit(1);
});
