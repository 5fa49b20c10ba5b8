import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createDb } from '../src/db/database.js';
import { sql } from 'kysely';
import { claimDueDeliveries } from '../src/events/delivery-repository.js';
import { claimCursors, inboxWaiting, sequenceEvents } from '../src/events/stream-repository.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { signInAs, signUp } from './helpers/factories.js';
import { sleep, waitFor } from './helpers/mail.js';
import { createTestDatabase, type TestDatabase } from './helpers/service.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, verify, type Receiver } from './helpers/webhooks.js';

/**
 * Several instances over one database (issue 29): each runs its dispatcher,
 * and each event reaches each endpoint once. The events are all waiting when
 * the three dispatchers start at the same moment, and the receivers answer
 * slowly enough that their claims overlap; and claims raced from many
 * connections at once never take a delivery twice.
 */
let database: TestDatabase;
const instances: TestApp[] = [];
const receivers: Receiver[] = [];

before(async () => {
  database = await createTestDatabase();
  for (let i = 0; i < 3; i++)
    instances.push(
      await startTestApp(
        { ...LOCAL_RECEIVERS, EMAIL_WORKER: 'off', EVENT_POLL_INTERVAL_MS: '10', RATE_LIMIT_REGISTER: '0', WEBHOOK_TIMEOUT_MS: '5000' },
        { database },
      ),
    );
  for (let i = 0; i < 2; i++) receivers.push(await startReceiver());
});

after(async () => {
  for (const instance of instances) await instance.close();
  for (const receiver of receivers) await receiver.close();
  await database?.drop();
});

test('three instances deliver each event once to each endpoint', async () => {
  const [first] = instances;
  const { client: superAdmin } = await signInAs(first!, 'SUPER_ADMIN');
  const endpoints: { secret: string }[] = [];
  for (const receiver of receivers) {
    receiver.answer = () => ({ status: 204, after: sleep(15) });
    endpoints.push(await createEndpoint(superAdmin, receiver.url, ['customer.registered']));
  }
  for (const instance of instances) await instance.app.eventDispatcher.stop();
  const emails: string[] = [];
  for (let i = 0; i < 60; i++) emails.push((await signUp(instances[i % 3]!)).email);
  for (const instance of instances) instance.app.eventDispatcher.start();

  for (const [i, receiver] of receivers.entries()) {
    await receiver.waitFor(() => receiver.received().length >= 60, 30_000);
    await sleep(200); // any repeat would be on its way by now
    const events = receiver.arrivals.map((arrival) => verify(endpoints[i]!.secret, arrival));
    assert.equal(receiver.arrivals.length, 60, 'no event twice');
    assert.equal(new Set(events.map((e) => e.id)).size, 60);
    assert.deepEqual(new Set(events.map((e) => e.data.customer.email)), new Set(emails));
  }
  // A share's successes are marked after its receiver has answered: wait for the marks, do not race them.
  const attempts = await waitFor(async () => {
    const rows = await first!.db.selectFrom('event_deliveries').select(['attempts', 'state']).execute();
    return rows.every((d) => d.state !== 'PENDING') && rows;
  }, 10_000);
  assert.equal(attempts.length, 120);
  assert.ok(attempts.every((d) => d.state === 'SUCCEEDED' && d.attempts === 1));
});

test('claims racing over the same deliveries never take one twice', async () => {
  const [first] = instances;
  for (const instance of instances) await instance.app.eventDispatcher.stop();
  const { client: superAdmin } = await signInAs(first!, 'SUPER_ADMIN');
  const receiver = receivers[0]!;
  receiver.answer = () => ({ status: 500 });
  await createEndpoint(superAdmin, receiver.url, ['customer.registered']);
  for (let i = 0; i < 40; i++) await signUp(first!);
  // Each tried once and failed: a PENDING retry each, made due at once.
  await first!.app.eventDispatcher.deliverDue();
  await sql`UPDATE event_deliveries SET next_attempt_at = now() WHERE state = 'PENDING'`.execute(first!.db);
  const pending = await first!.db.selectFrom('event_deliveries').select('id').where('state', '=', 'PENDING').execute();
  assert.ok(pending.length >= 40);
  // Eight claimers on their own connections, one delivery per target at a time, until nothing is left to claim.
  const claimed: number[] = [];
  const pools = Array.from({ length: 8 }, () => createDb(database.url, 1));
  try {
    await Promise.all(
      pools.map(async (db) => {
        for (;;) {
          const now = new Date();
          const rows = await claimDueDeliveries(db, {
            claim: randomUUID(),
            now,
            leaseEnd: new Date(now.getTime() + 60_000),
            limit: 5,
            perTarget: 5,
            busyTargets: [],
          });
          if (rows.length === 0) return;
          claimed.push(...rows.map((row) => row.id));
        }
      }),
    );
  } finally {
    await Promise.all(pools.map((db) => db.destroy()));
  }
  assert.equal(claimed.length, new Set(claimed).size, 'a delivery claimed twice');
  assert.deepEqual(new Set(claimed), new Set(pending.map((row) => row.id)));
});

test('cursor claims racing over the same streams never lease one twice', async () => {
  const [first] = instances;
  for (const instance of instances) await instance.app.eventDispatcher.stop();
  const { client: superAdmin } = await signInAs(first!, 'SUPER_ADMIN');
  const endpoints = [];
  for (let i = 0; i < 12; i++) endpoints.push(await createEndpoint(superAdmin, receivers[i % 2]!.url, ['customer.registered']));
  await signUp(first!);
  while ((await sequenceEvents(first!.db, 1_000)) > 0 || (await inboxWaiting(first!.db)));
  const leased: number[] = [];
  const pools = Array.from({ length: 8 }, () => createDb(database.url, 1));
  try {
    await Promise.all(
      pools.map(async (db) => {
        for (let round = 0; round < 5; round++) {
          const now = new Date();
          const rows = await claimCursors(db, {
            claim: randomUUID(),
            now,
            leaseEnd: new Date(now.getTime() + 60_000),
            limit: 3,
            busyTargets: [],
          });
          leased.push(...rows.map((row) => row.target_id));
        }
      }),
    );
  } finally {
    await Promise.all(pools.map((db) => db.destroy()));
  }
  assert.equal(leased.length, new Set(leased).size, 'a cursor leased twice');
  const ids = await first!.db
    .selectFrom('event_targets')
    .select('id')
    .where(
      'public_id',
      'in',
      endpoints.map((e) => e.public_id),
    )
    .execute();
  for (const { id } of ids) assert.ok(leased.includes(id), 'every endpoint with an event to read is leased once');
});

test("sequencers racing while events are written place each event once, in each resource's order, and a reader misses none", async () => {
  const [first] = instances;
  for (const instance of instances) await instance.app.eventDispatcher.stop();
  // Inserted as any writer might (a previous release during a rolling upgrade): its cursor comes from the trigger.
  const target = await first!.db
    .insertInto('event_targets')
    .values({ public_id: 'whk_sequencer_race', kind: 'webhook', event_types: ['product.updated'] })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cursor = await first!.db.selectFrom('event_cursors').selectAll().where('target_id', '=', target.id).executeTakeFirst();
  assert.ok(cursor && cursor.claim === null, 'a target inserted by any writer gets a cursor');
  // Eight writers, each the one writer of its resources (so each resource's events commit in ID order), one event a statement.
  const writers = Array.from({ length: 8 }, (_, w) =>
    (async () => {
      for (let i = 0; i < 40; i++)
        await sql`INSERT INTO events (type, version, ordering_key, payload)
          VALUES ('product.updated', 1, ${`race:${w}:${i % 5}`}, '{}'::jsonb)`.execute(first!.db);
    })(),
  );
  let writing = true;
  let sequencing = true;
  const pools = Array.from({ length: 7 }, () => createDb(database.url, 1));
  // A reader as a cursor reads: everything past its position, then on from the last it saw. It must miss nothing.
  const read = new Set<number>();
  const reader = (async () => {
    let position = 0;
    for (let last = false; !last;) {
      last = !sequencing;
      const { rows } = await sql<{ position: number; event_id: number }>`
        SELECT position, event_id FROM event_stream WHERE position > ${position} ORDER BY position`.execute(pools[6]!);
      for (const row of rows) read.add(row.event_id);
      position = rows.at(-1)?.position ?? position;
    }
  })();
  try {
    const sequencers = pools.slice(0, 6).map(async (db) => {
      while (writing) await sequenceEvents(db, 3);
      while ((await sequenceEvents(db, 3)) > 0 || (await inboxWaiting(db)));
    });
    await Promise.all(writers);
    writing = false;
    await Promise.all(sequencers);
    sequencing = false;
    await reader;
  } finally {
    await Promise.all(pools.map((db) => db.destroy()));
  }
  const { rows } = await sql<{ ordering_key: string; event_id: number; placed: number }>`
    SELECT e.ordering_key, e.id AS event_id, count(s.position)::int AS placed FROM events e LEFT JOIN event_stream s ON s.event_id = e.id
    WHERE e.ordering_key LIKE 'race:%' GROUP BY e.id ORDER BY min(s.position)`.execute(first!.db);
  assert.equal(rows.length, 320);
  assert.ok(
    rows.every((row) => row.placed === 1),
    'every event placed once',
  );
  for (let w = 0; w < 8; w++)
    for (let k = 0; k < 5; k++) {
      const events = rows.filter((row) => row.ordering_key === `race:${w}:${k}`).map((row) => row.event_id);
      assert.deepEqual(
        events,
        [...events].sort((a, b) => a - b),
        "a resource's events are placed in their order",
      );
    }
  assert.deepEqual(await first!.db.selectFrom('event_inbox').select('event_id').execute(), []);
  const missed = rows.filter((row) => !read.has(row.event_id));
  assert.deepEqual(missed, [], 'a reader following the stream saw every event (positions commit in order)');
});

test("three dispatchers sending while events are written deliver each once, in each resource's order", async () => {
  const [first] = instances;
  const { client: superAdmin } = await signInAs(first!, 'SUPER_ADMIN');
  const receiver = receivers[1]!;
  receiver.arrivals.length = 0;
  receiver.answer = () => ({ status: 204 });
  const endpoint = await createEndpoint(superAdmin, receiver.url, ['product.deleted']);
  for (const instance of instances) instance.app.eventDispatcher.start();
  const keys = 8;
  const perKey = 25;
  // One writer per resource, each on its own instance's pool, the dispatchers polling all the while.
  await Promise.all(
    Array.from({ length: keys }, (_, k) =>
      (async () => {
        for (let i = 0; i < perKey; i++)
          await sql`INSERT INTO events (type, version, ordering_key, payload)
            VALUES ('product.deleted', 1, ${`resource:${k}`}, ${JSON.stringify({ resource: k, n: i })}::jsonb)`.execute(
            instances[k % 3]!.db,
          );
      })(),
    ),
  );
  await receiver.waitFor((all) => all.length >= keys * perKey, 30_000);
  await sleep(200); // any repeat would be on its way by now
  const events = receiver.arrivals.map((arrival) => verify(endpoint.secret, arrival));
  assert.equal(events.length, keys * perKey, 'each event once');
  for (let k = 0; k < keys; k++) {
    const order = events.filter((e) => e.data.resource === k).map((e) => e.data.n);
    assert.deepEqual(order, [...Array(perKey).keys()], `resource ${k} in the order of its events`);
  }
});
