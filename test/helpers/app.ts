import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import type { Clock } from '../../src/lib/clock.js';
import { createMetrics, type Metrics } from '../../src/metrics/metrics.js';
import { Client } from './client.js';
import { checkResponsesAgainstDocument } from './openapi-responses.js';
import { createTestDatabase, type TestDatabase } from './service.js';

/** A clock tests can move forward to reach expiries. */
export class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: TestClock;
  baseUrl: string;
  /** Every SQL statement the app has run, in order (tests count them to catch N+1 queries). */
  queries: string[];
  /** The same statements with their parameters (for EXPLAIN in the query-plan test). */
  statements: { sql: string; parameters: readonly unknown[] }[];
  /** A fresh HTTP client with its own cookie jar. */
  client(): Client;
  /** The app's Prometheus metrics (only with `metrics: true`). */
  metrics?: Metrics;
  close(): Promise<void>;
}

/** A running app as tests and helpers use it (closing it is its owner's business: startTestApp's caller or useApp). */
export type RunningApp = Omit<TestApp, 'close'>;

/** What the data factories need from a running service: an in-process TestApp or a real process (helpers/service.ts). */
export type TestTarget = Pick<TestApp, 'db' | 'config' | 'baseUrl' | 'client'>;

/**
 * Boots the real application on a real port, over a database of its own
 * cloned from the migrated template that scripts/test.ts prepared, or over
 * `options.database` (several instances on one database; its owner drops it).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { setup?: (app: FastifyInstance) => void; database?: TestDatabase; metrics?: boolean } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'commerce-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PASSWORD_HASH_COST: '10',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DB_POOL_SIZE: '30',
    // Tests run the pruner themselves (app.pruner.runOnce()), so a moved clock never prunes behind their back.
    PRUNE_INTERVAL: '0',
    ...env,
  });
  const queries: string[] = [];
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = createDb(database.url, config.dbPoolSize, {
    onQuery: (statement, parameters) => {
      queries.push(statement);
      statements.push({ sql: statement, parameters });
    },
  });
  const clock = new TestClock();
  const metrics = options.metrics ? createMetrics({ db, clock }) : undefined;
  const app = await buildApp({ config, db, clock, ...(metrics ? { metrics } : {}) });
  // Every response the test receives must be what the OpenAPI document says it is (see the helper).
  const responses = checkResponsesAgainstDocument(app);
  options.setup?.(app);
  // A fixed PORT lets a test make PUBLIC_BASE_URL the app's own address (upload endpoints are absolute URLs).
  await app.listen({ port: Number(env.PORT ?? 0), host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    app,
    db,
    config,
    clock,
    baseUrl,
    queries,
    statements,
    client: () => new Client(baseUrl),
    ...(metrics ? { metrics } : {}),
    async close() {
      await app.close();
      await db.destroy();
      if (!options.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
      const drift = [...new Set(responses.problems)];
      if (drift.length > 0) throw new Error(`${drift.length} responses did not match the OpenAPI document:\n${drift.join('\n')}`);
    },
  };
}
