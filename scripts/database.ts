import { loadConfig, type Config } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { buildConcurrentIndexes, type IndexBuilds } from '../src/db/concurrent-indexes.js';
import { CONCURRENT_INDEXES, migrateToLatest } from '../src/db/migrate.js';
import { assertNamedStatementsKept, NamedStatementsRefusedError } from '../src/db/named-statements.js';

/** The database a command works on, as an operator can check it: a URL without its password, or the embedded server's directory. */
export function databaseTarget(config: Config): string {
  const url = config.migrationDatabaseUrl ?? config.databaseUrl;
  if (!url) return `the embedded PostgreSQL under ${config.dataDir} (DATA_DIR)`;
  try {
    const shown = new URL(url);
    shown.password = '';
    return shown.href;
  } catch {
    return 'the database in DATABASE_URL';
  }
}

/**
 * For CLI commands: the configured database, or the embedded one under
 * DATA_DIR (reusing the service's server when it is running), migrated
 * (through MIGRATION_DATABASE_URL when it is set), the migrations' concurrent indexes built.
 * `close` releases the pool and stops the server only if this process started it. A command that
 * only migrates (`pool: false`) never uses the pool, so DATABASE_URL is not checked for it. `config`:
 * the configuration the caller loaded already.
 */
export async function openDatabase(
  options: { pool: boolean; config?: Config } = { pool: true },
): Promise<{ config: Config; db: Db; applied: string[]; indexes: IndexBuilds; close(): Promise<void> }> {
  const config = options.config ?? loadConfig();
  const server = config.databaseUrl ? { url: config.databaseUrl, stop: async () => {} } : await startEmbeddedDatabase(config.dataDir);
  const applied = await migrateToLatest(config.migrationDatabaseUrl ?? server.url, {
    lockTimeoutMs: config.migrationLockTimeoutMs,
    onRetry: (attempt, error) => console.error(`Attempt ${attempt}: ${error.message}; trying again.`),
  });
  const indexes = await buildConcurrentIndexes(config.migrationDatabaseUrl ?? server.url, CONCURRENT_INDEXES);
  for (const { name, error } of indexes.failed) console.error(`Index ${name} was not built (${error.message}); the next run tries again.`);
  // Behind a pooler that does not keep named statements the command would fail on its first query,
  // with PostgreSQL's words only: the same check as the service's start, and the setting named.
  if (options.pool && config.dbNamedStatements && config.databaseUrl) {
    await assertNamedStatementsKept(server.url).catch((error: unknown) => {
      if (!(error instanceof NamedStatementsRefusedError)) throw error;
      console.error(error.message);
      process.exit(1);
    });
  }
  const db = createDb(server.url, 4, { namedStatements: config.dbNamedStatements });
  return {
    config,
    db,
    applied,
    indexes,
    async close() {
      await db.destroy();
      await server.stop();
    },
  };
}
