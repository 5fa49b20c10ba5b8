import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { deliveryBacklog } from '../../src/events/delivery-repository.js';
import { freePort } from '../../src/lib/ports.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { API, createCategory, expectStatus } from '../helpers/catalog.js';
import { Client } from '../helpers/client.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs, signUp } from '../helpers/factories.js';
import { sleep, waitFor } from '../helpers/mail.js';
import { moderate, postReview } from '../helpers/reviews.js';
import { createTestDatabase, type TestDatabase } from '../helpers/service.js';
import { startVarnish, type Varnish } from '../helpers/varnish.js';

/**
 * The catalog behind a real Varnish running deploy/varnish/commerce.vcl
 * (issue 28, docs/caching.md), in front of two service instances on one
 * database, round-robin: repeated reads are hits, conditional ones 304;
 * admin writes, a sell-out and a review approval show through the cache
 * within a second of the write's answer; sessions never meet the cache; a
 * purge sent while Varnish is down arrives when it is back; and the two
 * instances send each purge once.
 */
const TOKEN = 'varnish-purge-token-0123';
let database: TestDatabase;
const instances: TestApp[] = [];
let varnish: Varnish;
let admin: Client;
let cached: Client;

before(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  const env = {
    RATE_LIMIT_REGISTER: '0',
    RATE_LIMIT_CHECKOUT: '0',
    EVENT_POLL_INTERVAL_MS: '200',
    CACHE_PURGE_RETRY_BASE_MS: '200',
    CACHE_PURGE_RETRY_MAX_MS: '500',
    CACHE_PURGE_URLS: `http://127.0.0.1:${port}/.cache/purge`,
    CACHE_PURGE_TOKEN: TOKEN,
    // As docs/caching.md deploys it: the service believes Varnish's forwarded headers.
    TRUST_PROXY: 'loopback',
  };
  for (let i = 0; i < 2; i++) instances.push(await startTestApp(env, { database }));
  varnish = await startVarnish(
    instances.map((instance) => instance.baseUrl),
    TOKEN,
    port,
  );
  admin = (await signInAs(instances[0]!, 'ADMIN')).client;
  cached = new Client(varnish.url);
});

after(async () => {
  for (const instance of instances) await instance.close();
  await varnish?.close();
  await database?.drop();
});

/** Reads through Varnish until `check` holds, failing after `withinMs`; returns how long it took. */
async function visibleWithin(path: string, check: (body: any) => boolean, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await cached.get(path);
    if (response.status === 200 && check(response.body)) return performance.now() - started;
    if (performance.now() - started > withinMs)
      throw new Error(`${path} still shows ${response.text.slice(0, 300)} after ${withinMs} ms (${response.headers.get('x-cache')})`);
    await sleep(20);
  }
}

/** Waits until every purge owed has been accepted (so a read that follows is not banned by an earlier write's purge). */
async function purgesSettled(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { pending } = await deliveryBacklog(instances[0]!.db, 'cache');
    if (pending === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending} purges still pending`);
    await sleep(50);
  }
}

describe('reads through the cache', () => {
  test('a second read is a hit; a conditional read is a 304 from the cache', async () => {
    const { productId } = await sellableVariant(admin);
    await purgesSettled();
    const path = `${API}/products/${productId}`;
    const first = await cached.get(path);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    const second = await cached.get(path);
    assert.equal(second.headers.get('x-cache'), 'HIT');
    assert.equal(second.text, first.text);
    assert.equal(second.headers.get('surrogate-key'), null, 'keys stay between the service and the cache');
    const conditional = await cached.get(path, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(conditional.status, 304);
    assert.equal(conditional.headers.get('x-cache'), 'HIT');
    // A signed-in shopper's read of the same product is the same hit: the public answer does not depend on the session.
    const { client } = await signUp(instances[0]!);
    const signedIn = new Client(varnish.url);
    for (const [name, value] of client.cookies) signedIn.cookies.set(name, value);
    assert.equal((await signedIn.get(path)).headers.get('x-cache'), 'HIT');
  });

  test('an admin price change, a sell-out and an approved review show through the cache within a second', async () => {
    const { productId, variantId } = await sellableVariant(admin, { stock: 1 });
    await purgesSettled();
    const path = `${API}/products/${productId}`;
    const list = `${API}/products?search=${encodeURIComponent((await cached.get(path)).body.data.name)}`;
    await cached.get(path);
    await cached.get(list);
    assert.equal((await cached.get(path)).headers.get('x-cache'), 'HIT');
    assert.equal((await cached.get(list)).headers.get('x-cache'), 'HIT');

    expectStatus(await admin.patch(`${API}/admin/variants/${variantId}`, { price: '23.45' }), 200);
    await visibleWithin(path, (body) => body.data.variants[0].price === '23.45', 1000);
    await visibleWithin(list, (body) => body.data[0]?.variants[0].price === '23.45', 1000);

    assert.equal((await cached.get(path)).body.data.variants[0].in_stock, true);
    const buyer = await shopper(instances[1]!, [{ variantId, quantity: 1 }]);
    assert.equal((await checkout(buyer.client, buyer.addressId)).status, 201);
    await visibleWithin(path, (body) => body.data.variants[0].in_stock === false, 1000);

    const reviews = `${API}/products/${productId}/reviews`;
    assert.equal((await cached.get(reviews)).body.data.length, 0);
    const review = await postReview(buyer.client, productId);
    await purgesSettled();
    await cached.get(reviews);
    assert.equal((await cached.get(reviews)).headers.get('x-cache'), 'HIT');
    await moderate(admin, review.public_id, 'APPROVED');
    await visibleWithin(reviews, (body) => body.data.length === 1, 1000);
    await visibleWithin(path, (body) => body.data.rating.count === 1, 1000);
  });

  test('two signed-in shoppers through the cache never see each other, and nothing with a session is stored', async () => {
    const { variantId: first } = await sellableVariant(admin);
    const { variantId: second } = await sellableVariant(admin);
    const shoppers = [
      await shopper(instances[0]!, [{ variantId: first, quantity: 1 }]),
      await shopper(instances[0]!, [{ variantId: second, quantity: 2 }]),
    ];
    const through = shoppers.map(({ client }) => {
      const viaCache = new Client(varnish.url);
      for (const [name, value] of client.cookies) viaCache.cookies.set(name, value);
      return viaCache;
    });
    assert.equal((await checkout(through[0]!, shoppers[0]!.addressId)).status, 201);
    for (let round = 0; round < 3; round++) {
      for (const [i, client] of through.entries()) {
        const me = await client.get(`${API}/users/me`);
        assert.equal(me.body.data.email, shoppers[i]!.email);
        const cart = await client.get(`${API}/cart`);
        const orders = await client.get(`${API}/orders`);
        assert.equal(orders.body.data.length, i === 0 ? 1 : 0);
        if (i === 1)
          assert.deepEqual(
            cart.body.data.items.map((item: any) => item.variant_public_id),
            [second],
          );
        for (const response of [me, cart, orders]) {
          assert.notEqual(response.headers.get('x-cache'), 'HIT');
          assert.equal(response.headers.get('age'), '0');
        }
      }
    }
    const anonymous = new Client(varnish.url);
    assert.equal((await anonymous.get(`${API}/users/me`)).status, 401);
    assert.equal((await anonymous.get(`${API}/orders`)).status, 401);
    // The CSRF token's pre-session cookie is never stored either: each visitor gets their own.
    const tokens = await Promise.all([anonymous.get(`${API}/auth/csrf-token`), new Client(varnish.url).get(`${API}/auth/csrf-token`)]);
    assert.notEqual(tokens[0]!.body.data.csrf_token, tokens[1]!.body.data.csrf_token);
  });
});

describe('storefront pages through the cache', () => {
  /** A page through Varnish as a browser without cookies (or with `cookie`) gets it. */
  async function page(path: string, cookie?: string) {
    const response = await fetch(varnish.url + path, { headers: cookie ? { cookie } : {} });
    return {
      status: response.status,
      cache: response.headers.get('x-cache'),
      html: await response.text(),
      cookies: response.headers.getSetCookie(),
    };
  }
  async function pageShowsWithin(path: string, text: string, withinMs: number): Promise<void> {
    const started = performance.now();
    for (;;) {
      const response = await page(path);
      if (response.status === 200 && response.html.includes(text)) return;
      if (performance.now() - started > withinMs) throw new Error(`${path} does not show ${text} after ${withinMs} ms (${response.cache})`);
      await sleep(20);
    }
  }

  test('a visitor without cookies gets hits; a price change and a new product show within a second; a session never gets the shared page', async () => {
    const { productId, variantId } = await sellableVariant(admin, { price: '40.00' });
    await purgesSettled();
    const slug = (await cached.get(`${API}/products/${productId}`)).body.data.slug;
    const product = `/p/${slug}`;
    const first = await page(product);
    assert.equal(first.status, 200);
    assert.equal(first.cache, 'MISS');
    assert.match(first.html, /\$40\.00/);
    const second = await page(product);
    assert.equal(second.cache, 'HIT');
    assert.equal(second.html, first.html);
    assert.deepEqual(second.cookies, []);
    await page('/');
    assert.equal((await page('/')).cache, 'HIT');

    expectStatus(await admin.patch(`${API}/admin/variants/${variantId}`, { price: '41.50' }), 200);
    await pageShowsWithin(product, '$41.50', 1000);
    const { productId: newer } = await sellableVariant(admin, { name: `Newest arrival ${Date.now()}` });
    const newName = (await cached.get(`${API}/products/${newer}`)).body.data.name;
    await pageShowsWithin('/', newName, 1000);
    // The navigation too: each page behind the cache checks the category tree it builds on.
    const category = await createCategory(admin, { name: `Lamps ${Date.now()}` });
    await pageShowsWithin(product, category.name, 1000);
    assert.equal((await page(product)).cache, 'HIT');
    const renamed = `Lighting ${Date.now()}`;
    expectStatus(await admin.patch(`${API}/admin/categories/${category.public_id}`, { name: renamed }), 200);
    await pageShowsWithin(product, renamed, 1000);

    // Stock turning scarce changes no product document, yet a kept "In stock" page must not outlive it.
    const few = await sellableVariant(admin, { stock: 10 });
    expectStatus(await admin.patch(`${API}/admin/inventory/${few.variantId}`, { reorder_level: 3 }), 200);
    const fewPage = `/p/${(await cached.get(`${API}/products/${few.productId}`)).body.data.slug}`;
    await purgesSettled();
    await pageShowsWithin(fewPage, 'In stock', 1000);
    assert.equal((await page(fewPage)).cache, 'HIT');
    expectStatus(await admin.patch(`${API}/admin/inventory/${few.variantId}`, { quantity_change: -8, reason: 'Count' }), 200);
    await pageShowsWithin(fewPage, 'Only 2 left', 1000);

    // A signed-in shopper asks for the same page: never the shared copy, and theirs is never stored.
    const { client } = await signUp(instances[0]!);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    for (let round = 0; round < 2; round++) {
      const mine = await page(product, cookie);
      assert.equal(mine.cache, 'PASS');
      assert.match(mine.html, /aria-label="Account"/);
    }
    const again = await page(product);
    assert.equal(again.cache, 'HIT');
    assert.doesNotMatch(again.html, /aria-label="Account"/);
    // An analytics cookie beside them changes nothing: the shopper's cookies still pass, the visitor's alone share the page.
    assert.equal((await page(product, `_ga=GA1.1.1; ${cookie}`)).cache, 'PASS');
    assert.equal((await page(product, 'cart=x; _ga=GA1.1.1')).cache, 'PASS');
    const visitor = await page(product, '_ga=GA1.1.1; consent=all');
    assert.equal(visitor.cache, 'HIT');
    assert.equal(visitor.html, again.html);
  });

  test("an ad click's ID and a newsletter's campaign tags share the page everyone gets; the page's own parameters are kept", async () => {
    const { productId } = await sellableVariant(admin);
    await purgesSettled();
    const product = `/p/${(await cached.get(`${API}/products/${productId}`)).body.data.slug}`;
    assert.equal((await page(product)).cache, 'MISS');
    const plain = await page(product);
    assert.equal(plain.cache, 'HIT');
    for (const query of [`?gclid=${Date.now()}`, '?utm_source=news&utm_medium=email&utm_campaign=spring', '?fbclid=a&_gl=1*x&msclkid=b']) {
      const click = await page(product + query);
      assert.equal(click.cache, 'HIT', query);
      assert.equal(click.html, plain.html, query);
    }
    // Taken out wherever they stand; what the page reads (the chosen size) reaches the service and keys the page.
    const sized = await page(`${product}?utm_source=news&size=M&gclid=1`);
    assert.equal(sized.cache, 'MISS');
    assert.equal((await page(`${product}?size=M`)).cache, 'HIT');
    assert.equal((await page(`${product}?size=M&utm_campaign=x`)).cache, 'HIT');
    // Only the key leaves them out: the service gets the URL as asked, so a redirect keeps them for the shop's analytics.
    const slashed = await fetch(`${varnish.url}${product}/?utm_source=news`, { redirect: 'manual' });
    assert.equal(slashed.status, 308);
    assert.equal(slashed.headers.get('location'), `${product}?utm_source=news`);
    // A parameter's value that looks like one is a value: that page is another.
    assert.equal((await page(`${product}?size=M&from=x?gclid=1`)).cache, 'MISS');
    // The page never hands them on (the sign-in link's return address names the page as the service saw it).
    assert.match(sized.html, /href="\/login\?next=[^"]*size%3DM"/);
    assert.doesNotMatch(sized.html, /utm_|gclid/);
  });
});

describe("a client's forwarded headers through the cache", () => {
  test('a forged X-Forwarded-Host or -Proto never replaces the page others get: refused when it names no host, kept apart when it does', async () => {
    const { productId } = await sellableVariant(admin);
    await purgesSettled();
    const page = `/p/${(await cached.get(`${API}/products/${productId}`)).body.data.slug}`;
    const get = (headers: Record<string, string> = {}) => fetch(varnish.url + page, { headers });
    const host = new URL(varnish.url).host;
    const forgeries: Record<string, string>[] = [
      { 'x-forwarded-host': `${host}/search?q=moved&` },
      { 'x-forwarded-proto': 'http:/x/search?q=moved&' },
    ];
    for (const forged of forgeries) {
      const refused = await get(forged);
      assert.equal(refused.status, 400, JSON.stringify(forged));
      await refused.arrayBuffer();
    }
    const elsewhere = { 'x-forwarded-host': 'elsewhere.example' };
    assert.equal((await get(elsewhere)).headers.get('x-cache'), 'MISS');
    assert.equal((await get(elsewhere)).headers.get('x-cache'), 'HIT');
    // Everyone else: a page of their own (not the forged one, nor its refusal), then hits on it.
    const plain = await get();
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('x-cache'), 'MISS');
    assert.match(await plain.text(), /<h1>/);
    assert.equal((await get()).headers.get('x-cache'), 'HIT');
  });
});

describe('purges', () => {
  test('a purge sent while Varnish is down arrives when it comes back', async () => {
    const { productId, variantId } = await sellableVariant(admin);
    await purgesSettled();
    await varnish.stop();
    expectStatus(await admin.patch(`${API}/admin/variants/${variantId}`, { price: '31.00' }), 200);
    // The purge is owed, and attempts fail while the cache is away.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await sql<{ state: string; attempts: number }>`
        SELECT d.state, d.attempts FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE e.type = 'cache.purge' AND e.payload -> 'keys' ? ${productId}`.execute(instances[0]!.db);
      if (rows.some((row) => row.state === 'PENDING' && row.attempts >= 2)) break;
      if (Date.now() > deadline) throw new Error(`no failed attempts recorded: ${JSON.stringify(rows)}`);
      await sleep(100);
    }
    await varnish.start();
    while (!(await varnish.bans()).some((ban) => ban.includes(productId))) {
      if (Date.now() > deadline) throw new Error(`no ban for ${productId}: ${(await varnish.bans()).join('\n')}`);
      await sleep(100);
    }
  });

  test('two instances behind one cache send each purge once, and a bad token or key is refused', async () => {
    const { productId, variantId } = await sellableVariant(admin);
    const targets = await instances[0]!.db
      .selectFrom('event_targets')
      .select('id')
      .where('kind', '=', 'cache')
      .where('deleted_at', 'is', null)
      .execute();
    assert.equal(targets.length, 1, 'both instances share one target for the one cache');
    // Written through the second instance; either may send it.
    const second = (await signInAs(instances[1]!, 'ADMIN')).client;
    expectStatus(await second.patch(`${API}/admin/variants/${variantId}`, { price: '41.00' }), 200);
    await visibleWithin(`${API}/products/${productId}`, (body) => body.data.variants[0].price === '41.00', 1000);
    await sleep(600); // a second sending would be done by now
    // The dispatcher records the purge after Varnish has answered (and the ban shows): wait for it, do not race it.
    const rows = await waitFor(async () => {
      const { rows } = await sql<{ deliveries: number; attempts: number; state: string }>`
        SELECT count(*)::int AS deliveries, sum(d.attempts)::int AS attempts, min(d.state) AS state
        FROM events e JOIN event_deliveries d ON d.event_id = e.id
        WHERE e.type = 'cache.purge' AND e.payload -> 'keys' ? ${productId}
        GROUP BY e.id ORDER BY e.id DESC LIMIT 1`.execute(instances[0]!.db);
      return rows.length > 0 && rows[0]!.state !== 'PENDING' && rows;
    }, 10_000);
    assert.deepEqual(rows, [{ deliveries: 1, attempts: 1, state: 'SUCCEEDED' }]);

    const purge = (headers: Record<string, string>) => fetch(varnish.purgeUrl, { method: 'POST', headers });
    assert.equal((await purge({ authorization: 'Bearer wrong-token-000000000', 'surrogate-key': 'products' })).status, 401);
    assert.equal((await purge({ authorization: `Bearer ${TOKEN}`, 'surrogate-key': 'a.*' })).status, 400);
    assert.equal((await purge({ authorization: `Bearer ${TOKEN}`, 'surrogate-key': 'products' })).status, 204);
  });
});
