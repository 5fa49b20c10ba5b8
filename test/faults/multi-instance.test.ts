import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createDb, type Db } from '../../src/db/database.js';
import { startBalancer, type Balancer } from '../helpers/balancer.js';
import { Client } from '../helpers/client.js';
import { checkout, inBatches, inventoryOf, sellableVariant, shopper } from '../helpers/commerce.js';
import { addressInput, errorOf, signInAs, signUp } from '../helpers/factories.js';
import { startMailServer, subjectOf, waitFor, type MailCatcher } from '../helpers/mail.js';
import { credentials, tinyPng, upload } from '../helpers/media.js';
import { createTestDatabase, startInstances, type ServiceProcess, type TestDatabase } from '../helpers/service.js';

/**
 * Three real service processes on one (initially empty) database behind a
 * round-robin balancer, each with its own DATA_DIR and its own in-process
 * email worker: nothing an instance keeps to itself may matter.
 */
const INSTANCES = 3;
const BURST = 200;

let database: TestDatabase;
let instances: ServiceProcess[];
let balancer: Balancer;
let mail: MailCatcher;
let db: Db;
/** What the factories need: clients through the balancer, and the shared database. */
let store: { client(): Client; db: Db; config: { passwordHashCost: number } };

before(async () => {
  database = await createTestDatabase('empty');
  mail = await startMailServer();
  // The balancer's address is the public one; it is known before the instances start.
  balancer = await startBalancer();
  instances = await startInstances(INSTANCES, {
    databaseUrl: database.url,
    env: {
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: balancer.url,
      SMTP_URL: mail.url,
      EMAIL_POLL_INTERVAL_MS: '50',
      DB_POOL_SIZE: '15',
      // The race and the mail burst need many accounts from one address.
      RATE_LIMIT_REGISTER: '0',
      RATE_LIMIT_LOGIN: '5/15m',
    },
  });
  balancer.use(instances.map((i) => i.baseUrl));
  db = createDb(database.url, 4);
  store = { client: () => new Client(balancer.url), db, config: { passwordHashCost: 10 } };
});

after(async () => {
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await balancer?.close();
  await db?.destroy();
  await mail?.close();
  await database?.drop();
});

/** A client on one instance carrying another client's cookies (the same browser, another backend). */
function on(instance: ServiceProcess, from: Client): Client {
  const client = new Client(instance.baseUrl);
  for (const [name, value] of from.cookies) client.cookies.set(name, value);
  return client;
}

const countBy = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe(`${INSTANCES} instances on one database behind a round-robin balancer`, () => {
  test('instances started together on an empty database migrate it once', async () => {
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
    const names = applied.rows.map((r) => r.name);
    assert.ok(names.length >= 13, names.join(', '));
    assert.equal(new Set(names).size, names.length);
  });

  test('a session and its CSRF token work on every instance; a logout anywhere ends it everywhere', async () => {
    const { client, user } = await signUp(store);
    const [a, b, c] = instances.map((i) => on(i, client)) as [Client, Client, Client];
    for (const each of [a, b, c]) {
      const me = await each.get('/api/v1/users/me');
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.data.public_id, user.public_id);
    }

    // A token issued by one instance is accepted by another; a forged one is refused by a third.
    const token = await a.csrf();
    const created = await b.post('/api/v1/users/me/addresses', addressInput(), { csrf: token });
    assert.equal(created.status, 201, created.text);
    const forged = await c.post('/api/v1/users/me/addresses', addressInput(), { csrf: `${token.slice(0, -2)}xx` });
    assert.equal(forged.status, 403);
    assert.equal(errorOf(forged).code, 'CSRF_TOKEN_INVALID');

    const out = await c.delete('/api/v1/auth/session', { csrf: token });
    assert.equal(out.status, 204, out.text);
    for (const each of [on(instances[0]!, client), on(instances[1]!, client)]) {
      assert.equal((await each.get('/api/v1/users/me')).status, 401);
    }
  });

  test('100 shoppers race through the balancer for the last 5 units: exactly 5 orders, no oversell', async () => {
    const admin = (await signInAs(store, 'ADMIN')).client;
    const { variantId } = await sellableVariant(admin, { stock: 5, price: '20.00' });
    const shoppers = await inBatches(100, 10, () => shopper(store, [{ variantId, quantity: 1 }]));
    const before = [...balancer.served];

    const responses = await Promise.all(shoppers.map((s) => checkout(s.client, s.addressId)));

    assert.deepEqual(countBy(responses.map((r) => r.status)), { 201: 5, 409: 95 });
    for (const r of responses.filter((r) => r.status === 409)) assert.equal(errorOf(r).code, 'INSUFFICIENT_STOCK');
    // Round robin: every instance took its third of the race.
    const shares = balancer.served.map((n, i) => n - before[i]!).sort();
    assert.deepEqual(shares, [33, 33, 34]);
    assert.deepEqual(await inventoryOf(store, variantId), { quantity_on_hand: 5, quantity_reserved: 5 });
    const placed = responses.filter((r) => r.status === 201).map((r) => r.body.data.public_id as string);
    const orders = await db.selectFrom('orders').select('public_id').where('public_id', 'in', placed).execute();
    assert.equal(orders.length, 5);
  });

  test('rate limits hold across instances: 30 parallel wrong passwords, 5 checked, 25 refused', async () => {
    const { email } = await signUp(store);
    const clients = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const client = store.client();
        await client.csrf();
        return client;
      }),
    );

    const responses = await Promise.all(clients.map((client) => client.post('/api/v1/auth/login', { email, password: 'Wrong-Horse-9' })));

    assert.deepEqual(countBy(responses.map((r) => r.status)), { 401: 5, 429: 25 });
    for (const r of responses.filter((r) => r.status === 429)) assert.equal(errorOf(r).code, 'RATE_LIMITED');
  });

  test('upload credentials signed by any instance are accepted by another, and the file is served by all', async () => {
    const { client } = await signUp(store);
    const [a, b, c] = instances.map((i) => on(i, client)) as [Client, Client, Client];
    // The first credentials on a fresh database: every instance generates a key at once, and one must win.
    const creds = await Promise.all([a, b, c].map((each) => credentials(each)));
    assert.equal(new Set(creds.map((cr) => cr.publicKey)).size, 1);

    const png = tinyPng();
    const urls: string[] = [];
    for (const [signer, host] of [
      [0, 1],
      [1, 2],
      [2, 0],
    ] as const) {
      const uploaded = await upload({ baseUrl: instances[host]!.baseUrl }, creds[signer]!, png);
      assert.equal(uploaded.status, 200, `signed by instance ${signer}, uploaded to ${host}: ${JSON.stringify(uploaded.body)}`);
      urls.push(uploaded.body.url);
    }
    for (const url of urls) {
      assert.ok(url.startsWith(`${balancer.url}/media/`), url);
      // Every instance serves the same bytes: the file as the receiving one stored it.
      const bodies: Buffer[] = [];
      for (const instance of instances) {
        const served = await fetch(instance.baseUrl + new URL(url).pathname);
        assert.equal(served.status, 200);
        assert.equal(served.headers.get('content-type'), 'image/png');
        bodies.push(Buffer.from(await served.arrayBuffer()));
      }
      assert.ok(bodies[0]!.length > 0);
      for (const body of bodies) assert.deepEqual(body, bodies[0]);
    }
    // A used token is used everywhere.
    const again = await upload({ baseUrl: instances[2]!.baseUrl }, creds[0]!, png);
    assert.equal(again.status, 403);
  });

  test(`every email is sent exactly once by the three workers, a burst of ${BURST} included`, async () => {
    // Messages due at the same moment, so the three workers claim concurrently.
    await sql`
      INSERT INTO outbox (kind, recipient, payload)
      SELECT 'verify_email', 'burst-' || n || '@example.test', jsonb_build_object('first_name', 'Burst', 'token', md5(n::text))
      FROM generate_series(1, ${BURST}::int) AS n
    `.execute(db);

    const pending = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL`.execute(db)).rows[0]!.n;
    await waitFor(async () => (await pending()) === 0, 90_000);
    // Give a would-be second delivery time to land.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const outbox = await db.selectFrom('outbox').select(['recipient', 'kind', 'payload']).execute();
    assert.ok(outbox.length >= BURST + 100 + 5, `outbox holds ${outbox.length}`);
    assert.equal(mail.messages.length, outbox.length);
    assert.deepEqual(tally(mail.messages.flatMap((m) => m.to)), tally(outbox.map((m) => m.recipient.toLowerCase())));
    // Each order's confirmation, once.
    const orders = outbox.filter((m) => m.kind === 'order_placed');
    assert.equal(orders.length, 5);
    const confirmations = mail.messages.map((m) => subjectOf(m.raw)).filter((s) => s?.startsWith('Order '));
    assert.deepEqual(confirmations.sort(), orders.map((m) => `Order ${(m.payload as any).order_number} is confirmed`).sort());
  });
});

function tally(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}
