import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkout, inBatches, inventoryOf, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs, signUp } from '../helpers/factories.js';
import { fileMailServer, headerOf, linkFrom, waitFor } from '../helpers/mail.js';
import { fileDatabase, serviceTarget, startService } from '../helpers/service.js';

/**
 * Email after a crash. A service is killed (kill -9) while its worker sends a
 * batch over a slow SMTP relay; a new service on the same database delivers
 * the rest: every acknowledged order is there with its stock, every
 * confirmation arrives within two minutes of the restart, and at most the one
 * message in flight at the kill arrives twice, under the same Message-ID.
 */
const file = fileDatabase();
const mail = fileMailServer({ delayMs: 150 });

const env = () => ({
  SMTP_URL: mail.url,
  EMAIL_LEASE_MS: '3000',
  EMAIL_POLL_INTERVAL_MS: '100',
  RATE_LIMIT_CHECKOUT: '0',
  RATE_LIMIT_REGISTER: '0',
});

const messageIds = () => mail.messages.map((m) => headerOf(m.raw, 'message-id') ?? '');

test('kill -9 under checkout load and mid-batch: after a restart every acknowledged order is there and every confirmation is sent within two minutes, at most one twice', async () => {
  const first = await startService({ databaseUrl: file.database.url, env: env() });
  const target = serviceTarget(first, file.db);
  const { client: admin } = await signInAs(target, 'ADMIN');
  const { variantId } = await sellableVariant(admin, { stock: 1000 });
  const shoppers = await inBatches(40, 5, () => shopper(target, [{ variantId, quantity: 2 }]));
  const early = await Promise.all(shoppers.slice(0, 25).map((s) => checkout(s.client, s.addressId)));
  for (const response of early) assert.equal(response.status, 201, response.text);

  // Mid-stream (a verification per shopper, then a confirmation per order, at 150 ms or more each),
  // and with a second wave of checkouts in flight.
  await waitFor(() => mail.messages.length >= 20, 30_000);
  const late = shoppers.slice(25).map((s) => checkout(s.client, s.addressId).catch(() => null));
  await waitFor(
    () => first.logs().filter((l) => l.msg === 'incoming request' && (l.req as { url?: string })?.url === '/api/v1/orders').length >= 30,
    10_000,
  );
  first.signal('SIGKILL');
  await first.exited;
  const acknowledged = [...early, ...(await Promise.all(late))]
    .filter((r) => r?.status === 201)
    .map((r) => r!.body.data.public_id as string);
  const pending = await file.db.selectFrom('outbox').select('id').where('delivered_at', 'is', null).execute();
  assert.ok(pending.length > 0, 'the kill left messages unsent');

  const restarted = Date.now();
  const second = await startService({ databaseUrl: file.database.url, env: env() });
  try {
    await waitFor(
      async () => (await file.db.selectFrom('outbox').select('id').where('delivered_at', 'is', null).execute()).length === 0,
      120_000,
    );
    const took = Date.now() - restarted;
    assert.ok(took < 120_000, `everything delivered ${took} ms after the restart`);

    const outbox = await file.db.selectFrom('outbox').select(['id', 'kind']).execute();
    const received = messageIds();
    for (const row of outbox)
      assert.ok(
        received.some((id) => id.startsWith(`<outbox-${row.id}@`)),
        `outbox ${row.id} (${row.kind}) was sent`,
      );
    const twice = received.filter((id, i) => received.indexOf(id) !== i);
    assert.ok(twice.length <= 1, `sent twice: ${twice.join(', ')}`);
    assert.equal(mail.messages.length, outbox.length + twice.length);

    // Every acknowledged order is stored; the stock holds exactly what the stored orders took, each order has its email.
    const orders = await file.db.selectFrom('orders').select('public_id').execute();
    const stored = new Set(orders.map((o) => o.public_id));
    for (const id of acknowledged) assert.ok(stored.has(id), `acknowledged order ${id} is stored`);
    assert.equal((await inventoryOf(target, variantId)).quantity_reserved, 2 * orders.length);
    assert.equal(outbox.filter((row) => row.kind === 'order_placed').length, orders.length);
  } finally {
    await second.stop();
  }
});

test('`npm run worker` delivers and prunes for an API running with EMAIL_WORKER=off, and stops cleanly', async () => {
  const api = await startService({ databaseUrl: file.database.url, env: { ...env(), EMAIL_WORKER: 'off', PRUNE_INTERVAL: '0' } });
  // Started as the README tells an operator to (`npm run worker`: the compiled dist/worker.js); stop()'s SIGTERM
  // goes to npm, which passes it on, as to PID 1 of a container whose command is `npm run worker`.
  const worker = await startService({
    databaseUrl: file.database.url,
    entry: 'worker.ts',
    viaNpm: true,
    waitForReady: false,
    env: { ...env(), PRUNE_INTERVAL: '1s', RETAIN_DELIVERED_EMAILS: '2s' },
  });
  try {
    await worker.waitForLog((l) => l.msg === 'email worker and pruner started');
    const { email } = await signUp(serviceTarget(api, file.db));
    const row = await waitFor(async () => {
      const found = await file.db
        .selectFrom('outbox')
        .select(['id', 'delivered_at'])
        .where('recipient', '=', email)
        .executeTakeFirstOrThrow();
      return found.delivered_at ? found : null;
    }, 15_000);
    assert.equal(mail.to(email).length, 1);
    assert.equal(headerOf(mail.to(email)[0]!.raw, 'message-id'), `<outbox-${row.id}@localhost>`);
    // Neither sets PUBLIC_BASE_URL: the links name the API's address (its PORT), not the worker's own default.
    assert.ok(
      linkFrom(mail.to(email)[0]!.raw).startsWith(`http://localhost:${api.port}/verify-email?token=`),
      linkFrom(mail.to(email)[0]!.raw),
    );
    assert.ok(worker.logs().some((l) => String(l.msg).includes('email links use the address the service last started with')));
    assert.ok(!api.logs().some((l) => String(l.msg).includes('email')), 'the API process sent nothing');
    // Delivered mail past its retention is deleted by the worker's pruner (the API's is off).
    await waitFor(
      async () => (await file.db.selectFrom('outbox').select('id').where('id', '=', row.id).executeTakeFirst()) === undefined,
      15_000,
    );
    const node = worker.servicePid();
    assert.equal((await worker.stop()).code, 0, worker.output().slice(-2000));
    assert.ok(
      worker.logs().some((l) => l.msg === 'shutdown complete' && l.reason === 'SIGTERM' && l.exit_code === 0),
      'the worker itself got the SIGTERM and drained',
    );
    assert.throws(() => process.kill(node, 0), 'the worker process has exited');
  } finally {
    await worker.stop();
    await api.stop();
  }
});
