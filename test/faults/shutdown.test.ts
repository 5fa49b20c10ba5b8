import assert from 'node:assert/strict';
import { test } from 'node:test';
import net from 'node:net';
import pg from 'pg';
import { checkout, sellableVariant, shopper, inBatches } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';
import { sleep } from '../helpers/mail.js';
import { fileDatabase, type ServiceOptions, type ServiceProcess, serviceTarget, startService } from '../helpers/service.js';

/**
 * SIGTERM under load: the service stops accepting, every request in flight
 * completes with its normal answer, and the process exits 0 within the grace
 * period; past the grace period it exits anyway. The requests are held in
 * flight deterministically: the test locks the variant's stock row, so every
 * checkout waits on it until the test lets go.
 */
const file = fileDatabase();

const ENV = { RATE_LIMIT_CHECKOUT: '0', RATE_LIMIT_REGISTER: '0', DB_POOL_SIZE: '6' };

/** A service, a variant whose stock row the returned lock holds, and `count` shoppers checking out in flight. */
async function checkoutsInFlight(count: number, options: ServiceOptions) {
  const service = await startService({ databaseUrl: file.database.url, ...options, env: { ...ENV, ...options.env } });
  const target = serviceTarget(service, file.db);
  const { client: admin } = await signInAs(target, 'ADMIN');
  const { variantId } = await sellableVariant(admin, { stock: 1000 });
  const shoppers = await inBatches(count, 6, () => shopper(target, [{ variantId, quantity: 1 }]));

  const lock = new pg.Client({ connectionString: file.database.url });
  lock.on('error', () => {}); // the database is dropped under it if a test fails midway
  await lock.connect();
  await lock.query('BEGIN');
  await lock.query('SELECT 1 FROM inventory i JOIN variants v ON v.id = i.variant_id WHERE v.public_id = $1 FOR UPDATE OF i', [variantId]);

  const settled: boolean[] = [];
  const responses = shoppers.map((s, i) =>
    checkout(s.client, s.addressId).then(
      (response) => ((settled[i] = true), response),
      (error: unknown) => ((settled[i] = true), { status: 0, text: String(error), body: null }),
    ),
  );
  // Every checkout has reached the service before the signal.
  const seen = () =>
    service.logs().filter((l) => l.msg === 'incoming request' && (l.req as { url?: string })?.url === '/api/v1/orders').length;
  for (let waited = 0; seen() < count; waited += 20) {
    if (waited > 20_000) throw new Error(`only ${seen()} of ${count} checkouts reached the service`);
    await sleep(20);
  }
  return { service, target, variantId, lock, responses, settled };
}

async function drains(
  service: ServiceProcess,
  lock: pg.Client,
  responses: Promise<{ status: number; text: string }>[],
  settled: boolean[],
) {
  const signalled = Date.now();
  await sleep(500);
  assert.equal(service.child.exitCode, null, `still draining:\n${service.output().slice(-2000)}`);
  assert.equal(settled.filter(Boolean).length, 0, 'no checkout has answered yet');
  await assert.rejects(fetch(`${service.baseUrl}/health`), 'no new connections are accepted');

  await lock.query('COMMIT');
  await lock.end();
  for (const response of await Promise.all(responses)) assert.equal(response.status, 201, response.text);
  const { code } = await service.exited;
  assert.equal(code, 0, service.output().slice(-2000));
  assert.ok(Date.now() - signalled < 10_000, 'shutdown finished within the grace period');
  assert.ok(service.logs().some((l) => l.msg === 'shutdown complete'));
  await service.stop();
}

test('SIGTERM during checkout load: every in-flight request completes, then the process exits 0', async () => {
  const { service, lock, responses, settled } = await checkoutsInFlight(30, { env: { SHUTDOWN_GRACE_MS: '20000' } });
  const before = await file.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  service.signal('SIGTERM');
  await drains(service, lock, responses, settled);
  const placed = await file.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(placed.n - before.n, 30, 'every acknowledged order is stored');
});

test('SIGTERM to the process `npm start` launched drains too', async () => {
  const { service, lock, responses, settled } = await checkoutsInFlight(5, { viaNpm: true, env: { SHUTDOWN_GRACE_MS: '20000' } });
  service.signal('SIGTERM');
  await drains(service, lock, responses, settled);
});

test('SIGTERM to npm itself (PID 1 of a container whose command is `npm start`) is passed on and drains', async () => {
  const { service, lock, responses, settled } = await checkoutsInFlight(5, { viaNpm: true, env: { SHUTDOWN_GRACE_MS: '20000' } });
  service.child.kill('SIGTERM');
  await drains(service, lock, responses, settled);
});

test('a request that arrives during the drain on a connection still open gets 503 SERVICE_UNAVAILABLE in the envelope, with Retry-After', async () => {
  const { service, target, variantId, lock, responses, settled } = await checkoutsInFlight(1, { env: { SHUTDOWN_GRACE_MS: '20000' } });
  const s = await shopper(target, [{ variantId, quantity: 1 }]);
  const body = JSON.stringify({ address_public_id: s.addressId, payment_method: 'mock' });
  const headers = [
    'POST /api/v1/orders HTTP/1.1',
    `Host: ${new URL(service.baseUrl).host}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Cookie: ${[...s.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}`,
    `x-csrf-token: ${await s.client.csrf()}`,
  ];
  const socket = net.connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(`${headers.join('\r\n')}\r\n\r\n${body}`);
  const orders = () =>
    service.logs().filter((l) => l.msg === 'incoming request' && (l.req as { url?: string })?.url === '/api/v1/orders').length;
  while (orders() < 2) await sleep(20);

  service.signal('SIGTERM');
  await service.waitForLog((l) => l.msg === 'shutting down');
  await sleep(100);
  socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'); // on the connection kept open by the checkout in flight
  await drains(service, lock, responses, settled);
  await closed;
  const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
  assert.match(first ?? '', /^HTTP\/1\.1 201/, received.slice(0, 500));
  assert.match(second ?? '', /^HTTP\/1\.1 503/, received);
  assert.match(second!, /^retry-after: 1\r$/im);
  assert.match(second!, /^connection: close\r$/im);
  const envelope = JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4));
  assert.equal(envelope.error.code, 'SERVICE_UNAVAILABLE');
  assert.equal(typeof envelope.request_id, 'string');
});

test('past SHUTDOWN_GRACE_MS the open connections are cut and the process exits', async () => {
  const { service, lock, responses } = await checkoutsInFlight(3, { env: { SHUTDOWN_GRACE_MS: '1500' } });
  const signalled = Date.now();
  service.signal('SIGTERM');
  const status = await service.exited;
  const elapsed = Date.now() - signalled;
  assert.ok(elapsed >= 1400 && elapsed < 5000, `exited ${elapsed} ms after the signal`);
  assert.notEqual(status.code, 0, 'a cut-short shutdown is not a clean exit');
  for (const response of await Promise.all(responses)) assert.notEqual(response.status, 201, 'a cut request was never acknowledged');
  await lock.query('ROLLBACK');
  await lock.end();
  await service.stop();
});
