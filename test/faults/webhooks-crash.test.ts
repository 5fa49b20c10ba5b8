import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkout, inBatches, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs, signUp } from '../helpers/factories.js';
import { sleep, waitFor } from '../helpers/mail.js';
import { fileDatabase, serviceTarget, startService } from '../helpers/service.js';
import { freePort } from '../../src/lib/ports.js';
import { PER_TARGET } from '../../src/events/dispatcher.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, verify, type Receiver } from '../helpers/webhooks.js';

/**
 * Webhooks after a crash (issue 29). A service is killed (kill -9) while
 * checkouts are in flight and its dispatcher is sending to a slow receiver;
 * a new service on the same database sends the rest: every stored order's
 * order.placed event arrives, validly signed, and an event arrives twice
 * only if it was sent and not yet marked delivered at the kill (at most one
 * share of a batch), under the same webhook-id. And
 * `npm run worker` delivers for an API running with EVENT_WORKER=off.
 */
const file = fileDatabase();
let receiver: Receiver;
before(async () => (receiver = await startReceiver()));
after(() => receiver.close());

const env = () => ({
  ...LOCAL_RECEIVERS,
  EVENT_LEASE_MS: '3000',
  EVENT_POLL_INTERVAL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '1000',
  RATE_LIMIT_CHECKOUT: '0',
  RATE_LIMIT_REGISTER: '0',
});

test('kill -9 mid-delivery and under checkout load: after a restart every stored order has its event delivered, a repeat only of one in flight', async () => {
  // Each answer takes 150 ms, and the sixth is never answered: the kill comes while it is in flight,
  // however late a loaded machine lets this process see it arrive.
  const slowly = () => ({ status: 204, after: sleep(150) });
  receiver.answer = (_arrival, count) => (count < 5 ? slowly() : 'hang');
  const first = await startService({ databaseUrl: file.database.url, env: env() });
  const target = serviceTarget(first, file.db);
  const { client: superAdmin } = await signInAs(target, 'SUPER_ADMIN');
  const endpoint = await createEndpoint(superAdmin, receiver.url, ['order.placed']);
  const { client: admin } = await signInAs(target, 'ADMIN');
  const { variantId } = await sellableVariant(admin, { stock: 1000 });
  const shoppers = await inBatches(40, 5, () => shopper(target, [{ variantId, quantity: 1 }]));
  const early = await Promise.all(shoppers.slice(0, 25).map((s) => checkout(s.client, s.addressId)));
  for (const response of early) assert.equal(response.status, 201, response.text);

  await receiver.waitFor((arrivals) => arrivals.length >= 6, 30_000);
  const late = shoppers.slice(25).map((s) => checkout(s.client, s.addressId).catch(() => null));
  await sleep(20);
  first.signal('SIGKILL');
  await first.exited;
  receiver.answer = slowly;
  // What the dead service sent with no outcome recorded yet is what may arrive twice because of the kill (a
  // share's marks follow its answers). A hung attempt that timed out before the kill (a loaded machine may
  // see the sixth arrival late) was recorded as failed, and its resend is an ordinary retry.
  const sentBeforeKill = new Set(receiver.arrivals.map((a) => a.id));
  const outcomes = await file.db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['e.public_id', 'd.state'])
    .where((w) => w.or([w('d.state', '=', 'SUCCEEDED'), w('d.attempts', '>', 0)]))
    .execute();
  const markedBeforeKill = new Set(outcomes.filter((o) => o.state === 'SUCCEEDED').map((o) => o.public_id));
  const failedBeforeKill = new Set(outcomes.filter((o) => o.state !== 'SUCCEEDED').map((o) => o.public_id));
  const unmarked = [...sentBeforeKill].filter((id) => !markedBeforeKill.has(id) && !failedBeforeKill.has(id));
  assert.ok(unmarked.length > 0, 'the kill came while deliveries were in flight (sent, not yet marked delivered)');
  const acknowledged = [...early, ...(await Promise.all(late))]
    .filter((r) => r?.status === 201)
    .map((r) => r!.body.data.public_id as string);

  const second = await startService({ databaseUrl: file.database.url, env: env() });
  try {
    const orders = (await file.db.selectFrom('orders').select('public_id').execute()).map((o) => o.public_id);
    for (const id of acknowledged) assert.ok(orders.includes(id), `acknowledged order ${id} is stored`);
    const events = await file.db.selectFrom('events').select(['public_id', 'payload']).where('type', '=', 'order.placed').execute();
    assert.deepEqual(new Set(events.map((e) => (e.payload as any).order.public_id)), new Set(orders), 'one event per stored order');
    assert.equal(events.length, orders.length);

    await waitFor(() => new Set(receiver.received().map((a) => a.id)).size === events.length, 60_000);
    for (const arrival of receiver.received()) verify(endpoint.secret, arrival);
    assert.deepEqual(new Set(receiver.received().map((a) => a.id)), new Set(events.map((e) => e.public_id)));
    const times = new Map<string, number>();
    for (const arrival of receiver.arrivals) times.set(arrival.id, (times.get(arrival.id) ?? 0) + 1);
    const repeated = [...times].filter(([, n]) => n > 1).map(([id]) => id);
    for (const id of repeated)
      assert.ok(unmarked.includes(id) || failedBeforeKill.has(id), `${id} came twice though it was marked delivered before the kill`);
    const resentAfterKill = repeated.filter((id) => unmarked.includes(id));
    assert.ok(resentAfterKill.length <= PER_TARGET, `${resentAfterKill.length} repeats of the kill: at most the one share in flight`);
    // And the log says so (the marks follow the answers).
    await waitFor(
      async () => (await file.db.selectFrom('event_deliveries').select('id').where('state', '<>', 'SUCCEEDED').execute()).length === 0,
      10_000,
    );
  } finally {
    await second.stop();
  }
});

test('`npm run worker` delivers webhooks and purges for an API running with EVENT_WORKER=off, reports them on its own /metrics, and stops cleanly', async () => {
  receiver.answer = () => ({ status: 204 });
  const metricsPort = await freePort();
  const purging = {
    CACHE_PURGE_URLS: `${receiver.url}/purge`,
    CACHE_PURGE_TOKEN: 'purge-token-0123456789',
    CACHE_PURGE_TIMEOUT_MS: '1000',
  };
  const api = await startService({
    databaseUrl: file.database.url,
    env: { ...env(), ...purging, EVENT_WORKER: 'off', EMAIL_WORKER: 'off' },
  });
  const worker = await startService({
    databaseUrl: file.database.url,
    entry: 'worker.ts',
    waitForReady: false,
    env: { ...env(), ...purging, WORKER_METRICS_PORT: String(metricsPort) },
  });
  try {
    await worker.waitForLog((l) => l.msg === 'event dispatcher started');
    const target = serviceTarget(api, file.db);
    const { client: superAdmin } = await signInAs(target, 'SUPER_ADMIN');
    const endpoint = await createEndpoint(superAdmin, receiver.url, ['customer.registered']);
    const { user } = await signUp(target);
    const arrival = await receiver.waitFor(
      (arrivals) => arrivals.find((a) => a.event?.data?.customer?.public_id === user.public_id),
      15_000,
    );
    verify(endpoint.secret, arrival);

    // A catalog change: the worker purges it, and its /metrics, the only process sending purges, says so.
    const { client: admin } = await signInAs(target, 'ADMIN');
    await sellableVariant(admin, { stock: 3 });
    const sent = `cache_purges_sent_total{cache="${new URL(receiver.url).origin}"}`;
    const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    await waitFor(async () => (sample(await scrape(), sent) ?? 0) >= 1, 15_000);
    const text = await scrape();
    assert.equal(sample(text, 'event_deliveries_pending'), 0, 'the webhook delivered');
    assert.ok(sample(text, 'outbox_pending_messages') !== undefined, 'the email backlog it works on');
    assert.ok(sample(text, 'db_pool_connections{state="max"}')! > 0);
    assert.ok(sample(text, 'process_resident_memory_bytes')! > 0);
    assert.equal((await worker.stop()).code, 0, worker.output().slice(-2000));
  } finally {
    await worker.stop();
    await api.stop();
  }
});

/** The value of one sample line of a scrape, e.g. sample(text, 'event_deliveries_pending'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
