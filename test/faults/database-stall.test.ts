import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { sleep } from '../helpers/mail.js';
import { fileDatabase, startService } from '../helpers/service.js';

/**
 * The database stops answering without closing anything: a frozen primary, a network path that
 * drops packets. Nothing fails on its own, so without a bound a request (API or page) would wait
 * for ever. With DB_QUERY_TIMEOUT_MS a statement without an answer gives its connection up: the
 * request answers 503 with Retry-After in the envelope, the process stays up, and once the database
 * answers again the service serves on fresh connections.
 */
const file = fileDatabase();

/**
 * A TCP path to PostgreSQL that can go silent: while stalled it reads nothing from either side and
 * forwards nothing (new connections are accepted and left waiting), as a dropped network path does.
 */
async function stallablePath(target: { host: string; port: number }) {
  let stalled = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (stalled) for (const socket of pair) socket.pause();
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall() {
      stalled = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    resume() {
      stalled = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Bounded: without the statement bound these requests wait for ever, and the test must fail, not hang the run.
test(
  'a database that stops answering: requests answer 503 with Retry-After within the bound, and the service recovers',
  { timeout: 120_000 },
  async (t) => {
    const direct = new URL(file.database.url);
    const path = await stallablePath({ host: direct.hostname, port: Number(direct.port) });
    t.after(() => path.close());
    const url = new URL(direct);
    url.hostname = '127.0.0.1';
    url.port = String(path.port);
    const service = await startService({
      databaseUrl: url.toString(),
      env: { DB_QUERY_TIMEOUT_MS: '1500', DB_POOL_SIZE: '4' },
    });
    t.after(() => service.stop());
    assert.equal((await fetch(`${service.baseUrl}/api/v1/products`)).status, 200);

    path.stall();
    // API reads and a shop page, at once: each is answered (the test's own timeout would catch a wait for ever).
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => fetch(`${service.baseUrl}/api/v1/products?page=${i + 1}`)),
      fetch(`${service.baseUrl}/search?q=stalled`, { headers: { cookie: 'presession=stalled' } }),
    ]);
    for (const answer of answers.slice(0, 6)) {
      assert.equal(answer.status, 503, await answer.clone().text());
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
      const envelope = (await answer.json()) as { error: { code: string }; request_id: string };
      assert.equal(envelope.error.code, 'SERVICE_UNAVAILABLE');
    }
    const page = answers[6]!;
    assert.equal(page.status, 503);
    assert.match(page.headers.get('retry-after') ?? '', /^\d+$/, 'the shop page says when to try again too');
    assert.match(await page.text(), /We are a little busy/);

    path.resume();
    // Fresh connections answer; the stalled ones were given up.
    let recovered = 0;
    for (let i = 0; i < 50 && recovered === 0; i++) {
      const response = await fetch(`${service.baseUrl}/api/v1/products`);
      if (response.status === 200) recovered++;
      else await sleep(200);
    }
    assert.equal(recovered, 1, 'the service serves again once the database answers');
    assert.equal(service.child.exitCode, null, 'the process stayed up');
    assert.ok(!/unhandled|uncaught/i.test(service.output()), 'no unhandled error in the log');
  },
);
