import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createDb } from '../src/db/database.js';
import { claimDueDeliveries } from '../src/events/delivery-repository.js';
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
  await createEndpoint(superAdmin, receiver.url, ['customer.registered']);
  for (let i = 0; i < 40; i++) await signUp(first!);
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
