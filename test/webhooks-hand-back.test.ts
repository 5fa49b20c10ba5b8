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
  for (let i = 0; i < 3; i++) receivers.push(await startReceiver());
});

after(async () => {
  await sql`DROP FUNCTION IF EXISTS refuse_outcome CASCADE`.execute(instances[0]!.db);
  await sql`DROP FUNCTION IF EXISTS refuse_one_outcome CASCADE`.execute(instances[0]!.db);
  for (const instance of instances) await instance.close();
  for (const receiver of receivers) await receiver.close();
  await database?.drop();
});

test("a share that fails hands back its own deliveries, not the other endpoints' being sent", async () => {
  const [first, second] = instances as [TestApp, TestApp];
  const [failing, slow] = receivers as [Receiver, Receiver, Receiver];
  const { client: superAdmin } = await signInAs(first, 'SUPER_ADMIN');
  for (const receiver of [failing, slow]) {
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

test("within one endpoint's share, a failure that cannot be recorded hands back nothing still being sent", async () => {
  const [first, second] = instances as [TestApp, TestApp];
  const receiver = receivers[2]!;
  // What the test above left behind stays out of the way: its endpoints' retries, and its refusal.
  await sql`DROP FUNCTION IF EXISTS refuse_outcome CASCADE`.execute(first.db);
  await sql`UPDATE event_deliveries SET state = 'CANCELLED' WHERE state = 'PENDING'`.execute(first.db);
  await sql`UPDATE event_targets SET deleted_at = now() WHERE deleted_at IS NULL`.execute(first.db);
  const { client: superAdmin } = await signInAs(first, 'SUPER_ADMIN');
  receiver.answer = () => ({ status: 500 });
  await createEndpoint(superAdmin, receiver.url, ['customer.registered']);
  const target = (
    await first.db.selectFrom('webhook_endpoints').select('target_id').where('url', '=', receiver.url).executeTakeFirstOrThrow()
  ).target_id;
  for (let i = 0; i < 3; i++) await signUp(first);
  await first.app.eventDispatcher.deliverDue();
  await sql`UPDATE event_deliveries SET next_attempt_at = now() WHERE state = 'PENDING' AND target_id = ${target}`.execute(first.db);
  const retries = await first.db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'e.public_id as event'])
    .where('d.target_id', '=', target)
    .where('d.state', '=', 'PENDING')
    .orderBy('d.id')
    .execute();
  assert.equal(retries.length, 3);
  const refused = retries[0]!;

  // One retry fails at once and its failure cannot be written; the other two answer only when let.
  await sql
    .raw(
      `CREATE FUNCTION refuse_one_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'outcome refused by the test'; END $$;
       CREATE TRIGGER refuse_one_outcome BEFORE UPDATE ON event_deliveries FOR EACH ROW
       WHEN (OLD.id = ${refused.id} AND NEW.attempts > OLD.attempts) EXECUTE FUNCTION refuse_one_outcome()`,
    )
    .execute(first.db);
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  receiver.answer = (arrival) => (arrival.event?.id === refused.event ? { status: 500 } : { status: 204, after: answered });
  const before = receiver.arrivals.length;

  assert.equal(await first.app.eventDispatcher.runOnce(), 3);
  await receiver.waitFor((arrivals) => arrivals.length === before + 3);
  await sleep(300); // the refused failure record has thrown by now
  // Another instance claims what is due: never the two still being sent.
  await second.app.eventDispatcher.runOnce();
  await sleep(200);
  assert.equal(receiver.arrivals.length, before + 3, 'no delivery sent twice while its first attempt is open');

  answer();
  await first.app.eventDispatcher.stop();
  await second.app.eventDispatcher.stop();
  const rows = await first.db
    .selectFrom('event_deliveries')
    .select(['id', 'state', 'claim'])
    .where('target_id', '=', target)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    rows.map((row) => [row.state, row.id === refused.id ? row.claim : 'recorded']),
    [
      ['PENDING', null],
      ['SUCCEEDED', 'recorded'],
      ['SUCCEEDED', 'recorded'],
    ],
    'the two answered are recorded; the one whose failure could not be written is handed back',
  );
});
