import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { checkout, inBatches, inventoryOf, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';
import { sleep } from '../helpers/mail.js';
import { adminQuery, fileDatabase, serviceTarget, startService } from '../helpers/service.js';

/**
 * PostgreSQL ends the connections a running service holds (a failover, a
 * DBA's pg_terminate_backend, a restart): the process stays up, the requests
 * that lost their connection answer 503 and are safe to retry with their
 * Idempotency-Key, and no acknowledged order is lost or doubled.
 */
const APP = 'commerce-fault-test';
const file = fileDatabase();

const terminateServiceConnections = () =>
  adminQuery<{ terminated: boolean }>(
    'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
    [file.database.name, APP],
  );

test('terminated connections under checkout load fail requests with 503, never the process', async (t) => {
  const url = new URL(file.database.url);
  url.searchParams.set('application_name', APP);
  const service = await startService({
    databaseUrl: url.toString(),
    env: { RATE_LIMIT_CHECKOUT: '0', RATE_LIMIT_REGISTER: '0', DB_POOL_SIZE: '8' },
  });
  t.after(() => service.stop());
  const target = serviceTarget(service, file.db);
  const { client: admin } = await signInAs(target, 'ADMIN');
  const { variantId } = await sellableVariant(admin, { stock: 1000 });
  const shoppers = await inBatches(40, 8, () => shopper(target, [{ variantId, quantity: 2 }]));
  const keys = shoppers.map(() => randomUUID());

  let terminated = 0;
  let loading = true;
  const killer = (async () => {
    while (loading) {
      terminated += (await terminateServiceConnections()).length;
      await sleep(15);
    }
  })();
  let first;
  try {
    first = await Promise.all(shoppers.map((s, i) => checkout(s.client, s.addressId, {}, { 'idempotency-key': keys[i]! })));
  } finally {
    loading = false;
    await killer;
  }

  assert.ok(terminated > 0, 'the test terminated service connections');
  for (const response of first) {
    assert.ok([201, 503].includes(response.status), `201 or 503, got ${response.status} ${response.text}`);
    if (response.status === 503) {
      assert.equal(response.body.error.code, 'SERVICE_UNAVAILABLE');
      assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
    }
  }
  const failed = first.filter((r) => r.status === 503).length;
  assert.ok(failed > 0, `some requests lost their connection (${terminated} terminated)`);

  // The process is still up and serves; each failed checkout succeeds on retry with the same key.
  assert.equal(service.child.exitCode, null, 'the service is still running');
  const final = await Promise.all(
    shoppers.map(async (s, i) => {
      let response = first[i]!;
      for (let attempt = 0; response.status === 503 && attempt < 5; attempt++) {
        response = await checkout(s.client, s.addressId, {}, { 'idempotency-key': keys[i]! });
      }
      return response;
    }),
  );
  for (const response of final) assert.equal(response.status, 201, response.text);

  // Every acknowledged order is there, once, and the stock matches exactly.
  const acknowledged = new Set([...first, ...final].filter((r) => r.status === 201).map((r) => r.body.data.public_id as string));
  assert.equal(acknowledged.size, shoppers.length, 'one order per shopper, retries replayed');
  const stored = await file.db.selectFrom('orders').select('public_id').execute();
  assert.deepEqual(new Set(stored.map((o) => o.public_id)), acknowledged);
  const stock = await inventoryOf(target, variantId);
  assert.equal(stock.quantity_reserved, shoppers.length * 2);
  assert.ok(!/unhandled|uncaught/i.test(service.output()), 'no unhandled error in the log');
});
