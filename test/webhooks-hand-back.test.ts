import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './helpers/app.js';
import { signInAs, signUp } from './helpers/factories.js';
import { sleep, waitFor } from './helpers/mail.js';
import { createTestDatabase, type TestDatabase } from './helpers/service.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, type Receiver } from './helpers/webhooks.js';

/**
 * One claim of due retries spans several endpoints, each endpoint's share
 * sent on its own. When one share fails in the middle (here: the database
 * refuses to record its outcome), only that share is handed back: the other
 * endpoints' deliveries, still being sent under the same claim, stay hidden
 * from the other instances, which would otherwise send them a second time.
 */
let database: TestDatabase;
const instances: TestApp[] = [];
const receivers: Receiver[] = [];

before(async () => {
  database = await createTestDatabase();
  const env = { ...LOCAL_RECEIVERS, EMAIL_WORKER: 'off', EVENT_WORKER: 'off', RATE_LIMIT_REGISTER: '0', WEBHOOK_TIMEOUT_MS: '5000' };
  for (let i = 0; i < 2; i++) instances.push(await startTestApp(env, { database }));
  for (let i = 0; i < 2; i++) receivers.push(await startReceiver());
});

after(async () => {
  await sql`DROP FUNCTION IF EXISTS refuse_outcome CASCADE`.execute(instances[0]!.db);
  for (const instance of instances) await instance.close();
  for (const receiver of receivers) await receiver.close();
  await database?.drop();
});

test("a share that fails hands back its own deliveries, not the other endpoints' being sent", async () => {
  const [first, second] = instances as [TestApp, TestApp];
  const [failing, slow] = receivers as [Receiver, Receiver];
  const { client: superAdmin } = await signInAs(first, 'SUPER_ADMIN');
  for (const receiver of receivers) {
    receiver.answer = () => ({ status: 500 });
    await createEndpoint(superAdmin, receiver.url, ['customer.registered']);
  }
  for (let i = 0; i < 3; i++) await signUp(first);
  // Each event tried once at each endpoint and failed: a PENDING retry each, made due now.
  await first.app.eventDispatcher.deliverDue();
  await sql`UPDATE event_deliveries SET next_attempt_at = now() WHERE state = 'PENDING'`.execute(first.db);
  const targets = await first.db.selectFrom('webhook_endpoints').select(['target_id', 'url']).execute();
  const failingTarget = targets.find((target) => target.url === failing.url)!.target_id;
  const slowTarget = targets.find((target) => target.url === slow.url)!.target_id;
  const pendingOf = (target: number) =>
    first.db
      .selectFrom('event_deliveries')
      .select(['id', 'claim'])
      .where('target_id', '=', target)
      .where('state', '=', 'PENDING')
      .execute();
  assert.equal((await pendingOf(failingTarget)).length, 3);
  assert.equal((await pendingOf(slowTarget)).length, 3);

  // The failing endpoint's outcomes cannot be written; the slow one answers only when let.
  await sql
    .raw(
      `CREATE FUNCTION refuse_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'outcome refused by the test'; END $$;
       CREATE TRIGGER refuse_outcome BEFORE UPDATE ON event_deliveries FOR EACH ROW
       WHEN (OLD.target_id = ${failingTarget} AND NEW.attempts > OLD.attempts) EXECUTE FUNCTION refuse_outcome()`,
    )
    .execute(first.db);
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  failing.answer = () => ({ status: 500 });
  slow.answer = () => ({ status: 204, after: answered });
  const slowBefore = slow.arrivals.length;

  assert.equal(await first.app.eventDispatcher.runOnce(), 6, 'one claim takes both endpoints’ retries');
  await waitFor(async () => (await pendingOf(failingTarget)).every((delivery) => delivery.claim === null), 10_000);
  await slow.waitFor((arrivals) => arrivals.length === slowBefore + 3);
  assert.ok(
    (await pendingOf(slowTarget)).every((delivery) => delivery.claim !== null),
    'the slow share is still claimed',
  );

  // Another instance claims what is due: the handed-back share, never the one still being sent.
  await second.app.eventDispatcher.runOnce();
  await sleep(200); // a second send would be on its way by now
  assert.equal(slow.arrivals.length, slowBefore + 3, 'no delivery of the slow endpoint sent twice');

  answer();
  await first.app.eventDispatcher.stop();
  await second.app.eventDispatcher.stop();
  const slowRows = await first.db
    .selectFrom('event_deliveries')
    .select(['state', 'attempts'])
    .where('target_id', '=', slowTarget)
    .execute();
  assert.deepEqual(
    slowRows.map((row) => [row.state, row.attempts]),
    [
      ['SUCCEEDED', 2],
      ['SUCCEEDED', 2],
      ['SUCCEEDED', 2],
    ],
  );
});
