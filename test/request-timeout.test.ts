import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { goesOutAtOnce, requestHeldOpen, YIELDING_AT_ONE_REQUEST } from './helpers/busy-api.js';
import { useApp } from './helpers/use-app.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, type Receiver } from './helpers/webhooks.js';

/**
 * A request that never finishes arriving (REQUEST_TIMEOUT_MS) is answered
 * 408 in the envelope and its connection closed, so a handful of stalled
 * clients cannot hold sockets for ever, nor keep the event dispatcher, which
 * yields while that many requests are in flight, yielding for ever.
 */
const TIMEOUT_MS = 1000;
const t = useApp({
  env: { ...LOCAL_RECEIVERS, ...YIELDING_AT_ONE_REQUEST, REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) },
  as: ['SUPER_ADMIN'],
});

let receiver: Receiver | undefined;
after(() => receiver?.close());

test('a request whose body stalls is answered 408 in the envelope, and no longer counts as in flight', async () => {
  receiver = await startReceiver();
  await createEndpoint(t.superAdmin, receiver.url, ['customer.registered']);
  const held = await requestHeldOpen(t.baseUrl);
  const started = Date.now();
  const answer = await new Promise<string>((resolve, reject) => {
    let text = '';
    held.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    held.on('close', () => resolve(text));
    held.on('error', reject);
    setTimeout(() => reject(new Error('the stalled request was still open after 10 s')), 10_000).unref();
  }).finally(() => held.destroy());
  const waited = Date.now() - started;
  assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.match(answer, /\r\nx-request-id: [0-9a-f-]{36}\r\n/);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  assert.equal(body.success, false);
  assert.equal(body.error.code, 'REQUEST_TIMEOUT');
  assert.ok(waited >= TIMEOUT_MS * 0.9, `cut after ${waited} ms, not before its allowance`);
  // The dispatcher is not yielding to it any more: a backlog goes out share after share at once.
  await goesOutAtOnce(t.db, receiver, 'after-timeout');
});
