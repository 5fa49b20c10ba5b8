import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { syncCacheTargets } from '../src/http-cache/targets.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { API, expectStatus } from './helpers/catalog.js';
import type { Client } from './helpers/client.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { signInAs, signUp } from './helpers/factories.js';
import { sleep } from './helpers/mail.js';
import { moderate, postReview } from './helpers/reviews.js';
import { LOCAL_RECEIVERS, startReceiver, type Receiver } from './helpers/webhooks.js';

/**
 * HTTP caching of the public catalog (issue 28, docs/caching.md), in-process:
 * the headers every public read carries and every private one does not, the
 * cheap 304, no cookie on anything cacheable, and the purges each kind of
 * write sends to the configured cache: exactly the keys of what changed,
 * retried while the cache is down, counted in the metrics. The same behind a
 * real Varnish: test/faults/varnish.test.ts.
 */
const TOKEN = 'purge-token-0123456789';
let t: TestApp;
let receiver: Receiver;
let admin: Client;

before(async () => {
  receiver = await startReceiver();
  t = await startTestApp(
    {
      ...LOCAL_RECEIVERS,
      EVENT_WORKER: 'off',
      EMAIL_WORKER: 'off',
      RATE_LIMIT_REGISTER: '0',
      CACHE_PURGE_URLS: `${receiver.url}/purge`,
      CACHE_PURGE_TOKEN: TOKEN,
      CACHE_S_MAXAGE: '10m',
      CACHE_STALE_WHILE_REVALIDATE: '15s',
      CACHE_STALE_IF_ERROR: '1h',
    },
    { metrics: true },
  );
  // The dispatcher is driven by the tests (deliverDue); the targets it would sync on start are synced here.
  await syncCacheTargets(t.db, t.clock, t.config.httpCache.purgeUrls);
  admin = (await signInAs(t, 'ADMIN')).client;
});

after(async () => {
  await t?.close();
  await receiver?.close();
});

/** Sends every purge due, then returns the keys the cache received since the last call. */
let seen = 0;
async function purgedKeys(): Promise<Set<string>> {
  await t.app.eventDispatcher.deliverDue();
  const arrivals = receiver.received().slice(seen);
  seen = receiver.received().length;
  return new Set(arrivals.flatMap((arrival) => arrival.event.keys as string[]));
}

describe('headers', () => {
  test('a public read carries a validator, shared-cache Cache-Control and the keys of what it shows, and no cookie', async () => {
    const { productId } = await sellableVariant(admin);
    const anonymous = t.client();
    const list = await anonymous.get(`${API}/products?limit=100`);
    assert.equal(list.status, 200);
    assert.match(list.headers.get('etag')!, /^"[^"]+"$/);
    // stale-while-revalidate only where shared caches alone read it: a browser would show a stale answer after a write.
    assert.equal(list.headers.get('cache-control'), 'public, max-age=0, s-maxage=600, stale-if-error=3600');
    assert.equal(list.headers.get('surrogate-control'), 'max-age=600, stale-while-revalidate=15, stale-if-error=3600');
    assert.equal(list.headers.get('cdn-cache-control'), 'max-age=600, stale-while-revalidate=15, stale-if-error=3600');
    const keys = list.headers.get('surrogate-key')!.split(' ');
    assert.ok(keys.includes('products') && keys.includes(productId), keys.join(' '));
    assert.deepEqual(list.headers.get('cache-tag')!.split(','), keys);

    const detail = await anonymous.get(`${API}/products/${productId}`);
    assert.equal(detail.headers.get('surrogate-key'), productId);
    const slug = detail.body.data.slug;
    assert.equal((await anonymous.get(`${API}/products/by-slug/${slug}`)).headers.get('surrogate-key'), productId);
    assert.equal((await anonymous.get(`${API}/categories`)).headers.get('surrogate-key'), 'categories');
    // The shop's settings come from the configuration: their ETag names them, and nothing but a restart changes it.
    const store = await anonymous.get(`${API}/store`);
    assert.equal(store.headers.get('surrogate-key'), 'store');
    assert.match(store.headers.get('cache-control')!, /^public, /);
    assert.equal((await anonymous.get(`${API}/store`, { headers: { 'if-none-match': store.headers.get('etag')! } })).status, 304);
    assert.equal(
      (await anonymous.get(`${API}/products/${productId}/reviews`)).headers.get('surrogate-key'),
      `reviews:${productId} ${productId}`,
    );

    // A signed-in shopper's request for the same thing: the same public answer, no cookie set or renewed.
    const { client: customer } = await signUp(t);
    const signedIn = await customer.get(`${API}/products/${productId}`);
    assert.equal(signedIn.headers.get('cache-control'), detail.headers.get('cache-control'));
    assert.deepEqual(signedIn.headers.getSetCookie(), []);
    assert.deepEqual(list.headers.getSetCookie(), []);
  });

  test('anything with a session, anything that sets a cookie and every failed public read is kept out of shared caches', async () => {
    const { client: customer } = await signUp(t);
    for (const path of ['/users/me', '/cart', '/orders', '/users/me/addresses']) {
      const response = await customer.get(`${API}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('cache-control'), 'private, no-store', path);
      assert.equal(response.headers.get('surrogate-key'), null, path);
    }
    assert.equal((await admin.get(`${API}/admin/products`)).headers.get('cache-control'), 'private, no-store');
    const csrf = await t.client().get(`${API}/auth/csrf-token`);
    assert.ok(csrf.headers.getSetCookie().length > 0);
    assert.equal(csrf.headers.get('cache-control'), 'private, no-store');
    const missing = await t.client().get(`${API}/products/prd_00000000000000000000`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), 'no-store');
    assert.equal(missing.headers.get('etag'), null);
    assert.equal(missing.headers.get('surrogate-key'), null);
  });
});

describe('revalidation', () => {
  test('If-None-Match with the current ETag is a 304 built from the version alone; any change moves it', async () => {
    const { productId } = await sellableVariant(admin);
    const anonymous = t.client();
    const first = await anonymous.get(`${API}/products?sort=price`);
    const etag = first.headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const before = t.queries.length;
      const again = await anonymous.get(`${API}/products?sort=price`, { headers: { 'if-none-match': header } });
      assert.equal(again.status, 304, header);
      assert.equal(again.text, '');
      assert.equal(again.headers.get('etag'), etag);
      assert.match(again.headers.get('cache-control')!, /^public, /);
      const ran = t.queries.slice(before);
      assert.ok(ran.length <= 1, `one statement at most: ${ran.join(' | ')}`);
      assert.ok(
        ran.every((statement) => statement.includes('catalog_version')),
        ran.join(' | '),
      );
    }
    assert.equal((await anonymous.get(`${API}/products?sort=price`, { headers: { 'if-none-match': '"stale"' } })).status, 200);

    expectStatus(await admin.patch(`${API}/admin/products/${productId}`, { name: 'Renamed for the cache' }), 200);
    const changed = await anonymous.get(`${API}/products?sort=price`, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.equal((await anonymous.get(`${API}/products/${productId}`, { headers: { 'if-none-match': etag } })).status, 200);
  });

  test('an unconditional product read, and a list without a category, is one statement: the version is read with the data', async () => {
    const { productId } = await sellableVariant(admin);
    const anonymous = t.client();
    for (const path of [`/products/${productId}`, '/products?sort=price', '/products?search=a&min_price=1']) {
      const before = t.queries.length;
      const response = await anonymous.get(`${API}${path}`);
      assert.equal(response.status, 200, path);
      const ran = t.queries.slice(before);
      assert.equal(ran.length, 1, `${path}: ${ran.join(' | ')}`);
      assert.match(ran[0]!, /catalog_version/, path);
      const etag = response.headers.get('etag')!;
      // The version the statement saw is the ETag's: a conditional request with it is a 304 until a change.
      assert.equal((await anonymous.get(`${API}${path}`, { headers: { 'if-none-match': etag } })).status, 304, path);
    }
  });

  test('many conditional requests at once share version reads, and each sees every change committed before it was sent', async () => {
    const anonymous = t.client();
    const etag = (await anonymous.get(`${API}/categories`)).headers.get('etag')!;
    // The version's table is locked while the 40 requests arrive, so they are all in flight at once however
    // slow the machine: the first read waits on the lock, and whoever comes meanwhile waits for one more.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE catalog_version IN ACCESS EXCLUSIVE MODE`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const before = t.queries.length;
    const pending = Promise.all(
      Array.from({ length: 40 }, () => anonymous.get(`${API}/categories`, { headers: { 'if-none-match': etag } })),
    );
    await sleep(500);
    release();
    await holder;
    const answers = await pending;
    assert.ok(answers.every((a) => a.status === 304));
    const reads = t.queries.slice(before).filter((q) => q.includes('catalog_version')).length;
    assert.ok(reads < 10, `${reads} version reads for 40 requests`);
    expectStatus(await admin.post(`${API}/admin/categories`, { name: `Cache ${Date.now()}` }), 201);
    const afterWrite = await Promise.all(
      Array.from({ length: 20 }, () => anonymous.get(`${API}/categories`, { headers: { 'if-none-match': etag } })),
    );
    assert.ok(afterWrite.every((a) => a.status === 200));
  });
});

describe('purges', () => {
  test('each write that changes what a shopper sees purges exactly its keys', async () => {
    const { productId, variantId } = await sellableVariant(admin, { stock: 3 });
    const { productId: other } = await sellableVariant(admin);
    await purgedKeys();

    expectStatus(await admin.patch(`${API}/admin/variants/${variantId}`, { price: '12.34' }), 200);
    assert.deepEqual(await purgedKeys(), new Set(['products', productId]), 'a price change');

    expectStatus(await admin.patch(`${API}/admin/inventory/${variantId}`, { quantity_change: -1 }), 200);
    assert.deepEqual(await purgedKeys(), new Set(), 'stock that stays above zero shows no differently');
    expectStatus(await admin.patch(`${API}/admin/inventory/${variantId}`, { reorder_level: 2 }), 200);
    assert.deepEqual(await purgedKeys(), new Set([productId]), 'stock turning scarce (a stored "In stock" page must go)');
    expectStatus(await admin.patch(`${API}/admin/inventory/${variantId}`, { quantity_change: -2 }), 200);
    assert.deepEqual(await purgedKeys(), new Set(['products', productId]), 'stock running out');

    const { client: customer } = await signUp(t);
    const review = await postReview(customer, other);
    assert.deepEqual(await purgedKeys(), new Set(), 'a review waiting for moderation is not public');
    await moderate(admin, review.public_id, 'APPROVED');
    assert.deepEqual(await purgedKeys(), new Set([`reviews:${other}`, 'products', other]), 'a review approved (and the rating it moves)');
    await moderate(admin, review.public_id, 'APPROVED', 'Checked the photo again');
    assert.deepEqual(await purgedKeys(), new Set(), 'approved again with an internal note: nothing a shopper sees changed');

    const category = expectStatus(await admin.post(`${API}/admin/categories`, { name: `Purged ${Date.now()}` }), 201);
    assert.deepEqual(await purgedKeys(), new Set(['categories', 'products', category.public_id]), 'a category created');
    expectStatus(await admin.patch(`${API}/admin/products/${productId}`, { category_public_ids: [category.public_id] }), 200);
    assert.deepEqual(await purgedKeys(), new Set(['products', productId]), 'a product put in a category');

    expectStatus(await admin.patch(`${API}/admin/products/${productId}`, { status: 'DRAFT' }), 200);
    assert.deepEqual(await purgedKeys(), new Set(['products', productId]), 'a product taken off sale');
    expectStatus(await admin.patch(`${API}/admin/products/${productId}`, { name: 'Still a draft' }), 200);
    assert.deepEqual(await purgedKeys(), new Set(), 'a draft is not public: editing it purges nothing');
    expectStatus(await admin.patch(`${API}/admin/inventory/${variantId}`, { quantity_change: 5 }), 200);
    expectStatus(await admin.patch(`${API}/admin/inventory/${variantId}`, { quantity_change: -4 }), 200);
    assert.deepEqual(await purgedKeys(), new Set(), "a draft's stock turning scarce purges nothing");
    expectStatus(await admin.patch(`${API}/admin/products/${productId}`, { status: 'ACTIVE' }), 200);
    assert.deepEqual(await purgedKeys(), new Set(['products', productId]), 'a draft put on sale');

    const response = await admin.delete(`${API}/admin/products/${other}`);
    assert.equal(response.status, 204, response.text);
    assert.deepEqual(await purgedKeys(), new Set(['products', other]), 'a product deleted');
  });

  test("an order reaching the buyer verifies their review's purchase: that review list is purged, once", async () => {
    const { productId, variantId } = await sellableVariant(admin, { stock: 50 });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = expectStatus(await checkout(buyer.client, buyer.addressId), 201);
    await moderate(admin, (await postReview(buyer.client, productId)).public_id, 'APPROVED');
    await purgedKeys();
    const verified = async () => (await t.client().get(`${API}/products/${productId}/reviews`)).body.data[0].verified_purchase;
    assert.equal(await verified(), false);

    expectStatus(await admin.patch(`${API}/admin/orders/${order.public_id}`, { status: 'CONFIRMED' }), 200);
    assert.deepEqual(await purgedKeys(), new Set(), 'confirmed: not yet a verified purchase');
    expectStatus(
      await admin.patch(`${API}/admin/orders/${order.public_id}`, { status: 'SHIPPED', carrier: 'UPS', tracking_number: '1Z9' }),
      200,
    );
    assert.deepEqual(await purgedKeys(), new Set([`reviews:${productId}`]), 'shipped: the review shows a verified purchase');
    assert.equal(await verified(), true);
    expectStatus(await admin.patch(`${API}/admin/orders/${order.public_id}`, { status: 'FULFILLED' }), 200);
    assert.deepEqual(await purgedKeys(), new Set(), 'fulfilled: still verified, nothing to purge');

    // A second order of it shipped: the purchase was verified already, so no list shows anything new.
    expectStatus(await buyer.client.post(`${API}/cart/items`, { variant_public_id: variantId, quantity: 1 }), 200);
    const second = expectStatus(await checkout(buyer.client, buyer.addressId), 201);
    await purgedKeys();
    for (const change of [{ status: 'CONFIRMED' }, { status: 'SHIPPED', carrier: 'UPS', tracking_number: '1Z8' }])
      expectStatus(await admin.patch(`${API}/admin/orders/${second.public_id}`, change), 200);
    assert.deepEqual(await purgedKeys(), new Set(), 'a second shipped order verifies nothing new');
  });

  test('a purge the cache refuses is retried until it arrives, with the token; the metrics count and time them', async () => {
    const { productId, variantId } = await sellableVariant(admin);
    await purgedKeys();
    receiver.answer = () => ({ status: 503 });
    expectStatus(await admin.patch(`${API}/admin/variants/${variantId}`, { price: '99.00' }), 200);
    await t.app.eventDispatcher.deliverDue();
    assert.deepEqual(await purgedKeys(), new Set(), 'refused');
    const failed = receiver.arrivals.at(-1)!;
    assert.deepEqual(failed.event, { keys: ['products', productId] });

    receiver.answer = () => ({ status: 200 });
    t.clock.advance(t.config.httpCache.purgeRetry.maxMs * 2); // past the retry's backoff
    assert.deepEqual(await purgedKeys(), new Set(['products', productId]), 'retried once the cache answers');

    const metrics = await t.metrics!.registry.metrics();
    const origin = new URL(receiver.url).origin;
    assert.match(metrics, new RegExp(`cache_purges_sent_total\\{cache="${origin}"\\} [1-9]`));
    assert.match(metrics, new RegExp(`cache_purges_failed_total\\{cache="${origin}"\\} [1-9]`));
    assert.match(metrics, /cache_purge_lag_seconds_count [1-9]/);
    assert.match(metrics, /cache_purges_pending 0/);
  });

  test("a bulk write's purge goes out in parts a cache's header limit takes", async () => {
    await purgedKeys();
    const before = receiver.received().length;
    // One statement writing 150 public products, as an import or a bulk change does.
    const { rows } = await sql<{ public_id: string }>`
      INSERT INTO products (public_id, name, slug, status)
      SELECT 'prd_' || substr(md5(random()::text), 1, 20), 'Bulk ' || g, 'bulk-' || g || '-' || substr(md5(random()::text), 1, 8), 'ACTIVE'
      FROM generate_series(1, 150) g RETURNING public_id`.execute(t.db);
    assert.deepEqual(await purgedKeys(), new Set(['products', ...rows.map((row) => row.public_id)]));
    const parts = receiver.received().slice(before);
    assert.deepEqual(
      parts.map((part) => part.event.keys.length),
      [100, 51],
    );
  });

  test('a cache no longer configured loses its target and the purges it still owed', async () => {
    await syncCacheTargets(t.db, t.clock, []);
    const live = await t.db.selectFrom('event_targets').select('id').where('kind', '=', 'cache').where('deleted_at', 'is', null).execute();
    assert.deepEqual(live, []);
    await syncCacheTargets(t.db, t.clock, t.config.httpCache.purgeUrls);
    await syncCacheTargets(t.db, t.clock, t.config.httpCache.purgeUrls);
    const again = await t.db.selectFrom('event_targets').select('id').where('kind', '=', 'cache').where('deleted_at', 'is', null).execute();
    assert.equal(again.length, 1, 'one target per URL, however often synced');
  });
});
