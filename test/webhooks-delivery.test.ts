import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { freePort } from '../src/lib/ports.js';
import { createMetrics } from '../src/metrics/metrics.js';
import { createAddressPolicy } from '../src/webhooks/address-policy.js';
import { createHttpSender } from '../src/webhooks/http-sender.js';
import { API, expectStatus } from './helpers/catalog.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { signUp } from './helpers/factories.js';
import { sleep, waitFor } from './helpers/mail.js';
import { STAFF_SESSIONS_OUTLAST_THE_CLOCK } from './helpers/sessions.js';
import { useApp } from './helpers/use-app.js';
import { createEndpoint, deliveryLog, LOCAL_RECEIVERS, startReceiver, verify, WEBHOOKS, type Receiver } from './helpers/webhooks.js';

/**
 * Delivery (issue 29) by the dispatcher running in the app as it does in
 * production: at least once, retried with backoff under the same webhook-id
 * while a receiver fails, hangs or is down, in order per resource, never
 * following a redirect or reading more than a kilobyte, never calling an
 * address it may not (checked again at every attempt), and pausing an
 * endpoint that fails for a day, with an email to the super admins.
 */
const receivers: Receiver[] = [];
const receiver = async (port?: number) => {
  const started = await startReceiver(port);
  receivers.push(started);
  return started;
};
after(() => Promise.all(receivers.map((r) => r.close())));

const FAST = {
  ...LOCAL_RECEIVERS,
  ...STAFF_SESSIONS_OUTLAST_THE_CLOCK,
  EVENT_POLL_INTERVAL_MS: '20',
  EVENT_LEASE_MS: '2000',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_MS: '200',
  RATE_LIMIT_REGISTER: '0',
  RATE_LIMIT_CHECKOUT: '0',
  EMAIL_POLL_INTERVAL_MS: '20',
};

describe('retries', () => {
  const t = useApp({ env: FAST, as: ['ADMIN', 'SUPER_ADMIN'] });

  test('a receiver answering 500 gets the same webhook-id, validly signed, until it takes it; then nothing more', async () => {
    const r = await receiver();
    r.answer = (_arrival, count) => (count < 2 ? { status: 500, body: 'broken' } : { status: 200 });
    const endpoint = await createEndpoint(t.superAdmin, r.url, ['customer.registered']);
    const { user } = await signUp(t);
    await r.waitFor((arrivals) => arrivals.some((a) => a.status === 200));
    await sleep(300); // a few polls more: nothing else may come
    assert.equal(r.arrivals.length, 3);
    assert.equal(new Set(r.arrivals.map((a) => a.id)).size, 1, 'one webhook-id on every attempt');
    for (const arrival of r.arrivals) assert.equal(verify(endpoint.secret, arrival).data.customer.public_id, user.public_id);
    // The dispatcher records the outcome after the receiver has answered: wait for it, do not race it.
    const entry = await waitForLog(t, endpoint.public_id, (d) => d.status === 'SUCCEEDED');
    assert.equal(entry.attempts, 3);
  });

  test('a receiver that does not answer within the timeout is tried again', async () => {
    const r = await receiver();
    r.answer = (_arrival, count) => (count === 0 ? 'hang' : { status: 204 });
    const endpoint = await createEndpoint(t.superAdmin, r.url, ['customer.registered']);
    await signUp(t);
    await r.waitFor(() => r.received().length === 1);
    assert.equal(r.arrivals.length, 2);
    assert.equal(r.arrivals[0]!.id, r.arrivals[1]!.id);
    verify(endpoint.secret, r.arrivals[1]!);
    const entry = await waitForLog(t, endpoint.public_id, (d) => d.status === 'SUCCEEDED');
    assert.equal(entry.attempts, 2);
  });

  test('a receiver that is down gets the event once it is back', async () => {
    const port = await freePort();
    const endpoint = await createEndpoint(t.superAdmin, `http://127.0.0.1:${port}/hooks`, ['customer.registered']);
    const { user } = await signUp(t);
    const failing = await waitForLog(t, endpoint.public_id, (d) => d.attempts >= 2);
    assert.match(failing.error, /ECONNREFUSED/);
    assert.equal(failing.status, 'PENDING');
    // The backlog an operator alerts on.
    const metrics = await createMetrics({ db: t.db, clock: t.clock }).registry.metrics();
    assert.match(metrics, /^event_deliveries_pending [1-9]/m);
    assert.match(metrics, /^event_oldest_pending_delivery_age_seconds (?!0\n)\d/m);
    const back = await receiver(port);
    await back.waitFor(() => back.received().length === 1);
    assert.equal(verify(endpoint.secret, back.received()[0]!).data.customer.public_id, user.public_id);
    assert.equal(back.received()[0]!.id, failing.event.public_id);
  });

  test("while one of an order's events is being retried, its later ones wait; they arrive in order", async () => {
    const r = await receiver();
    let failing = true;
    r.answer = (arrival) => (arrival.event?.type === 'order.placed' && failing ? { status: 503 } : { status: 204 });
    const endpoint = await createEndpoint(t.superAdmin, r.url, ['order.placed', 'order.status_changed']);
    const { variantId } = await sellableVariant(t.admin);
    const s = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = expectStatus(await checkout(s.client, s.addressId), 201);
    for (const status of ['CONFIRMED', 'SHIPPED'])
      expectStatus(
        await t.admin.patch(`${API}/admin/orders/${order.public_id}`, { status, ...(status === 'SHIPPED' ? { carrier: 'UPS' } : {}) }),
        200,
      );
    // Both status changes exist now; while order.placed keeps failing, neither may go out.
    const tries = r.arrivals.length;
    await r.waitFor((arrivals) => arrivals.length >= tries + 3);
    assert.ok(
      r.arrivals.every((a) => a.event.type === 'order.placed'),
      'a later event of the order went out before its order.placed',
    );
    failing = false;
    await r.waitFor(() => r.received().length === 3);
    const seen = r.received().map((a) => `${verify(endpoint.secret, a).type}:${a.event.data.to ?? ''}`);
    assert.deepEqual(seen, ['order.placed:', 'order.status_changed:CONFIRMED', 'order.status_changed:SHIPPED']);
    assert.equal(r.received()[2]!.event.data.order.shipment.carrier, 'UPS');
  });

  test('a redirect is a failure and is not followed; at most a kilobyte of an answer is read', async () => {
    const elsewhere = await receiver();
    const r = await receiver();
    r.answer = () => ({ status: 302, headers: { location: elsewhere.url } });
    const endpoint = await createEndpoint(t.superAdmin, r.url, ['customer.registered']);
    await signUp(t);
    const entry = await waitForLog(t, endpoint.public_id, (d) => d.attempts >= 2);
    assert.equal(entry.response_status, 302);
    assert.match(entry.error, /redirects are not followed/);
    assert.equal(elsewhere.arrivals.length, 0);
    expectStatus(await t.superAdmin.delete(`${WEBHOOKS}/endpoints/${endpoint.public_id}`), 204);

    // An answer that never ends: its first kilobyte is read, then the connection dropped, and the 200 counts.
    const endless = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('z'.repeat(4096)); // and never ends it
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', () => resolve()));
    after(() => new Promise<void>((resolve) => (endless.closeAllConnections(), endless.close(() => resolve()))));
    const { port } = endless.address() as AddressInfo;
    const streaming = await createEndpoint(t.superAdmin, `http://127.0.0.1:${port}/endless`, ['customer.registered']);
    await signUp(t);
    const read = await waitForLog(t, streaming.public_id, (d) => d.status === 'SUCCEEDED');
    assert.equal(read.response_body, 'z'.repeat(1024));
    assert.equal(read.attempts, 1);
  });
});

describe('a slow receiver', () => {
  // Attempts may take a minute here: if one hanging receiver held up anything else, the test would wait for it.
  const t = useApp({ env: { ...FAST, WEBHOOK_TIMEOUT_MS: '60000', EVENT_LEASE_MS: '120000' }, as: ['SUPER_ADMIN'] });

  test('never delays the deliveries to other endpoints, nor the API', async () => {
    const slow = await receiver();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    slow.answer = () => ({ status: 204, after: released });
    const fast = await receiver();
    await createEndpoint(t.superAdmin, slow.url, ['customer.registered']);
    const endpoint = await createEndpoint(t.superAdmin, fast.url, ['customer.registered']);
    const emails: string[] = [];
    for (let i = 0; i < 15; i++) {
      emails.push((await signUp(t)).email); // the API answers while the slow receiver holds its requests
      if (i === 0) await slow.waitFor((arrivals) => arrivals.length > 0);
    }
    await fast.waitFor(() => fast.received().length === 15, 30_000);
    assert.ok(
      slow.arrivals.every((a) => a.status === null),
      'the slow receiver has not answered anything yet',
    );
    assert.deepEqual(new Set(fast.received().map((a) => verify(endpoint.secret, a).data.customer.email)), new Set(emails));
    release();
    await slow.waitFor(() => slow.received().length === 15, 30_000);
  });
});

describe('an endpoint failing for a day', () => {
  const t = useApp({ env: FAST, as: ['SUPER_ADMIN'], mail: true });

  test('is paused and the super admins are emailed; it receives nothing until resumed, then everything', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 500 });
    const endpoint = await createEndpoint(t.superAdmin, r.url, ['customer.registered']);
    const first = await signUp(t);
    await waitForLog(t, endpoint.public_id, (d) => d.attempts >= 2);
    t.clock.advance(25 * 3_600_000);
    const mail = await t.mail.waitForMail(t.superAdmin.email, 'A webhook endpoint was paused');
    assert.match(mail.raw, new RegExp(endpoint.public_id));
    const paused = expectStatus(await t.superAdmin.get(`${WEBHOOKS}/endpoints/${endpoint.public_id}`), 200);
    assert.equal(paused.status, 'PAUSED');
    assert.equal(paused.paused_reason, 'FAILING');
    t.clock.offsetMs = 0;

    r.answer = () => ({ status: 204 });
    const second = await signUp(t);
    const tried = r.arrivals.length;
    await sleep(300); // polls: a paused endpoint is not called
    assert.equal(r.arrivals.length, tried);

    expectStatus(await t.superAdmin.patch(`${WEBHOOKS}/endpoints/${endpoint.public_id}`, { status: 'ACTIVE' }), 200);
    await r.waitFor(() => r.received().length === 2);
    // Two customers are two resources: order is promised per resource only, so both are due at once and may arrive either way.
    assert.deepEqual(
      r
        .received()
        .map((a) => verify(endpoint.secret, a).data.customer.email)
        .sort(),
      [first.email, second.email].sort(),
    );
    const resumed = expectStatus(await t.superAdmin.get(`${WEBHOOKS}/endpoints/${endpoint.public_id}`), 200);
    assert.equal(resumed.failing_since, null);
  });
});

describe('an endpoint failing for a day, retried at the default backoff', () => {
  // The default retry policy (10 s doubling to 12 h), in test-clock time: each next attempt is made due by moving the clock.
  const t = useApp({
    env: {
      ...FAST,
      WEBHOOK_RETRY_BASE_MS: '10000',
      WEBHOOK_RETRY_MAX_MS: String(12 * 3_600_000),
      WEBHOOK_TIMEOUT_MS: '2000',
      EVENT_LEASE_MS: '5000',
    },
    as: ['SUPER_ADMIN'],
  });

  test('is paused when its day of failures is over, not at the first backoff step past it (some 11 hours later)', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 500 });
    const endpoint = await createEndpoint(t.superAdmin, r.url, ['customer.registered']);
    const target = await t.db
      .selectFrom('event_targets')
      .select('id')
      .where('public_id', '=', endpoint.public_id)
      .executeTakeFirstOrThrow();
    const state = () =>
      t.db
        .selectFrom('event_targets as t')
        .leftJoin('event_deliveries as d', (join) => join.onRef('d.target_id', '=', 't.id').on('d.state', '=', 'PENDING'))
        .select(['t.status', 't.failing_since', 't.paused_at', 'd.attempts', 'd.next_attempt_at'])
        .where('t.id', '=', target.id)
        .executeTakeFirstOrThrow();
    await signUp(t);
    try {
      let now = await waitFor(async () => {
        const s = await state();
        return s.attempts === 1 && s;
      }, 10_000);
      for (let step = 0; now.status !== 'PAUSED'; step++) {
        assert.ok(step < 30, 'paused within 30 attempts');
        const { attempts, next_attempt_at: due } = now;
        // The next attempt is due: the dispatcher (polling every 20 ms) makes it, and records it or the pause.
        t.clock.advance(Math.max(0, due!.getTime() - t.clock.now().getTime()) + 1);
        now = await waitFor(async () => {
          const s = await state();
          return (s.status === 'PAUSED' || s.attempts! > attempts!) && s;
        }, 10_000);
      }
      const late = now.paused_at!.getTime() - now.failing_since!.getTime() - 86_400_000;
      assert.ok(late >= 0 && late < 60_000, `paused ${Math.round(late / 60_000)} minutes after its day of failures`);
    } finally {
      t.clock.offsetMs = 0;
    }
  });
});

describe('addresses refused at every attempt', () => {
  // http allowed (local receivers), but no address allowed: as if the allow-list had been removed since the endpoint was made.
  const t = useApp({ env: { ...FAST, WEBHOOK_ALLOWED_NETWORKS: '' }, as: ['SUPER_ADMIN'] });

  test('an endpoint whose URL now names 127.0.0.1 or 169.254.169.254 is never called', async () => {
    const r = await receiver();
    for (const url of [r.url, 'http://169.254.169.254/latest/meta-data/']) {
      const endpoint = await createEndpoint(t.superAdmin, 'http://203.0.113.10/hooks', ['customer.registered']);
      // Written past the API's check, as a URL made under another configuration would be.
      await t.db
        .updateTable('webhook_endpoints')
        .set({ url })
        .where('target_id', '=', (eb) => eb.selectFrom('event_targets').select('id').where('public_id', '=', endpoint.public_id))
        .execute();
      await signUp(t);
      const entry = await waitForLog(t, endpoint.public_id, (d) => d.attempts >= 1);
      assert.match(entry.error, /refused: (127\.0\.0\.1 is a loopback|169\.254\.169\.254 is a link-local) address/);
      assert.equal(entry.response_status, null);
      expectStatus(await t.superAdmin.delete(`${WEBHOOKS}/endpoints/${endpoint.public_id}`), 204);
    }
    assert.equal(r.arrivals.length, 0);
  });

  test('a host name is resolved and checked at each attempt, and the request goes to the address checked', async () => {
    const r = await receiver();
    // A DNS server that answers as an attacker's would: a public address first (when the endpoint was saved), loopback now.
    let answer = '127.0.0.1';
    const resolve = async () => [{ address: answer, family: 4 }];
    const url = `http://hooks.example.test:${r.port}/hooks`;
    const strict = createHttpSender({ policy: createAddressPolicy([]), timeoutMs: 2000, maxBodyBytes: 1024, resolve });
    const allowing = createHttpSender({ policy: createAddressPolicy(['127.0.0.1']), timeoutMs: 2000, maxBodyBytes: 1024, resolve });
    after(() => (strict.close(), allowing.close()));
    const refused = await strict.post(url, {}, '{}');
    assert.match(refused.error ?? '', /refused: hooks\.example\.test resolves to 127\.0\.0\.1 is a loopback address/);
    answer = '::ffff:127.0.0.1';
    assert.match((await strict.post(url, {}, '{}')).error ?? '', /carries 127\.0\.0\.1 is a loopback address/);
    assert.equal(r.arrivals.length, 0, 'nothing was sent');
    // Allowed, the request goes to the resolved address (the name itself resolves nowhere).
    answer = '127.0.0.1';
    const sent = await allowing.post(url, { 'webhook-id': 'evt_test' }, '{"ok":true}');
    assert.equal(sent.status, 204, sent.error ?? '');
    assert.equal(r.arrivals[0]!.body, '{"ok":true}');
  });
});

/** Polls an endpoint's newest delivery until `done` holds; returns it. */
async function waitForLog(t: { superAdmin: any }, endpoint: string, done: (delivery: any) => boolean) {
  for (let i = 0; i < 500; i++) {
    const [newest] = await deliveryLog(t.superAdmin, endpoint);
    if (newest && done(newest)) return newest;
    await sleep(20);
  }
  throw new Error(`no delivery of ${endpoint} became what the test waits for`);
}
