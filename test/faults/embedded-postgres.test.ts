import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { Client } from '../helpers/client.js';
import { alive, embeddedDataDir } from '../helpers/embedded-dir.js';
import { uniqueEmail, PASSWORD } from '../helpers/factories.js';
import { sleep, waitFor } from '../helpers/mail.js';
import { startService, type ServiceProcess } from '../helpers/service.js';

/**
 * The embedded PostgreSQL under a real service process: killed while the
 * service runs (the service restarts it, /health/ready says 503 until it is
 * back), orphaned by a kill -9 of the service (the next service adopts it and
 * stops it at its clean shutdown), and a stale postmaster.pid whose PID now
 * belongs to another process (start-up goes ahead). One data directory for
 * the whole file: initdb runs once.
 */
const services: ServiceProcess[] = [];
const data = embeddedDataDir('commerce-embedded-', async () => {
  for (const service of services) await service.stop();
});
const postmasterPid = () => data.postmasterPid();

async function start(): Promise<ServiceProcess> {
  const service = await startService({ dataDir: data.path, readyTimeoutMs: 120_000, env: { RATE_LIMIT_REGISTER: '0' } });
  services.push(service);
  return service;
}

async function registers(service: ServiceProcess) {
  const response = await new Client(service.baseUrl).post('/api/v1/auth/register', {
    email: uniqueEmail(),
    password: PASSWORD,
    first_name: 'Ada',
    last_name: 'Lovelace',
  });
  assert.equal(response.status, 201, response.text);
}

const ready = async (service: ServiceProcess) => (await fetch(`${service.baseUrl}/health/ready`)).status;

test('the embedded server killed under a running service is restarted; readiness reflects the outage', async () => {
  const service = await start();
  await registers(service);
  const first = postmasterPid()!;
  process.kill(first, 'SIGKILL');
  await waitFor(async () => (await ready(service)) === 503, 10_000);
  await service.waitForLog((l) => l.msg === 'embedded PostgreSQL exited unexpectedly; restarting it', 10_000);
  await waitFor(async () => (await ready(service)) === 200, 60_000);
  assert.notEqual(postmasterPid(), first, 'a new postmaster');
  await registers(service);
  assert.equal(service.child.exitCode, null, 'the service itself was never restarted');
});

test('after a kill -9 of the service its orphaned server is adopted, then stopped at the next clean shutdown', async () => {
  const killed = services.at(-1)!;
  killed.signal('SIGKILL');
  await killed.exited;
  const orphan = postmasterPid()!;
  assert.ok(alive(orphan), 'the server outlived the service');

  const service = await start();
  await service.waitForLog((l) => String(l.msg).startsWith('adopting an orphaned embedded PostgreSQL'), 5_000);
  assert.equal(postmasterPid(), orphan, 'the orphan was reused, not replaced');
  await registers(service);
  // The adopted server is supervised like one the service started.
  process.kill(orphan, 'SIGKILL');
  await service.waitForLog((l) => l.msg === 'embedded PostgreSQL restarted', 60_000);
  await waitFor(async () => (await ready(service)) === 200, 30_000);
  await registers(service);
  const restarted = postmasterPid()!;

  service.signal('SIGTERM');
  assert.equal((await service.exited).code, 0, service.output().slice(-2000));
  await waitFor(() => !alive(restarted), 10_000);
  assert.equal(postmasterPid(), null, 'the server shut down cleanly');
});

test('a stale postmaster.pid whose PID belongs to another process does not block start-up', async () => {
  const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    writeFileSync(
      path.join(data.path, 'postgres', 'postmaster.pid'),
      `${stranger.pid}\n${path.join(data.path, 'postgres')}\n1700000000\n5999\n/tmp\n127.0.0.1\n  1234  5678\nready\n`,
    );
    const service = await start();
    await registers(service);
    assert.ok(alive(stranger.pid!), 'the process that held the PID was left alone');
    service.signal('SIGTERM');
    assert.equal((await service.exited).code, 0);
  } finally {
    stranger.kill('SIGKILL');
  }
  await sleep(0);
});

test('a server another live process runs is used, not adopted; when that process stops it, the service starts its own', async () => {
  const other = await startEmbeddedDatabase(data.path); // as `npm run seed` would, before the service starts
  const service = await start();
  await service.waitForLog((l) => String(l.msg).startsWith('using the embedded PostgreSQL another live process runs'), 5_000);
  await other.stop();
  await service.waitForLog((l) => l.msg === 'embedded PostgreSQL restarted', 60_000);
  await waitFor(async () => (await ready(service)) === 200, 30_000);
  await registers(service);
  const own = postmasterPid()!;
  service.signal('SIGTERM');
  assert.equal((await service.exited).code, 0);
  await waitFor(() => !alive(own), 10_000);
});

test('two services on one data directory both restart a killed server: one postmaster runs, its postmaster.pid stays, both serve', async () => {
  const a = await start();
  const b = await start();
  const first = postmasterPid()!;
  process.kill(first, 'SIGKILL');
  for (const service of [a, b]) await service.waitForLog((l) => l.msg === 'embedded PostgreSQL restarted', 60_000);
  await waitFor(async () => (await ready(a)) === 200 && (await ready(b)) === 200, 30_000);
  const running = postmasterPid();
  assert.ok(running !== null && running !== first && alive(running), `a new postmaster runs (${running})`);
  // Neither took the other's lock file away: PostgreSQL shuts down within a minute when its postmaster.pid goes.
  await sleep(2_000);
  assert.equal(postmasterPid(), running);
  assert.ok(alive(running));
  await registers(a);
  await registers(b);

  a.signal('SIGTERM');
  b.signal('SIGTERM');
  assert.equal((await a.exited).code, 0, a.output().slice(-2000));
  assert.equal((await b.exited).code, 0, b.output().slice(-2000));
  await waitFor(() => {
    const pid = postmasterPid();
    return pid === null || !alive(pid);
  }, 15_000);
});
