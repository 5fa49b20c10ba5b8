import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, test } from 'node:test';
import { PER_TARGET } from '../src/events/dispatcher.js';
import { sql } from 'kysely';
import { startTestApp } from './helpers/app.js';
import { backlog, connectTo, goesOutAtOnce, of, POLL_MS, requestHeldOpen, YIELDING_AT_ONE_REQUEST } from './helpers/busy-api.js';
import { someoneWaitsOnALock } from './helpers/lock-waits.js';
import { waitFor } from './helpers/mail.js';
import { useApp } from './helpers/use-app.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, type Receiver } from './helpers/webhooks.js';

/**
 * The API process's dispatcher yields to the API (EVENT_YIELD_AT_REQUESTS):
 * a backlog goes out share after share at once while the process is quiet,
 * and one claim per poll interval while it answers that many requests. Here
 * the threshold is one request, held open by a client that sends a request's
 * head and not its body. Cache purges are urgent: they go out at once, busy
 * or not.
 */
const t = useApp({ env: { ...LOCAL_RECEIVERS, ...YIELDING_AT_ONE_REQUEST }, as: ['SUPER_ADMIN'] });

let receiver: Receiver | undefined;
after(() => receiver?.close());

/** The receiver, with an endpoint subscribed to customer.registered pointing at it (made once). */
async function subscribed(): Promise<Receiver> {
  if (!receiver) {
    receiver = await startReceiver();
    await createEndpoint(t.superAdmin, receiver.url, ['customer.registered']);
  }
  return receiver;
}

test('while the API is quiet, a backlog goes out share after share at once', async () => {
  await goesOutAtOnce(t.db, await subscribed(), 'quiet');
});

test('requests of a pipelined connection reset while queued are not counted as in flight for ever', async () => {
  const receiver = await subscribed();
  const { socket, port } = await connectTo(t.baseUrl);
  const cookie = [...t.superAdmin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const ofTheAdmin = sql`user_id = (SELECT id FROM users WHERE email = ${t.superAdmin.email})`;
  // The first request waits on its session's row (a session last seen minutes ago is touched), so the
  // answers of the three behind it are queued on the connection when it is reset.
  await sql`UPDATE sessions SET last_seen_at = now() - interval '5 minutes' WHERE ${ofTheAdmin}`.execute(t.db);
  await t.db.transaction().execute(async (trx) => {
    await sql`SELECT id FROM sessions WHERE ${ofTheAdmin} FOR UPDATE`.execute(trx);
    const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n\r\n`;
    socket.write(head('/api/v1/users/me') + head('/health') + head('/health') + head('/health'));
    await someoneWaitsOnALock(t.db, '%sessions%');
    socket.destroy();
  });
  await goesOutAtOnce(t.db, receiver, 'pipelined');
});

test('while the API is busy, the dispatcher claims once per poll interval, and catches up once it is quiet', async () => {
  const receiver = await subscribed();
  const held = await requestHeldOpen(t.baseUrl);
  let released = false;
  try {
    const emails = await backlog(t.db, 'busy');
    const first = await receiver.waitFor((all) => (of(emails)(all).length >= PER_TARGET ? of(emails)(all) : null), 20_000);
    const second = await receiver.waitFor((all) => (of(emails)(all).length >= 2 * PER_TARGET ? of(emails)(all) : null), 20_000);
    assert.equal(first.length, PER_TARGET, 'one share per claim');
    const gap = second[PER_TARGET]!.arrivedAt - second[PER_TARGET - 1]!.arrivedAt;
    assert.ok(gap > POLL_MS * 0.7, `the next share waited for the next poll (${Math.round(gap)} ms)`);
    held.destroy();
    released = true;
    await receiver.waitFor((all) => of(emails)(all).length === emails.size, 20_000);
  } finally {
    if (!released) held.destroy();
  }
});

test('while the API is busy, cache purges still go out at once', async (context) => {
  const cache = await startReceiver();
  const started: { app?: Awaited<ReturnType<typeof startTestApp>>; held?: Socket } = {};
  // One hook, in this order: the held request ends before the app's close waits for it.
  context.after(async () => {
    started.held?.destroy();
    await started.app?.close();
    await cache.close();
  });
  const app = (started.app = await startTestApp({
    ...YIELDING_AT_ONE_REQUEST,
    CACHE_PURGE_URLS: cache.url,
    CACHE_PURGE_TOKEN: 'purge-token-0123456789',
  }));
  started.held = await requestHeldOpen(app.baseUrl);
  // The dispatcher makes the cache's target when it starts.
  const cacheTargets = async () =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM event_targets WHERE kind = 'cache'`.execute(app.db)).rows[0]!.n;
  await waitFor(async () => (await cacheTargets()) === 1);
  await sql`SELECT purge_cache(ARRAY['product:' || i]) FROM generate_series(1, ${3 * PER_TARGET}) i`.execute(app.db);
  const arrivals = await cache.waitFor((all) => (all.length === 3 * PER_TARGET ? all : null), 20_000);
  const spread = arrivals.at(-1)!.arrivedAt - arrivals[0]!.arrivedAt;
  assert.ok(spread < POLL_MS * 0.7, `three shares of purges went out within ${Math.round(spread)} ms, not a poll interval apart`);
});
