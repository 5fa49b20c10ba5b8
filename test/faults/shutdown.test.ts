import assert from 'node:assert/strict';
import { test } from 'node:test';
import http from 'node:http';
import net from 'node:net';
import { shopper } from '../helpers/commerce.js';
import { checkoutsInFlight as heldInFlight, drains } from '../helpers/in-flight.js';
import { sleep } from '../helpers/mail.js';
import { fileDatabase, type ServiceOptions, serviceTarget, startService } from '../helpers/service.js';

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
  return { service, target, held: await heldInFlight(service, target, file.database.url, count) };
}

test('SIGTERM during checkout load: every in-flight request completes, then the process exits 0', async () => {
  const { service, held } = await checkoutsInFlight(30, { env: { SHUTDOWN_GRACE_MS: '20000' } });
  const before = await file.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  service.signal('SIGTERM');
  await drains(service, held);
  const placed = await file.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(placed.n - before.n, 30, 'every acknowledged order is stored');
});

test('SIGTERM to the process `npm start` launched drains too', async () => {
  const { service, held } = await checkoutsInFlight(5, { viaNpm: true, env: { SHUTDOWN_GRACE_MS: '20000' } });
  service.signal('SIGTERM');
  await drains(service, held);
});

test('SIGTERM to npm itself (PID 1 of a container whose command is `npm start`) is passed on and drains', async () => {
  const { service, held } = await checkoutsInFlight(5, { viaNpm: true, env: { SHUTDOWN_GRACE_MS: '20000' } });
  service.child.kill('SIGTERM');
  await drains(service, held);
});

test('a request that arrives during the drain on a connection still open gets 503 SERVICE_UNAVAILABLE in the envelope, with Retry-After', async () => {
  const { service, target, held } = await checkoutsInFlight(1, { env: { SHUTDOWN_GRACE_MS: '20000' } });
  const s = await shopper(target, [{ variantId: held.variantId, quantity: 1 }]);
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
  await drains(service, held);
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
  const { service, held } = await checkoutsInFlight(3, { env: { SHUTDOWN_GRACE_MS: '1500' } });
  const signalled = Date.now();
  service.signal('SIGTERM');
  const status = await service.exited;
  const elapsed = Date.now() - signalled;
  assert.ok(elapsed >= 1400 && elapsed < 5000, `exited ${elapsed} ms after the signal`);
  assert.notEqual(status.code, 0, 'a cut-short shutdown is not a clean exit');
  for (const response of await Promise.all(held.responses)) assert.notEqual(response.status, 201, 'a cut request was never acknowledged');
  await held.lock.query('ROLLBACK');
  await held.lock.end();
  await service.stop();
});

test('with SHUTDOWN_DELAY_MS, SIGTERM first fails readiness while every request is served, on kept-alive and new connections; then it drains and exits 0', async () => {
  const DELAY_MS = 4000;
  const service = await startService({
    databaseUrl: file.database.url,
    env: { ...ENV, SHUTDOWN_DELAY_MS: String(DELAY_MS), SHUTDOWN_GRACE_MS: '10000' },
  });
  // One kept-alive connection, as a balancer's pooled one; `reused` says whether a request went on it again.
  const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, agent: http.Agent | false = keptAlive) =>
    new Promise<{ status: number; body: string; reused: boolean }>((resolve, reject) => {
      const request = http.get(`${service.baseUrl}${path}`, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body, reused: request.reusedSocket }));
      });
      request.on('error', reject);
    });
  assert.equal((await get('/health/ready')).status, 200);
  assert.equal((await get('/api/v1/products')).status, 200, 'the route is warm before the signal');
  const signalled = Date.now();
  service.signal('SIGTERM');
  await service.waitForLog((line) => line.msg === 'not ready; serving until the delay ends, then draining');

  const ready = await get('/health/ready');
  assert.equal(ready.status, 503);
  const { error } = JSON.parse(ready.body) as { error: { code: string; message: string } };
  assert.deepEqual([error.code, error.message], ['NOT_READY', 'This instance is shutting down']);
  const again = await get('/api/v1/products');
  assert.deepEqual([again.status, again.reused], [200, true], 'the kept-alive connection is still open and served');
  assert.equal((await get('/api/v1/products', false)).status, 200, 'so is a new connection');
  const served = Date.now() - signalled;
  assert.ok(served < DELAY_MS, `all of it within the delay (${served} ms)`);

  const status = await service.exited;
  const elapsed = Date.now() - signalled;
  keptAlive.destroy();
  assert.equal(status.code, 0);
  assert.ok(elapsed >= DELAY_MS, `exited ${elapsed} ms after the signal, before the delay ended`);
  await service.stop();
});

test('a second signal cuts SHUTDOWN_DELAY_MS short: the instance drains and exits 0 at once; the same stop delivered twice does not', async () => {
  const DELAY_MS = 30_000;
  const service = await startService({
    databaseUrl: file.database.url,
    env: { ...ENV, SHUTDOWN_DELAY_MS: String(DELAY_MS), SHUTDOWN_GRACE_MS: '40000' },
  });
  const signalled = Date.now();
  // A terminal's Ctrl-C reaches npm and the service at once, and npm passes its copy on: two signals together.
  service.signal('SIGTERM');
  service.signal('SIGINT');
  await service.waitForLog((line) => line.msg === 'already shutting down (the same stop, delivered twice)');
  await service.waitForLog((line) => line.msg === 'not ready; serving until the delay ends, then draining');
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal((await fetch(`${service.baseUrl}/health/ready`)).status, 503, 'still serving out the delay');
  service.signal('SIGINT');
  await service.waitForLog((line) => line.msg === 'delay cut short by a second signal; draining');
  const status = await service.exited;
  const elapsed = Date.now() - signalled;
  assert.equal(status.code, 0);
  assert.ok(elapsed < DELAY_MS / 3, `exited ${elapsed} ms after the first signal, not after the delay`);
  await service.stop();
});

test('a port already in use stops the start with exit 1 and says which setting moves it', async () => {
  const taken = http.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const service = await startService({ databaseUrl: file.database.url, port, waitForReady: false });
    assert.equal((await service.exited).code, 1, service.output().slice(-2000));
    const fatal = service.logs().find((line) => line.msg === 'start-up failed');
    assert.equal(fatal?.hint, `port ${port} is in use (another instance?): stop what uses it, or start with PORT=<another port>`);
  } finally {
    taken.close();
  }
});
