import { loadConfig, type Config } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { migrateToLatest } from '../src/db/migrate.js';

/**
 * For CLI commands: the configured database, or the embedded one under
 * DATA_DIR (reusing the service's server when it is running), migrated
 * (through MIGRATION_DATABASE_URL when it is set).
 * `close` releases the pool and stops the server only if this process started it.
 */
export async function openDatabase(): Promise<{ config: Config; db: Db; applied: string[]; close(): Promise<void> }> {
  const config = loadConfig();
  const server = config.databaseUrl ? { url: config.databaseUrl, stop: async () => {} } : await startEmbeddedDatabase(config.dataDir);
  const applied = await migrateToLatest(config.migrationDatabaseUrl ?? server.url, {
    lockTimeoutMs: config.migrationLockTimeoutMs,
    onRetry: (attempt, error) => console.error(`Attempt ${attempt}: ${error.message}; trying again.`),
  });
  const db = createDb(server.url, 4, { namedStatements: config.dbNamedStatements });
  return {
    config,
    db,
    applied,
    async close() {
      await db.destroy();
      await server.stop();
    },
  };
}
