import assert from 'node:assert/strict';
import { scrypt } from 'node:crypto';
import dgram from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createHostResolver } from '../src/webhooks/host-resolver.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { signInAs, signUp } from './helpers/factories.js';
import { waitFor } from './helpers/mail.js';
import { createEndpoint, deliveryLog, LOCAL_RECEIVERS, startReceiver, verify } from './helpers/webhooks.js';

/**
 * A receiver whose DNS does not answer (issue 29: one slow receiver never
 * delays another's deliveries or the API). Host names are asked of DNS on
 * the event loop, not through getaddrinfo on libuv's four threads, which
 * password hashing shares: while many lookups wait on a DNS server that
 * never answers, hashing goes on, the attempts fail at their deadline, and
 * other endpoints are delivered to. The DNS servers are real UDP sockets: one
 * that reads every query and answers none, and a closed port.
 */
const silentDns = dgram.createSocket('udp4');
let SILENT = '';
let CLOSED = '';
before(async () => {
  await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', resolve));
  SILENT = `127.0.0.1:${silentDns.address().port}`;
  const closed = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
  CLOSED = `127.0.0.1:${closed.address().port}`;
  closed.close();
});
after(() => silentDns.close());

describe('the webhook host resolver', () => {
  test('a DNS server that never answers holds no thread: password hashes finish while twelve lookups wait, which then fail at the deadline', async () => {
    const resolve = createHostResolver({ timeoutMs: 1500, servers: [SILENT] });
    let settled = 0;
    const lookups = Array.from({ length: 12 }, (_, i) =>
      resolve(`receiver-${i}.example`).then(
        () => assert.fail('resolved without an answer'),
        (error: Error) => {
          settled++;
          return error;
        },
      ),
    );
    // Eight hashes on libuv's pool (four threads): through getaddrinfo, twelve waiting lookups would hold all four.
    const hash = promisify(scrypt) as (password: string, salt: string, length: number, options: object) => Promise<Buffer>;
    await Promise.all(Array.from({ length: 8 }, (_, i) => hash(`password ${i}`, 'salt', 32, { N: 1024 })));
    assert.equal(settled, 0, 'every hash finished while every lookup still waited');
    for (const error of await Promise.all(lookups))
      assert.match(error.message, /DNS did not answer for receiver-\d+\.example within 1500 ms/);
  });

  test('a name DNS cannot give addresses for (no server answering, /etc/hosts names) goes to the system lookup', async () => {
    const resolve = createHostResolver({ timeoutMs: 1500, servers: [CLOSED] });
    const addresses = await resolve('localhost');
    assert.ok(addresses.length > 0);
    assert.ok(
      addresses.every(({ address }) => address === '127.0.0.1' || address === '::1'),
      JSON.stringify(addresses),
    );
  });
});

describe('an endpoint whose DNS does not answer', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({
      ...LOCAL_RECEIVERS,
      WEBHOOK_DNS_SERVERS: SILENT,
      WEBHOOK_TIMEOUT_MS: '1000',
      EVENT_POLL_INTERVAL_MS: '20',
      RATE_LIMIT_REGISTER: '0',
      EMAIL_WORKER: 'off',
    });
  });
  after(() => app?.close());

  test('fails its attempts at their deadline, saying why, while an endpoint beside it gets every event', async () => {
    const { client: superAdmin } = await signInAs(app, 'SUPER_ADMIN');
    const receiver = await startReceiver();
    try {
      // Saved although its name does not resolve yet (checked again at every attempt).
      const unanswered = await createEndpoint(superAdmin, `http://hooks.unanswered.example:${receiver.port}/hooks`, [
        'customer.registered',
      ]);
      const beside = await createEndpoint(superAdmin, receiver.url, ['customer.registered']);
      const emails: string[] = [];
      for (let i = 0; i < 12; i++) emails.push((await signUp(app)).email);

      await receiver.waitFor((arrivals) => arrivals.length >= 12);
      assert.deepEqual(new Set(receiver.arrivals.map((arrival) => verify(beside.secret, arrival).data.customer.email)), new Set(emails));
      const failed = await waitFor(async () => {
        const log = await deliveryLog(superAdmin, unanswered.public_id);
        return log.length === 12 && log.every((entry) => entry.attempts >= 1) && log;
      }, 15_000);
      for (const entry of failed) {
        assert.equal(entry.status, 'PENDING');
        assert.match(entry.error, /DNS did not answer for hooks\.unanswered\.example|timed out after 1000 ms/);
      }
    } finally {
      await receiver.close();
    }
  });
});
