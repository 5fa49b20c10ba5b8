/**
 * What a test run shares between its files: one PostgreSQL with a migrated template database, the
 * builds that real-process and browser tests run, and one Chromium. Each is made once here rather
 * than by several files at the same time.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase, type RunningDatabase } from '../../src/db/embedded.js';
import { buildConcurrentIndexes } from '../../src/db/concurrent-indexes.js';
import { CONCURRENT_INDEXES, migrateToLatest } from '../../src/db/migrate.js';
import { buildServer, serverIsStale } from '../build.js';
import { buildConsole, consoleIsStale } from '../console-build.js';
import { buildStorefront, storefrontIsStale } from '../storefront-build.js';

const TEMPLATE = 'commerce_test_template';

export interface Shared {
  /** Environment the test files receive. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** One server for the run and a migrated template database the files clone. */
export async function prepareDatabase(): Promise<Shared> {
  let server: RunningDatabase;
  /** The directory of the server the runner started itself (none on TEST_DATABASE_URL). */
  let ownServerDir: string | null = null;
  if (process.env.TEST_DATABASE_URL) {
    server = { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  } else {
    ownServerDir = mkdtempSync(path.join(tmpdir(), 'commerce-test-'));
    chmodSync(ownServerDir, 0o755); // as root, PostgreSQL runs as its own system user and must reach it
    server = await startEmbeddedDatabase(ownServerDir, { database: 'postgres', scratch: true });
  }
  const stop = async () => {
    await server.stop();
    if (ownServerDir) rmSync(ownServerDir, { recursive: true, force: true });
  };
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();
    const templateUrl = new URL(server.url);
    templateUrl.pathname = `/${TEMPLATE}`;
    await migrateToLatest(templateUrl.toString());
    const { failed } = await buildConcurrentIndexes(templateUrl.toString(), CONCURRENT_INDEXES);
    if (failed.length > 0) throw new Error(`template: index ${failed[0]!.name} not built`, { cause: failed[0]!.error });
  } catch (error) {
    await stop();
    throw error;
  }
  // Copying the template's files beats writing it through the WAL only where nothing is fsynced: the runner's own scratch server.
  const clone: Record<string, string> = ownServerDir ? { TEST_CLONE_STRATEGY: 'FILE_COPY' } : {};
  return { env: { TEST_PG_ADMIN_URL: server.url, TEST_TEMPLATE_DB: TEMPLATE, ...clone }, stop };
}

/**
 * The compiled service (tests that start it through `npm start`), the console and the storefront
 * (browser tests), when stale. `npm start` builds the storefront too, so tests that go through it
 * (faults) get it here rather than from several files' prestart at the same time.
 */
export async function prepareBuilds(needs: { server: boolean; console: boolean; storefront: boolean }): Promise<void> {
  if (needs.server && serverIsStale()) await buildServer();
  if (needs.console && consoleIsStale()) await buildConsole();
  if (needs.storefront && storefrontIsStale()) await buildStorefront();
}

/**
 * One Chromium for every browser test file, reached over Playwright's protocol (BROWSER_WS_ENDPOINT):
 * starting a browser per file cost each file a second or two of two busy cores. Each test still gets
 * a fresh context (its own cookies, storage and viewport).
 */
export async function startSharedBrowser(): Promise<Shared> {
  const { launchBrowserServer } = await import('../../test/helpers/chromium.js');
  const server = await launchBrowserServer();
  return { env: { BROWSER_WS_ENDPOINT: server.wsEndpoint() }, stop: () => server.close() };
}
