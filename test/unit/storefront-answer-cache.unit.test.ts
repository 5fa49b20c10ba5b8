import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptAnswers } from '../../packages/storefront/src/lib/server/answer-cache.js';

/** Public API answers the storefront keeps while the catalog's version stands (packages/storefront/src/lib/server/answer-cache.ts). */

const PUBLIC = { 'cache-control': 'public, max-age=0, s-maxage=300', 'content-type': 'application/json' };

/**
 * An API whose catalog is at `catalog.version`: every public read answers with that version's ETag and
 * a body naming the version, and the first page of categories answers a matching If-None-Match with 304.
 * `calls` lists what was asked, conditional requests marked.
 */
function fakeApi(overrides: Record<string, (version: number) => Response> = {}) {
  const catalog = { version: 1 };
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const condition = request.headers.get('if-none-match');
    calls.push(`${request.method} ${url.pathname}${url.search}${condition ? ` if-none-match ${condition}` : ''}`);
    const etag = `"rel.${catalog.version}"`;
    if (condition === etag) return new Response(null, { status: 304, headers: { ...PUBLIC, etag } });
    const override = overrides[url.pathname];
    if (override) return override(catalog.version);
    return new Response(JSON.stringify({ path: url.pathname, version: catalog.version }), { headers: { ...PUBLIC, etag } });
  };
  return { catalog, calls, fetch };
}

const transport = (instance: object, catalog: { tag(): Promise<string> } | null = null) => ({
  baseUrl: 'http://api',
  headers: { 'x-request-id': 'req-1' },
  instance,
  catalog,
});
const PRODUCT = 'http://api/api/v1/products/by-slug/shirt';
const REVIEWS = 'http://api/api/v1/products/prd_1/reviews?page=1';

test('a later page takes a kept answer after one version check, and every further one without asking', async () => {
  const api = fakeApi();
  const instance = {};
  const first = keptAnswers(transport(instance), api.fetch);
  assert.deepEqual(await (await first(PRODUCT)).json(), { path: '/api/v1/products/by-slug/shirt', version: 1 });
  await first(REVIEWS);
  assert.equal(api.calls.length, 2);

  api.calls.length = 0;
  const second = keptAnswers(transport(instance), api.fetch);
  const [product, reviews] = await Promise.all([second(PRODUCT), second(new Request(REVIEWS))]);
  assert.deepEqual(await product.json(), { path: '/api/v1/products/by-slug/shirt', version: 1 });
  assert.deepEqual(await reviews.json(), { path: '/api/v1/products/prd_1/reviews', version: 1 });
  assert.equal(product.headers.get('etag'), '"rel.1"', 'a kept answer carries its headers, so the page still knows what it was built from');
  assert.deepEqual(api.calls, ['GET /api/v1/categories?limit=1 if-none-match "rel.1"'], 'one version check for the whole page');
});

test('once the catalog moved, a kept answer is asked for again, and a page that keeps nothing asks no version', async () => {
  const api = fakeApi();
  const instance = {};
  await keptAnswers(transport(instance), api.fetch)(PRODUCT);
  api.catalog.version = 2;
  api.calls.length = 0;
  const page = keptAnswers(transport(instance), api.fetch);
  assert.deepEqual(await (await page(PRODUCT)).json(), { path: '/api/v1/products/by-slug/shirt', version: 2 });
  assert.deepEqual(api.calls, ['GET /api/v1/categories?limit=1 if-none-match "rel.1"', 'GET /api/v1/products/by-slug/shirt']);

  api.calls.length = 0;
  await keptAnswers(transport({}), api.fetch)(PRODUCT);
  assert.deepEqual(
    api.calls,
    ['GET /api/v1/products/by-slug/shirt'],
    'another API in the process has its own answers, and nothing to check',
  );
});

test('nothing of a shopper is kept: private, cookie-setting, cookie-varying or unversioned answers are asked for every time', async () => {
  const answer = (headers: Record<string, string>) => () =>
    new Response('{}', { headers: { 'content-type': 'application/json', ...headers } });
  const api = fakeApi({
    '/api/v1/cart': answer({ 'cache-control': 'private, no-store' }),
    '/api/v1/products/prd_1/stock': answer({ 'cache-control': 'private, no-store', etag: '"rel.1"' }),
    '/api/v1/auth/session': answer({ ...PUBLIC, etag: '"rel.1"', 'set-cookie': 'session=abc; HttpOnly' }),
    '/api/v1/products/prd_2': answer({ ...PUBLIC, etag: '"rel.1"', vary: 'Origin, Cookie' }),
    '/api/v1/store': answer({ ...PUBLIC, etag: '"rel.settingshash"' }),
  });
  const paths = ['/api/v1/cart', '/api/v1/products/prd_1/stock', '/api/v1/auth/session', '/api/v1/products/prd_2', '/api/v1/store'];
  const instance = {};
  for (let page = 0; page < 2; page++) {
    const fetch = keptAnswers(transport(instance), api.fetch);
    for (const path of paths) await fetch(`http://api${path}`);
  }
  assert.deepEqual(
    api.calls,
    [...paths, ...paths].map((path) => `GET ${path}`),
  );
});

test('writes, conditional requests and other hosts pass through untouched', async () => {
  const api = fakeApi();
  const instance = {};
  await keptAnswers(transport(instance), api.fetch)(PRODUCT);
  api.calls.length = 0;
  const fetch = keptAnswers(transport(instance), api.fetch);
  await fetch('http://api/api/v1/cart/items', { method: 'POST', body: '{}' });
  await fetch(PRODUCT, { headers: { 'if-none-match': '"rel.0"' } });
  await fetch('http://images.example/api/x.jpg');
  assert.deepEqual(api.calls, ['POST /api/v1/cart/items', 'GET /api/v1/products/by-slug/shirt if-none-match "rel.0"', 'GET /api/x.jpg']);
});

test('when the version cannot be learnt, nothing kept is used', async () => {
  const api = fakeApi();
  const instance = {};
  await keptAnswers(transport(instance), api.fetch)(PRODUCT);
  const flaky: typeof fetch = async (input, init) => {
    const url = new Request(input, init).url;
    if (url.includes('/categories')) throw new TypeError('fetch failed');
    return api.fetch(input, init);
  };
  api.calls.length = 0;
  const page = keptAnswers(transport(instance), flaky);
  assert.deepEqual(await (await page(PRODUCT)).json(), { path: '/api/v1/products/by-slug/shirt', version: 1 });
  assert.deepEqual(api.calls, ['GET /api/v1/products/by-slug/shirt'], 'the product read again, not taken unchecked');
});

test('in the service, the version comes from the service itself: no request for it', async () => {
  const api = fakeApi();
  const instance = {};
  const catalog = { tag: async () => `"rel.${api.catalog.version}"` };
  await keptAnswers(transport(instance, catalog), api.fetch)(PRODUCT);
  api.calls.length = 0;
  await keptAnswers(transport(instance, catalog), api.fetch)(PRODUCT);
  assert.deepEqual(api.calls, [], 'kept, and the version asked of the service');
  api.catalog.version = 2;
  assert.deepEqual(await (await keptAnswers(transport(instance, catalog), api.fetch)(PRODUCT)).json(), {
    path: '/api/v1/products/by-slug/shirt',
    version: 2,
  });
  assert.deepEqual(api.calls, ['GET /api/v1/products/by-slug/shirt']);
});
