/**
 * `npm test`: one PostgreSQL for the whole run (embedded in a temporary
 * directory, or TEST_DATABASE_URL), a migrated template database, then every
 * test file under node:test. Each file clones the template into a database
 * of its own (CREATE DATABASE ... TEMPLATE), so files run in parallel.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase, type RunningDatabase } from '../src/db/embedded.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildServer, serverIsStale } from './build.js';
import { buildConsole, consoleIsStale } from './console-build.js';

const TEMPLATE = 'commerce_test_template';

function testFiles(dir: string, filter: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...testFiles(full, filter));
    else if (entry.endsWith('.test.ts') && (filter.length === 0 || filter.some((f) => full.includes(f)))) out.push(full);
  }
  return out.sort();
}

async function main(): Promise<number> {
  const filter = process.argv.slice(2);
  let server: RunningDatabase;
  let scratch: string | null = null;
  if (process.env.TEST_DATABASE_URL) {
    server = { url: process.env.TEST_DATABASE_URL, stop: async () => {} };
  } else {
    scratch = mkdtempSync(path.join(tmpdir(), 'commerce-test-'));
    chmodSync(scratch, 0o755); // as root, PostgreSQL runs as its own system user and must reach it
    server = await startEmbeddedDatabase(scratch, { database: 'postgres' });
  }
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();

    const templateUrl = new URL(server.url);
    templateUrl.pathname = `/${TEMPLATE}`;
    await migrateToLatest(templateUrl.toString());

    // The service's tests, then the client package's (run against the same real server).
    const files = [...testFiles(path.resolve('test'), filter), ...testFiles(path.resolve('packages/client/test'), filter)];
    // Tests that start the service through `npm start` run the compiled build; it is made once here,
    // not by several test files' `npm start` at the same time.
    if (serverIsStale()) await buildServer();
    const browserEnv: Record<string, string> = {};
    if (files.some((file) => file.includes(`${path.sep}console${path.sep}`))) {
      // Browser tests drive the production build; Chromium is unpacked once here, not by each test file at the same time.
      if (consoleIsStale()) await buildConsole();
      const chromium = (await import('@sparticuz/chromium')).default;
      browserEnv.CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (await chromium.executablePath());
    }
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=4', ...files], {
      stdio: 'inherit',
      env: { ...process.env, ...browserEnv, TEST_PG_ADMIN_URL: server.url, TEST_TEMPLATE_DB: TEMPLATE, NODE_ENV: 'test' },
    });
    return await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  } finally {
    await server.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
