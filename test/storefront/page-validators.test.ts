import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeShop } from '../helpers/storefront.js';
import { useApp } from '../helpers/use-app.js';

/**
 * Pages a shared cache may keep carry an ETag made of the catalog version they show, and a
 * revalidation is answered 304 from that version alone: no product read, no render. Run as behind a
 * purged cache (no page kept in the process, the category tree checked on every page), where every
 * revalidation from Varnish reaches the service; the purges themselves are not sent (EVENT_WORKER off).
 */
const t = useApp({
  env: { CACHE_PURGE_URLS: 'http://127.0.0.1:9/purge', CACHE_PURGE_TOKEN: 'purge-token-0123456789', EVENT_WORKER: 'off' },
});

/** The statements the service ran for one request. */
async function statementsFor(request: () => Promise<Response>): Promise<{ response: Response; sql: string[] }> {
  const from = t.queries.length;
  const response = await request();
  await response.arrayBuffer();
  return { response, sql: t.queries.slice(from) };
}

const conditional = (path: string, etag: string, headers: Record<string, string> = {}) =>
  fetch(t.baseUrl + path, { headers: { 'if-none-match': etag, ...headers } });

describe('storefront: page validators from the catalog version', () => {
  test('a revalidated page is answered 304 from the version alone until the catalog changes', async () => {
    const { product, shirts, admin } = await makeShop(t, { stock: 50 });
    for (const path of [`/p/${product.slug}`, `/c/${shirts.slug}`, '/']) {
      const first = await fetch(t.baseUrl + path);
      assert.equal(first.status, 200, path);
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^"sf\.[\w-]+\.[\w-]+\.\d+"$/, path);
      assert.match(first.headers.get('cache-control')!, /^public/, path);

      const { response: again, sql } = await statementsFor(() => conditional(path, etag));
      assert.equal(again.status, 304, path);
      assert.equal(again.headers.get('etag'), etag, path);
      // The same policy as the page, so a cache keeps it as long again.
      for (const name of ['cache-control', 'surrogate-control'])
        assert.equal(again.headers.get(name), first.headers.get(name), `${path} ${name}`);
      // Nothing but the catalog's version was read: no product, no category, no review. (The service's background
      // workers, polling the outbox and the event queues meanwhile, are not the page's.)
      const ofThePage = sql.filter((statement) => !/\b(outbox|events|event_\w+)\b/.test(statement));
      assert.ok(
        ofThePage.length > 0 && ofThePage.every((statement) => /\bcatalog_version\b/.test(statement)),
        `${path}: ${ofThePage.join('\n')}`,
      );
      // Several tags, as a cache that kept more than one copy sends them.
      assert.equal((await conditional(path, `"other", W/${etag}`)).status, 304, path);
    }

    // Any change a shopper can see moves the version: the page is rendered again, with the new price and a new tag.
    const page = `/p/${product.slug}`;
    const before = (await fetch(t.baseUrl + page)).headers.get('etag')!;
    const changed = await admin.patch(`/api/v1/admin/variants/${product.variants[0]!.id}`, { price: '47.25' });
    assert.equal(changed.status, 200, changed.text);
    const after = await conditional(page, before);
    assert.equal(after.status, 200);
    assert.match(await after.text(), /\$47\.25/);
    assert.notEqual(after.headers.get('etag'), before);
    assert.equal((await conditional(page, after.headers.get('etag')!)).status, 304);
  });

  test('a tag that is not the current one, or a request with a cookie, always gets the page', async () => {
    const { product } = await makeShop(t, { stock: 50 });
    const page = `/p/${product.slug}`;
    const etag = (await fetch(t.baseUrl + page)).headers.get('etag')!;
    const [, seed, release, version] = /^"sf\.([\w-]+)\.([\w-]+)\.(\d+)"$/.exec(etag)!;
    for (const forged of [
      `"sf.${seed}.${release}.${Number(version) + 1}"`, // a version the catalog has not reached
      `"sf.${seed}.${release}.${Number(version) - 1}"`, // an older one
      `"sf.AAAAAAAAAAAA.${release}.${version}"`, // another build or other settings
      `"sf.${seed}.other.${version}"`, // another API release
      `"${release}.${version}"`, // the API's own tag
    ]) {
      const response = await conditional(page, forged);
      assert.equal(response.status, 200, forged);
    }
    // A shopper's page is rendered for them, whatever tag comes with it, and carries no catalog tag.
    const mine = await conditional(page, etag, { cookie: 'cart=x' });
    assert.equal(mine.status, 200);
    assert.equal(mine.headers.get('cache-control'), 'private, no-store');
    assert.doesNotMatch(mine.headers.get('etag') ?? '', /"sf\./);
  });

  test("a page's tag answers for that page only: another page, a redirect or a missing page is answered as itself", async () => {
    const { product, admin } = await makeShop(t, { stock: 50 });
    for (const variant of product.variants) {
      const patched = await admin.patch(`/api/v1/admin/inventory/${variant.id}`, { quantity_on_hand: 2, reorder_level: 5 });
      assert.equal(patched.status, 200, patched.text);
    }
    const home = (await fetch(`${t.baseUrl}/`)).headers.get('etag')!;
    assert.match(home, /^"sf\./);
    for (const [path, status] of [
      [`/p/${product.slug}`, 200], // private: "only 2 left"
      ['/cart', 200],
      ['/checkout', 303],
      ['/no-such-page', 404],
      ['/?page=2', 200],
    ] as const) {
      const response = await fetch(t.baseUrl + path, { headers: { 'if-none-match': home }, redirect: 'manual' });
      assert.equal(response.status, status, path);
      assert.notEqual(response.headers.get('etag'), home, path);
    }
  });

  test('a page showing live stock ("only 2 left") carries no catalog tag: nothing purges it', async () => {
    const { product, admin } = await makeShop(t, { stock: 50 });
    for (const variant of product.variants) {
      const patched = await admin.patch(`/api/v1/admin/inventory/${variant.id}`, { quantity_on_hand: 2, reorder_level: 5 });
      assert.equal(patched.status, 200, patched.text);
    }
    const low = await fetch(`${t.baseUrl}/p/${product.slug}`);
    assert.match(await low.text(), /Only 2 left/);
    assert.equal(low.headers.get('cache-control'), 'private, no-store');
    assert.doesNotMatch(low.headers.get('etag') ?? '', /"sf\./);
  });
});
