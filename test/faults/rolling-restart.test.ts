import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, test, type TestContext } from 'node:test';
import { createDb, type Db } from '../../src/db/database.js';
import { freePort } from '../../src/lib/ports.js';
import { Client } from '../helpers/client.js';
import { inventoryOf, sellableVariant } from '../helpers/commerce.js';
import { addressInput, signInAs, signUp } from '../helpers/factories.js';
import { startHaProxy, HAPROXY_SERVERS, type HaProxy } from '../helpers/haproxy.js';
import { sleep } from '../helpers/mail.js';
import { startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { adminQuery, cloneTemplate, startService, testServerUrl, type ServiceProcess } from '../helpers/service.js';

/**
 * A rolling restart as an operator following docs/scale-out.md does it, with
 * Debian 12's packages: three instances behind HAProxy (the committed
 * deploy/haproxy/haproxy.cfg) on PgBouncer (deploy/pgbouncer/pgbouncer.ini),
 * restarted one after the other with a plain SIGTERM (nobody tells the
 * balancer) while clients read the catalog and check out through HAProxy.
 * No client sees anything but a success: the draining instance's 503s and
 * refused connections are retried elsewhere by HAProxy, and a request it
 * cannot retry gets its connection closed unanswered, which the client
 * answers by sending it again (once), as HTTP clients do. Every acknowledged
 * order is stored exactly once, and the stock accounts for exactly them.
 * Then again with SHUTDOWN_DELAY_MS, as docs/scale-out.md recommends: each
 * instance fails its readiness and serves on until HAProxy has taken it out,
 * so nothing needs retrying at all.
 */
const READERS = 2;
const SHOPPERS = 4;
const STOCK = 100_000;
/** Between a client's requests: steady load that leaves the two shared cores room to restart instances. */
const PAUSE_MS = 50;
/** A start on two busy shared cores can take long; how long is not what this test is about. */
const READY_TIMEOUT_MS = 180_000;

let bouncer: PgBouncer;
let haproxy: HaProxy;
let database: string;
let db: Db;
let instances: ServiceProcess[] = [];
const ports: number[] = [];

const env = (shutdownDelayMs: number) => ({
  DB_NAMED_STATEMENTS: 'false',
  DB_POOL_SIZE: '5',
  TRUST_PROXY: 'loopback',
  PUBLIC_BASE_URL: haproxy.url,
  RATE_LIMIT_CHECKOUT: '0',
  RATE_LIMIT_REGISTER: '0',
  SHUTDOWN_GRACE_MS: '10000',
  SHUTDOWN_DELAY_MS: String(shutdownDelayMs),
  LOG_LEVEL: 'warn',
});
/** Each slot's instance's SHUTDOWN_DELAY_MS. */
const delays: number[] = [];
const startInstance = (slot: number, shutdownDelayMs = 0) => {
  const databaseUrl = bouncer.url(database);
  delays[slot] = shutdownDelayMs;
  return startService({ databaseUrl, port: ports[slot]!, env: env(shutdownDelayMs), readyTimeoutMs: READY_TIMEOUT_MS });
};
/** Longer than HAProxy's checks take to mark an instance DOWN (fall 2 x inter 1 s, and a check under way). */
const DELAY_MS = 4000;

before(async () => {
  bouncer = await startPgBouncer();
  database = `rolling_${randomBytes(5).toString('hex')}`;
  await cloneTemplate(database);
  db = createDb(testServerUrl(database), 2);
  for (let slot = 0; slot < HAPROXY_SERVERS.length; slot++) ports.push(await freePort());
  haproxy = await startHaProxy(ports.map((port) => `http://127.0.0.1:${port}`));
  instances = await Promise.all(ports.map((_port, slot) => startInstance(slot)));
  await haproxy.waitUntilUp();
});

after(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await haproxy?.stop();
  await db?.destroy();
  if (database) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await bouncer?.stop();
});

interface Outcome {
  what: string;
  status: number;
  body?: string;
  phase: number;
}

/**
 * Clients read and check out through HAProxy while each instance in turn gets SIGTERM, exits and
 * is replaced by one started with `nextDelayMs` as its SHUTDOWN_DELAY_MS. Asserts what holds
 * whatever the delay: no client saw an error, checkouts went on in every phase, every acknowledged
 * order is stored once and the stock accounts for exactly them. Returns what differs.
 */
async function restartUnderLoad(
  t: TestContext,
  nextDelayMs: number,
): Promise<{ retried: number; served5xx: number; resends: string[]; context: string }> {
  const store = { client: () => new Client(haproxy.url), db, config: { passwordHashCost: 10 } };
  const admin = (await signInAs(store, 'ADMIN')).client;
  const { variantId, productId } = await sellableVariant(admin, { stock: STOCK, price: '5.00' });
  const shoppers = await Promise.all(
    Array.from({ length: SHOPPERS }, async () => {
      const { client } = await signUp(store);
      const address = await client.post('/api/v1/users/me/addresses', addressInput());
      assert.equal(address.status, 201, address.text);
      await client.csrf();
      return { client, addressId: address.body.data.public_id as string };
    }),
  );

  const statsBefore = Object.values(await haproxy.servers()).reduce(
    (sum, s) => ({ retried: sum.retried + s.wretr + s.wredis, served5xx: sum.served5xx + s.hrsp_5xx }),
    { retried: 0, served5xx: 0 },
  );
  const before = new Set((await db.selectFrom('orders').select('public_id').execute()).map((o) => o.public_id));
  const outcomes: Outcome[] = [];
  const placed: { key: string; order: string }[] = [];
  let phase = 0;
  let phaseStarted = Date.now();
  /** When each resend happened, for a failure's message: the phase and the time since its instance was told to stop. */
  const resends: string[] = [];
  const stopWarnings: string[] = [];
  const timings: string[] = [];
  let running = true;
  /**
   * A request whose kept-alive connection HAProxy closed without an answer is sent once more, as
   * browsers and most HTTP clients do: that close is how HAProxy says the request may be repeated,
   * when it cannot repeat it itself (docs/scale-out.md). A checkout goes again with its key.
   */
  const send = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      if (((error as Error).cause as { code?: string } | undefined)?.code !== 'UND_ERR_SOCKET') throw error;
      resends.push(`phase ${phase}, ${Date.now() - phaseStarted} ms after the stop: ${String((error as Error).cause)}`);
      return request();
    }
  };
  const record = async <T extends { status: number; text: string }>(what: string, request: () => Promise<T>): Promise<T | null> => {
    const at = phase;
    try {
      const response = await send(request);
      outcomes.push({ what, status: response.status, phase: at, ...(response.status >= 300 ? { body: response.text.slice(0, 300) } : {}) });
      return response;
    } catch (error) {
      const cause = (error as Error).cause as (Error & { code?: string }) | undefined;
      outcomes.push({ what, status: 0, body: `${String(error)}${cause ? ` (${cause.code ?? ''} ${cause.message})` : ''}`, phase: at });
      return null;
    }
  };

  const readers = Array.from({ length: READERS }, async (_, i) => {
    const reader = new Client(haproxy.url);
    while (running) {
      if (i % 2 === 0) await record('GET /products', () => reader.get('/api/v1/products?limit=5'));
      else await record('GET /products/{id}', () => reader.get(`/api/v1/products/${productId}`));
      await sleep(PAUSE_MS);
    }
  });
  const buyers = shoppers.map(async ({ client, addressId }) => {
    while (running) {
      const added = await record('POST /cart/items', () =>
        client.post('/api/v1/cart/items', { variant_public_id: variantId, quantity: 1 }),
      );
      if (added?.status !== 200) continue;
      const key = randomUUID();
      const order = await record('POST /orders', () =>
        client.post('/api/v1/orders', { address_public_id: addressId, payment_method: 'mock' }, { headers: { 'idempotency-key': key } }),
      );
      if (order?.status === 201) placed.push({ key, order: order.body.data.public_id as string });
      await sleep(PAUSE_MS);
    }
  });

  // Load on the three, then each restarted in turn: SIGTERM, a clean exit, a new process on the same
  // port, and on to the next once HAProxy's checks see it ready.
  try {
    await sleep(1000);
    for (let slot = 0; slot < instances.length; slot++) {
      phase = slot + 1;
      phaseStarted = Date.now();
      const status = await instances[slot]!.stop();
      assert.deepEqual(status, { code: 0, signal: null }, `instance ${slot + 1} drained and exited 0`);
      // What it warned of while it drained (a grace period cut short says a request was still running), for a failure's message.
      for (const line of instances[slot]!.logs()) stopWarnings.push(`instance ${slot + 1}: ${String(line.msg)}`);
      const starting = Date.now();
      instances[slot] = await startInstance(slot, nextDelayMs);
      const started = Date.now();
      await haproxy.waitUntilUp();
      timings.push(`stopped in ${starting - phaseStarted} ms, ready in ${started - starting} ms, UP in ${Date.now() - started} ms`);
      await sleep(500);
    }
    t.diagnostic(`restarts: ${timings.join('; ')}`);
    phase = 4;
    await sleep(1000);
  } finally {
    running = false;
    await Promise.all([...readers, ...buyers]);
  }

  const stats = Object.values(await haproxy.servers());
  const retried = stats.reduce((sum, s) => sum + s.wretr + s.wredis, 0) - statsBefore.retried;
  const served5xx = stats.reduce((sum, s) => sum + s.hrsp_5xx, 0) - statsBefore.served5xx;
  const failures = outcomes.filter((o) => o.status < 200 || o.status >= 300);
  // HAProxy's log lines whose termination state is not "----" say which side ended a failed exchange.
  const unusual = haproxy
    .output()
    .split('\n')
    .filter((line) => / [A-Za-z-]{4} \d+\/\d+\/\d+\/\d+\/\+?\d+ /.test(line) && !/ ---- /.test(line))
    .slice(-20);
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${outcomes.length} requests failed; HAProxy:\n${unusual.join('\n')}`);
  for (let p = 0; p <= 4; p++) {
    const orders = outcomes.filter((o) => o.phase === p && o.what === 'POST /orders').length;
    assert.ok(orders > 0, `checkouts went on during phase ${p}`);
  }

  // Every acknowledged order is stored once, nothing else was placed, and the stock accounts for exactly them.
  const stored = (await db.selectFrom('orders').select('public_id').execute()).map((o) => o.public_id).filter((id) => !before.has(id));
  assert.equal(new Set(placed.map((p) => p.order)).size, placed.length, 'no order acknowledged twice');
  assert.deepEqual(stored.sort(), placed.map((p) => p.order).sort());
  assert.deepEqual(await inventoryOf({ db }, variantId), { quantity_on_hand: STOCK, quantity_reserved: placed.length });
  t.diagnostic(
    `${outcomes.length} requests (${placed.length} orders) through HAProxy over three restarts, none failed; HAProxy retried or redispatched ${retried}, answered 5xx ${served5xx}; closed unanswered and sent again ${resends.length}`,
  );
  return { retried, served5xx, resends, context: [`restarts: ${timings.join('; ')}`, ...stopWarnings, 'HAProxy:', ...unusual].join('\n') };
}

test('a rolling restart with a plain SIGTERM under read and checkout load: HAProxy retries what the draining instances refuse; no client sees an error, every order exactly once', async (t) => {
  // The replacements start with SHUTDOWN_DELAY_MS, for the next test to restart.
  const { retried } = await restartUnderLoad(t, DELAY_MS);
  assert.ok(retried > 0, 'HAProxy retried requests the restarts refused');
});

test('a rolling restart of instances with SHUTDOWN_DELAY_MS: HAProxy takes each out before it drains, so nothing is refused, retried or closed under a request', async (t) => {
  // Run alone, or after the first test stopped midway, some instances may have started without the delay.
  for (let slot = 0; slot < instances.length; slot++) {
    if (delays[slot] === DELAY_MS) continue;
    await instances[slot]!.stop();
    instances[slot] = await startInstance(slot, DELAY_MS);
  }
  await haproxy.waitUntilUp();
  const { retried, served5xx, resends, context } = await restartUnderLoad(t, DELAY_MS);
  assert.deepEqual(
    { retried, served5xx, resent: resends.length },
    { retried: 0, served5xx: 0, resent: 0 },
    `resends: ${resends.join('; ') || 'none'}\n${context}`,
  );
});
