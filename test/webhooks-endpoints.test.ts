import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { API, expectStatus } from './helpers/catalog.js';
import { sellableVariant } from './helpers/commerce.js';
import { errorOf, signUp } from './helpers/factories.js';
import { sleep } from './helpers/mail.js';
import { useApp } from './helpers/use-app.js';
import {
  createEndpoint,
  deliverDue,
  deliveryLog,
  LOCAL_RECEIVERS,
  startReceiver,
  verify,
  WEBHOOKS,
  type Receiver,
} from './helpers/webhooks.js';

/**
 * Webhook endpoints as a SUPER_ADMIN manages them (issue 29): the secret is
 * shown once, rotated with an overlap during which both secrets sign, the
 * delivery log, redelivery and the test event; and the URLs the service
 * refuses to call (loopback, private, link-local, metadata) unless
 * configuration allows them.
 */
const ENDPOINTS = `${WEBHOOKS}/endpoints`;

let receiver: Receiver;
before(async () => (receiver = await startReceiver()));
after(() => receiver.close());

describe('managing endpoints', () => {
  const t = useApp({
    // Retries a minute apart, for ten minutes: the tests move the clock to reach them.
    env: { ...LOCAL_RECEIVERS, EVENT_WORKER: 'off', RATE_LIMIT_REGISTER: '0', WEBHOOK_RETRY_BASE_MS: '60000', WEBHOOK_RETRY_FOR: '10m' },
    as: ['ADMIN', 'SUPER_ADMIN'],
  });

  test('only a SUPER_ADMIN manages endpoints', async () => {
    assert.equal((await t.admin.get(ENDPOINTS)).status, 403);
    assert.equal((await t.admin.post(ENDPOINTS, { url: receiver.url, event_types: ['order.placed'] })).status, 403);
    assert.equal((await t.anonymous.get(`${WEBHOOKS}/event-types`)).status, 401);
    const types = expectStatus(await t.superAdmin.get(`${WEBHOOKS}/event-types`), 200);
    assert.ok(types.some((e: any) => e.type === 'order.placed' && e.version === 1 && e.subscribable));
    assert.ok(types.some((e: any) => e.type === 'webhook.test' && !e.subscribable));
  });

  test('the secret is in the creation answer only, and never in the audit log', async () => {
    const endpoint = await createEndpoint(t.superAdmin, receiver.url, ['order.placed', 'customer.registered'], {
      description: 'Warehouse',
    });
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(endpoint.status, 'ACTIVE');
    const read = expectStatus(await t.superAdmin.get(`${ENDPOINTS}/${endpoint.public_id}`), 200);
    assert.equal(read.secret, undefined);
    assert.deepEqual(read.event_types, ['order.placed', 'customer.registered']);
    const listed = expectStatus(await t.superAdmin.get(ENDPOINTS), 200);
    assert.ok(listed.some((e: any) => e.public_id === endpoint.public_id && e.secret === undefined));
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('entity_public_id', '=', endpoint.public_id)
      .execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['webhook.create'],
    );
    assert.doesNotMatch(JSON.stringify(audit), /whsec_/);
  });

  test('bad input is a 400 that creates nothing; unknown endpoints are 404', async () => {
    const count = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM event_targets`.execute(t.db)).rows[0]!.n;
    const before = await count();
    for (const body of [
      { url: receiver.url, event_types: [] },
      { url: receiver.url, event_types: ['order.shipped'] },
      { url: receiver.url, event_types: ['webhook.test'] },
      { url: receiver.url, event_types: ['order.placed', 'order.placed'] },
      { url: 'ftp://127.0.0.1/hooks', event_types: ['order.placed'] },
      { url: 'http://user:pass@127.0.0.1/hooks', event_types: ['order.placed'] },
      { url: 'not a url', event_types: ['order.placed'] },
      { url: `${new URL(receiver.url).origin.replace(/:\d+$/, '')}:0/hooks`, event_types: ['order.placed'] },
      { url: receiver.url, event_types: ['order.placed'], secret: 'whsec_mine' },
    ]) {
      const response = await t.superAdmin.post(ENDPOINTS, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
    assert.equal(await count(), before);
    for (const id of ['whe_doesnotexist0000000000', 'prd_0000000000000000', 'x'])
      assert.equal((await t.superAdmin.get(`${ENDPOINTS}/${id}`)).status, 404);
    assert.equal((await t.superAdmin.patch(`${ENDPOINTS}/whe_doesnotexist0000000000`, { description: 'x' })).status, 404);
  });

  test('a rotated secret signs beside the old one during the overlap; with no overlap the old one stops at once', async () => {
    const own = await startReceiver();
    after(() => own.close());
    const endpoint = await createEndpoint(t.superAdmin, own.url, ['customer.registered']);
    const rotated = expectStatus(await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/rotate-secret`, {}), 200);
    assert.notEqual(rotated.secret, endpoint.secret);
    assert.ok(Date.parse(rotated.previous_secret_expires_at) > Date.now() + 23 * 3_600_000, 'a day of overlap by default');
    await signUp(t);
    await deliverDue(t);
    const during = own.received().at(-1)!;
    assert.equal(verify(endpoint.secret, during).type, 'customer.registered', 'the old secret still verifies');
    assert.equal(verify(rotated.secret, during).type, 'customer.registered', 'and the new one');

    const again = expectStatus(await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/rotate-secret`, { overlap_seconds: 0 }), 200);
    assert.equal(again.previous_secret_expires_at, null);
    await signUp(t);
    await deliverDue(t);
    const later = own.received().at(-1)!;
    assert.equal(verify(again.secret, later).type, 'customer.registered');
    assert.throws(() => verify(rotated.secret, later), /No matching signature/);
    assert.throws(() => verify(endpoint.secret, later), /No matching signature/);
  });

  test('"send test event" reaches that endpoint only; the log shows the attempts made, the last answer and why an earlier one failed', async () => {
    const own = await startReceiver();
    after(() => own.close());
    own.answer = (_arrival, count) => (count === 0 ? { status: 503, body: 'x'.repeat(5000) } : { status: 200, body: 'thanks' });
    const endpoint = await createEndpoint(t.superAdmin, own.url, ['order.placed']);
    const bystander = await createEndpoint(t.superAdmin, receiver.url, ['order.placed', 'customer.registered']);
    const queued = await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/test`, {});
    assert.equal(queued.status, 202, queued.text);
    assert.equal(queued.body.data.status, 'PENDING');
    assert.equal(queued.body.data.event.type, 'webhook.test');

    await deliverDue(t); // the 503
    let [entry] = await deliveryLog(t.superAdmin, endpoint.public_id, 'event_type=webhook.test');
    assert.equal(entry.status, 'PENDING');
    assert.equal(entry.attempts, 1);
    assert.equal(entry.response_status, 503);
    assert.equal(entry.response_body, 'x'.repeat(1024), 'the first kilobyte of the answer');
    assert.match(entry.error, /503/);
    assert.ok(entry.latency_ms >= 0);
    assert.ok(Date.parse(entry.next_attempt_at) > Date.now() + 40_000, 'retried in a minute (less a quarter at most)');
    t.clock.advance(2 * 60_000); // (a signature's timestamp may be five minutes off)
    await deliverDue(t);
    t.clock.offsetMs = 0;
    [entry] = await deliveryLog(t.superAdmin, endpoint.public_id, 'event_type=webhook.test');
    assert.equal(entry.status, 'SUCCEEDED');
    assert.equal(entry.attempts, 2);
    assert.equal(entry.response_body, 'thanks');
    assert.match(entry.error, /answered 503/, 'why it took two attempts');

    const sent = own.arrivals.map((arrival) => verify(endpoint.secret, arrival));
    assert.deepEqual(
      sent.map((e) => [e.type, e.id, e.data.endpoint_public_id]),
      [
        ['webhook.test', entry.event.public_id, endpoint.public_id],
        ['webhook.test', entry.event.public_id, endpoint.public_id],
      ],
    );
    assert.equal((await deliveryLog(t.superAdmin, bystander.public_id)).length, 0, 'no other endpoint gets it');
    const detail = expectStatus(await t.superAdmin.get(`${ENDPOINTS}/${endpoint.public_id}/deliveries/${entry.public_id}`), 200);
    assert.deepEqual(detail.payload, JSON.parse(own.arrivals[1]!.body));
    assert.equal((await t.superAdmin.get(`${ENDPOINTS}/${bystander.public_id}/deliveries/${entry.public_id}`)).status, 404);
  });

  /** A receiver of this test's own that answers 500 until told otherwise; closed after the file. */
  async function failingReceiver(): Promise<Receiver> {
    const own = await startReceiver();
    after(() => own.close());
    own.answer = () => ({ status: 500 });
    return own;
  }

  /** Past the retry window (ten minutes): the next failure of each delivery due is its last. */
  async function pastTheRetryWindow(): Promise<void> {
    t.clock.advance(11 * 60_000);
    try {
      await deliverDue(t);
    } finally {
      t.clock.offsetMs = 0;
    }
  }

  test('redelivery: one delivery again under the same webhook-id, or every one that failed for good since a time', async () => {
    const own = await failingReceiver();
    const endpoint = await createEndpoint(t.superAdmin, own.url, ['customer.registered']);
    // One event before `since`, which a redelivery since then must leave alone; two after it.
    await signUp(t);
    await deliverDue(t);
    const [before] = await deliveryLog(t.superAdmin, endpoint.public_id);
    await sleep(5);
    const since = new Date().toISOString();
    await signUp(t);
    await signUp(t);
    await deliverDue(t);
    await pastTheRetryWindow();
    const failed = (await deliveryLog(t.superAdmin, endpoint.public_id, 'status=FAILED')).filter((d) => d.public_id !== before.public_id);
    assert.equal(failed.length, 2);
    assert.ok(failed.every((d) => d.attempts === 2 && d.next_attempt_at === null));

    own.answer = () => ({ status: 204 });
    const one = await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/deliveries/${failed[0].public_id}/redeliver`, {});
    assert.equal(one.status, 202, one.text);
    assert.equal(one.body.data.status, 'PENDING');
    await deliverDue(t);
    assert.deepEqual(
      own.received().map((arrival) => verify(endpoint.secret, arrival).id),
      [failed[0].event.public_id],
      'the same webhook-id as before',
    );

    const rest = await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/redeliver`, { since });
    assert.equal(rest.status, 202, rest.text);
    assert.deepEqual(rest.body.data, { redelivered: 1 });
    const none = await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/redeliver`, {
      since: new Date(Date.now() + 60_000).toISOString(),
    });
    assert.deepEqual(none.body.data, { redelivered: 0 });
    await deliverDue(t);
    assert.deepEqual(new Set(own.received().map((arrival) => arrival.id)), new Set(failed.map((d) => d.event.public_id)));
    assert.equal((await deliveryLog(t.superAdmin, endpoint.public_id, 'status=SUCCEEDED')).length, 2);
    assert.deepEqual(
      (await deliveryLog(t.superAdmin, endpoint.public_id, 'status=FAILED')).map((d) => d.public_id),
      [before.public_id],
      'the failure from before `since` is left as it was',
    );
    // A succeeded delivery can be sent again too.
    expectStatus(await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/deliveries/${failed[1].public_id}/redeliver`, {}), 202);
    await deliverDue(t);
    assert.equal(own.received().filter((arrival) => arrival.id === failed[1].event.public_id).length, 2);
  });

  test('a redelivery that fails again starts a new round: its first wait is the shortest again, not the longest', async () => {
    const own = await failingReceiver();
    const endpoint = await createEndpoint(t.superAdmin, own.url, ['customer.registered']);
    await signUp(t);
    await deliverDue(t);
    await pastTheRetryWindow();
    const [failed] = await deliveryLog(t.superAdmin, endpoint.public_id, 'status=FAILED');
    assert.equal(failed.attempts, 2);

    expectStatus(await t.superAdmin.post(`${ENDPOINTS}/${endpoint.public_id}/deliveries/${failed.public_id}/redeliver`, {}), 202);
    await deliverDue(t);
    const [again] = await deliveryLog(t.superAdmin, endpoint.public_id);
    assert.equal(again.status, 'PENDING');
    assert.equal(again.attempts, 3, 'the log still counts every attempt');
    // The round's first retry: the base (a minute here) jittered by a quarter; the third attempt of one round would wait four.
    const waitMs = Date.parse(again.next_attempt_at) - Date.parse(again.last_attempt_at);
    assert.ok(waitMs >= 45_000 && waitMs <= 75_000, `${waitMs} ms`);
  });

  test('a deleted endpoint gets nothing more: what it had not received is cancelled', async () => {
    const own = await startReceiver();
    after(() => own.close());
    own.answer = () => ({ status: 500 });
    const endpoint = await createEndpoint(t.superAdmin, own.url, ['customer.registered']);
    await signUp(t);
    await deliverDue(t); // tried once, failed: a retry is PENDING
    await signUp(t); // not yet read from the stream
    expectStatus(await t.superAdmin.delete(`${ENDPOINTS}/${endpoint.public_id}`), 204);
    await signUp(t);
    t.clock.advance(3_600_000);
    try {
      await deliverDue(t);
    } finally {
      t.clock.offsetMs = 0;
    }
    assert.equal(own.arrivals.length, 1, 'only the attempt before the deletion');
    assert.equal((await t.superAdmin.get(`${ENDPOINTS}/${endpoint.public_id}`)).status, 404);
    const states = await t.db
      .selectFrom('event_deliveries as d')
      .innerJoin('event_targets as t', 't.id', 'd.target_id')
      .select('d.state')
      .where('t.public_id', '=', endpoint.public_id)
      .execute();
    assert.deepEqual(
      states.map((s) => s.state),
      ['CANCELLED'],
    );
  });

  test('pausing keeps the events; resuming sends them, and the pending ones of a product in order', async () => {
    const own = await startReceiver();
    after(() => own.close());
    const endpoint = await createEndpoint(t.superAdmin, own.url, ['product.created', 'product.updated'], { status: 'PAUSED' });
    assert.equal(endpoint.status, 'PAUSED');
    const { productId } = await sellableVariant(t.admin);
    expectStatus(await t.admin.patch(`${API}/admin/products/${productId}`, { name: 'Renamed' }), 200);
    await deliverDue(t);
    assert.equal(own.arrivals.length, 0, 'a paused endpoint receives nothing');
    const paused = expectStatus(await t.superAdmin.get(`${ENDPOINTS}/${endpoint.public_id}`), 200);
    assert.equal(paused.paused_reason, 'MANUAL');

    expectStatus(await t.superAdmin.patch(`${ENDPOINTS}/${endpoint.public_id}`, { status: 'ACTIVE' }), 200);
    await deliverDue(t);
    const got = own.received().map((arrival) => verify(endpoint.secret, arrival));
    // Created, then the variant added, then the rename: each a full product as it was then.
    assert.deepEqual(
      got.map((e) => [e.type, e.data.product.name === 'Renamed', e.data.product.variants.length]),
      [
        ['product.created', false, 0],
        ['product.updated', false, 1],
        ['product.updated', true, 1],
      ],
    );
  });
  test("a paused endpoint holds only its own types' events in the stream, not everyone's", async () => {
    const own = await startReceiver();
    after(() => own.close());
    await createEndpoint(t.superAdmin, own.url, ['customer.registered']);
    const paused = await createEndpoint(t.superAdmin, own.url, ['review.approved'], { status: 'PAUSED' });
    const { email } = await signUp(t);
    await deliverDue(t);
    const inStream = async () =>
      (
        await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM event_stream s JOIN events e ON e.id = s.event_id
          WHERE e.type = 'customer.registered' AND e.payload -> 'customer' ->> 'email' = ${email}`.execute(t.db)
      ).rows[0]!.n;
    assert.equal(await inStream(), 1, 'placed, and behind the paused endpoint');
    await t.app.pruner.runOnce();
    // Its retention is then the deliveries' and events' own (RETAIN_EVENTS), whatever the paused endpoint does.
    assert.equal(await inStream(), 0, 'no live endpoint that has not read it takes its type');
    expectStatus(await t.superAdmin.delete(`${ENDPOINTS}/${paused.public_id}`), 204);
  });

  test('events and finished deliveries are pruned after RETAIN_EVENTS; an event a delivery still waits for stays', async () => {
    const own = await startReceiver();
    after(() => own.close());
    // A type only these two endpoints take: one delivers it, the other (paused) still owes it.
    await createEndpoint(t.superAdmin, own.url, ['inventory.low_stock']);
    const waiting = await createEndpoint(t.superAdmin, own.url, ['inventory.low_stock'], { status: 'PAUSED' });
    const { variantId } = await sellableVariant(t.admin, { stock: 5 });
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variantId}`, { reorder_level: 5 }), 200);
    await deliverDue(t);
    const rows = () =>
      t.db
        .selectFrom('events as e')
        .leftJoin('event_deliveries as d', 'd.event_id', 'e.id')
        .select(['e.id', 'd.state'])
        .where('e.ordering_key', '=', variantId)
        .orderBy('d.state')
        .execute();
    // The paused endpoint has not read it from the stream: no delivery row yet.
    assert.deepEqual(
      (await rows()).map((r) => r.state),
      ['SUCCEEDED'],
    );

    t.clock.advance(31 * 86_400_000);
    try {
      const first = await t.app.pruner.runOnce();
      assert.ok(first.deliveriesDeleted >= 1);
      assert.deepEqual(
        (await rows()).map((r) => r.state),
        [null],
        'the paused endpoint still owes it: the event stays',
      );
      t.clock.offsetMs = 0; // (a month on, the admin's session would have ended)
      expectStatus(await t.superAdmin.delete(`${ENDPOINTS}/${waiting.public_id}`), 204);
      t.clock.advance(31 * 86_400_000);
      const second = await t.app.pruner.runOnce();
      assert.ok(second.eventsDeleted >= 1);
      assert.deepEqual(await rows(), []);
    } finally {
      t.clock.offsetMs = 0;
    }
  });
});

describe('addresses webhooks may not call, without an allow-list', () => {
  // The defaults: https only, nothing allowed.
  const t = useApp({ env: { EVENT_WORKER: 'off' }, as: ['SUPER_ADMIN'] });

  test('loopback, private, link-local and metadata addresses are refused, and http without WEBHOOK_ALLOW_HTTP', async () => {
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost/hooks',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[fd00:ec2::254]/latest/meta-data/',
      'https://2130706433/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.1.10/hooks',
      'https://172.20.0.1/hooks',
      'https://0.0.0.0/hooks',
      'https://100.64.0.1/hooks',
      'http://hooks.example.com/hooks',
    ]) {
      const response = await t.superAdmin.post(ENDPOINTS, { url, event_types: ['order.placed'] });
      assert.equal(response.status, 400, `${url}: ${response.text}`);
      const error = errorOf(response);
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.equal(error.details?.[0]?.field, 'url');
    }
    const metadata = errorOf(await t.superAdmin.post(ENDPOINTS, { url: 'https://169.254.169.254/', event_types: ['order.placed'] }));
    assert.match(metadata.message, /link-local/);
    assert.equal((await t.superAdmin.get(ENDPOINTS)).body.meta.total, 0);
  });

  test('a public https address is accepted', async () => {
    const endpoint = await createEndpoint(t.superAdmin, 'https://203.0.113.10/hooks', ['order.placed']);
    assert.equal(endpoint.url, 'https://203.0.113.10/hooks');
    const moved = await t.superAdmin.patch(`${ENDPOINTS}/${endpoint.public_id}`, { url: 'https://169.254.169.254/' });
    assert.equal(moved.status, 400, 'an edit is checked too');
  });
});
