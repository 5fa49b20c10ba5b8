import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/database.js';
import { freePort } from '../../src/lib/ports.js';
import type { TestTarget } from './app.js';
import { Client } from './client.js';
import { serviceCommand } from './service-command.js';
import { sleep } from './mail.js';

/**
 * Real service processes for fault, shutdown and multi-instance tests: the
 * service `npm start` runs (its source, `src/main.ts`, through tsx; or `npm start` itself with
 * `viaNpm`, which runs the compiled build), in a child process of its own, so
 * a test can signal it, kill it, or kill the database under it.
 *
 *   const database = await createTestDatabase();
 *   const service = await startService({ databaseUrl: database.url });
 *   ... HTTP against service.baseUrl ...
 *   service.signal('SIGTERM');
 *   const { code } = await service.exited;
 *   await database.drop();
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface ServiceOptions {
  /** PostgreSQL to use (DATABASE_URL); omit to run the embedded server under `dataDir`. */
  databaseUrl?: string;
  /** HTTP port; a free one is picked when omitted. */
  port?: number;
  /** DATA_DIR; a temporary directory (removed by `cleanup`) when omitted. */
  dataDir?: string;
  /** Extra environment, applied last (it may override anything set here). */
  env?: Record<string, string>;
  /** The entry point under `src/`, `main.ts` by default (`worker.ts` for the standalone email worker). */
  entry?: 'main.ts' | 'worker.ts';
  /**
   * Start through npm as an operator would, `npm start` (or `npm run worker` for `entry: 'worker.ts'`),
   * which runs the compiled build in dist/; `signal` then goes to the process npm launched, `pid` is npm's.
   */
  viaNpm?: boolean;
  /** Wait until GET /health/ready answers 200 (default), or only for the process to spawn. */
  waitForReady?: boolean;
  readyTimeoutMs?: number;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  readonly pid: number;
  readonly port: number;
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** The configuration the process runs with (parsed from the same environment). */
  readonly config: Config;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitStatus>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The JSON log lines written so far (non-JSON lines skipped). */
  logs(): Record<string, unknown>[];
  /** Resolves with the first log line that matches, waiting up to `timeoutMs`. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  waitForReady(timeoutMs?: number): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** The PID of the service itself: the process npm launched with `viaNpm`, else `pid`. */
  servicePid(): number;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; then removes a temporary DATA_DIR. */
  stop(graceMs?: number): Promise<ExitStatus>;
}

export async function startService(options: ServiceOptions = {}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'commerce-service-'));
  if (ownDataDir) ownDataDirs.add(dataDir);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PASSWORD_HASH_COST: '10',
    PRUNE_INTERVAL: '0',
    // Through `npm start`, as deployed: every route's schemas compiled before the service is ready. Otherwise on
    // first use, as in-process test apps do: these tests are about processes, and a start costs a CPU-second less.
    SCHEMA_COMPILE: options.viaNpm ? 'start' : 'first-use',
    // No metrics listener unless a test asks for one (several services share this host).
    METRICS_PORT: '0',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const child = options.viaNpm
    ? spawn('npm', [...(options.entry === 'worker.ts' ? ['run', 'worker'] : ['start']), '--silent'], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, serviceCommand(options.entry ?? 'main.ts'), {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  /** SIGKILL, to the service itself too when npm launched it (npm's death would leave it running). */
  const killHard = () => {
    if (options.viaNpm) {
      try {
        process.kill(launchedBy(child.pid!), 'SIGKILL');
      } catch {
        // not launched yet, or gone already
      }
    }
    child.kill('SIGKILL');
  };
  live.add(killHard);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<ExitStatus>((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(killHard);
      resolve({ code, signal });
    }),
  );
  let done = false;
  void exited.then(() => (done = true));

  const logs = () =>
    output.split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

  const baseUrl = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    pid: child.pid!,
    port,
    baseUrl,
    dataDir,
    child,
    config: loadConfig(env),
    exited,
    output: () => output,
    logs,
    async waitForLog(match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = logs().find(match);
        if (found) return found;
        if (done || Date.now() > deadline)
          throw new Error(`log line not seen (${done ? 'process exited' : 'timed out'}); output:\n${output.slice(-4000)}`);
        await sleep(50);
      }
    },
    async waitForReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (done) throw new Error(`service exited before it was ready; output:\n${output.slice(-4000)}`);
        try {
          const response = await fetch(`${baseUrl}/health/ready`);
          if (response.status === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`service not ready after ${timeoutMs} ms; output:\n${output.slice(-4000)}`);
        await sleep(100);
      }
    },
    signal(signal) {
      if (done) return;
      if (options.viaNpm) process.kill(launchedBy(child.pid!), signal);
      else child.kill(signal);
    },
    servicePid: () => (options.viaNpm ? launchedBy(child.pid!) : child.pid!),
    async stop(graceMs = 20_000) {
      if (!done) child.kill('SIGTERM');
      const timer = setTimeout(killHard, graceMs);
      const status = await exited;
      clearTimeout(timer);
      if (ownDataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        ownDataDirs.delete(dataDir);
      }
      return status;
    },
  };
  if (options.waitForReady !== false) {
    try {
      await service.waitForReady(options.readyTimeoutMs);
    } catch (error) {
      killHard();
      throw error;
    }
  }
  return service;
}

/** `count` services on one database, started at the same moment (so they race to migrate it); none is left running if one fails. */
export async function startInstances(count: number, options: ServiceOptions): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startService(options)));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : null)));
    throw failed.reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<ServiceProcess>).value);
}

/** The service as the data factories (signUp, shopper ...) see it, with `db` opened by the test on the same database. */
export const serviceTarget = (service: ServiceProcess, db: Db): TestTarget => ({
  db,
  config: service.config,
  baseUrl: service.baseUrl,
  client: () => new Client(service.baseUrl),
});

/** The process npm started for its script (`exec` in the script makes it the service itself). */
function launchedBy(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one child of npm (${pid}), found ${children.length}`);
  return Number(children[0]);
}

// A test process that dies must not leave services running on the shared database server, nor the
// temporary data directories of services it killed without stopping them (a kill -9 test's first run).
const live = new Set<() => void>();
const ownDataDirs = new Set<string>();
process.once('exit', () => {
  for (const killHard of live) killHard();
  for (const dir of ownDataDirs) rmSync(dir, { recursive: true, force: true });
});

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * A database of its own on the test server: cloned from the migrated template that scripts/test.ts
 * prepared, or `empty` for services that migrate it themselves.
 */
export async function createTestDatabase(kind: 'migrated' | 'empty' = 'migrated'): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE_DB;
  if (!adminUrl || !template) throw new Error('Run tests with `npm test` (it prepares the database)');
  const name = `test_${randomBytes(6).toString('hex')}`;
  if (kind === 'migrated') await cloneTemplate(name);
  else await adminQuery(`CREATE DATABASE ${name}`);
  return { url: testServerUrl(name), name, drop: async () => void (await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** The URL of database `name` on the test server itself (not through a pooler or proxy a test starts), with `query` in place of the server's if given. */
export function testServerUrl(name: string, query?: string): string {
  const url = new URL(process.env.TEST_PG_ADMIN_URL!);
  url.pathname = `/${name}`;
  if (query !== undefined) url.search = query;
  return url.toString();
}

/**
 * Creates database `name` as a copy of the migrated template. On the runner's own scratch server
 * (no fsync) the copy is of the files (TEST_CLONE_STRATEGY=FILE_COPY, 37 ms against 90 ms for
 * PostgreSQL's default of writing the whole template through the WAL); a server of the developer's
 * (TEST_DATABASE_URL) gets the default, which also works before PostgreSQL 15.
 */
export async function cloneTemplate(name: string): Promise<void> {
  const strategy = process.env.TEST_CLONE_STRATEGY === 'FILE_COPY' ? ' STRATEGY FILE_COPY' : '';
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_TEMPLATE_DB}${strategy}`);
}

/**
 * For a test file: a database of its own (cloned from the template) and a
 * small pool on it for the test's own reads and writes, made before the
 * file's tests and dropped after them. Read the fields inside tests (not in
 * another file-level `before`: node:test may run those alongside this one).
 */
export function fileDatabase(): { readonly database: TestDatabase; readonly db: Db } {
  const state = {} as { database: TestDatabase; db: Db };
  before(async () => {
    state.database = await createTestDatabase();
    state.db = createDb(state.database.url, 4);
  });
  after(async () => {
    await state.db?.destroy();
    await state.database?.drop();
  });
  return state;
}

/** Runs one statement as the test server's administrator (to terminate backends, say). */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The migrations recorded as applied in the database at `url`, by name (kysely's own table). */
export async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}
