import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createDb } from './db/database.js';

/**
 * The OpenAPI document exactly as the running service serves it at
 * /openapi.json, built without a server or a database: the app is assembled
 * over a pool that never connects (nothing queries while routes register),
 * made ready, asked for its document and closed before any worker runs.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    PRUNE_INTERVAL: '0',
    DATABASE_URL: 'postgres://offline@127.0.0.1:1/offline',
  });
  const db = createDb(config.databaseUrl!, 1);
  const app = await buildApp({ config, db });
  try {
    await app.ready();
    return structuredClone(app.swagger()) as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await db.destroy();
  }
}
