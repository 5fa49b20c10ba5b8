import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { servedNow } from '../../scripts/storefront-releases.js';
import { startTestApp } from '../helpers/app.js';
import { errorOf } from '../helpers/factories.js';
import { requestAsWritten } from '../helpers/raw-http.js';
import { pictureWebp } from '../../scripts/seed-pictures.js';
import { customer, makeShop, ordersOf } from '../helpers/storefront.js';
import { useApp } from '../helpers/use-app.js';

/**
 * How the service serves the storefront at `/` beside the API: shop pages for every path the
 * service does not own, the API's answers (404, 405) unchanged for its own paths, assets cached
 * for good, forms that a cross-site page cannot send, and no shop without a build.
 */
const t = useApp();

/** The scripts a page makes the browser load (SvelteKit names them in the Link header as modulepreload). */
async function scriptsOf(pathname: string): Promise<string[]> {
  const response = await fetch(t.baseUrl + pathname);
  assert.equal(response.status, 200);
  return [...(response.headers.get('link') ?? '').matchAll(/<([^>]+\.js)>; rel="modulepreload"/g)].map(
    (m) => new URL(m[1]!, t.baseUrl + pathname).pathname,
  );
}

describe('storefront: served by the service', () => {
  test('shop pages at /, the API keeps its own answers for its paths', async () => {
    const home = await fetch(`${t.baseUrl}/`);
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
    const html = await home.text();
    assert.match(html, /<title>Northwind Supply<\/title>/);
    // Browsing pages are plain HTML: no script at all.
    assert.doesNotMatch(html, /<script(?! type="application\/ld\+json")/);
    // SvelteKit's own policy replaces the API's default on pages: scripts from this origin only, its inline
    // bootstrap by hash on the pages that have one.
    assert.match(home.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    const cart = await fetch(`${t.baseUrl}/cart`);
    assert.match(cart.headers.get('content-security-policy') ?? '', /script-src 'self' 'sha256-[^']+';/);
    assert.equal(home.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    assert.equal(home.headers.get('x-content-type-options'), 'nosniff');

    const unknownApi = await t.anonymous.get('/api/v1/no-such-thing');
    assert.equal(unknownApi.status, 404);
    assert.equal(errorOf(unknownApi).code, 'NOT_FOUND');
    const wrongMethod = await t.anonymous.post('/api/v1/products', {});
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET');
    // Sent as written: through fetch, '/healthz/../health/x' would leave as '/health/x'.
    for (const owned of [
      '/api',
      '/media/ecommerce/none.png',
      '/admin/assets/none.js',
      '/docs/none.css',
      '/healthz/../health/x',
      '/shop/%2e%2e/api/x',
      '/c/../admin/assets/none.js',
      '/c\\..\\api\\x',
      '/api#x',
    ]) {
      const response = await requestAsWritten(t.baseUrl, owned);
      assert.equal(response.status, 404, owned);
      assert.match(response.contentType, /^application\/json/, owned);
    }
    assert.equal((await t.anonymous.get('/health')).status, 200);

    const missing = await fetch(`${t.baseUrl}/no-such-page`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /We could not find that page/);
  });

  test('a visitor whose only shop cookie is the pre-session one gets the page kept for everyone, as a private page', async () => {
    const { product, admin } = await makeShop(t, { stock: 50 });
    const kept = await fetch(`${t.baseUrl}/p/${product.slug}`);
    assert.match(kept.headers.get('cache-control')!, /^public/);
    await kept.text();
    // Renamed: nothing takes the page out of this service's few seconds' keeping (page-cache.ts), so a render shows the new name.
    const renamed = await admin.patch(`/api/v1/admin/products/${product.id}`, { name: `${product.name} Renamed` });
    assert.equal(renamed.status, 200, renamed.text);

    const preSession = await fetch(`${t.baseUrl}/p/${product.slug}`, { headers: { cookie: '_ga=1; presession=p' } });
    const html = await preSession.text();
    assert.ok(html.includes(`<h1>${product.name}</h1>`), 'the page kept for everyone, not a render of its own');
    assert.equal(preSession.headers.get('cache-control'), 'private, no-store');
    for (const shared of ['surrogate-key', 'cache-tag', 'surrogate-control']) assert.equal(preSession.headers.get(shared), null, shared);
    assert.deepEqual(preSession.headers.getSetCookie(), []);
    // With any other of the shop's cookies beside it (a cart, a session), the page is rendered for them.
    const [variant] = product.variants;
    const cart = `cart=id~AAAAAAAAAAAAAAAAAAAA.${product.id}~${variant!.id}~1`;
    for (const cookie of ['presession=p; ' + cart, cart]) {
      const rendered = await (await fetch(`${t.baseUrl}/p/${product.slug}`, { headers: { cookie } })).text();
      assert.ok(rendered.includes(`<h1>${product.name} Renamed</h1>`), cookie);
      assert.match(rendered, /Cart, 1 item/, cookie);
    }
  });

  test("an ad click's ID and a newsletter's campaign tags are not the page's: it is rendered without them and kept for everyone", async () => {
    const { product, admin } = await makeShop(t, { stock: 50 });
    const first = await fetch(`${t.baseUrl}/p/${product.slug}?size=M&utm_source=news&utm_campaign=spring&gclid=1`);
    const html = await first.text();
    assert.match(first.headers.get('cache-control')!, /^public/);
    // The page hands none of them on: the sign-in link returns to the page with its own parameters only.
    assert.match(html, /href="\/login\?next=%2Fp%2F[^"]*%3Fsize%3DM"/);
    assert.doesNotMatch(html, /utm_|gclid/);
    const renamed = await admin.patch(`/api/v1/admin/products/${product.id}`, { name: `${product.name} Renamed` });
    assert.equal(renamed.status, 200, renamed.text);
    // A redirect keeps them for the shop's analytics (it is never kept by any cache).
    const slashed = await fetch(`${t.baseUrl}/p/${product.slug}/?utm_source=news`, { redirect: 'manual' });
    assert.equal(slashed.status, 308);
    assert.equal(slashed.headers.get('location'), `/p/${product.slug}?utm_source=news`);
    // Another click (a click ID of its own), the plain URL: the one page kept (page-cache.ts), not a render each.
    for (const query of ['?fbclid=2&size=M', '?size=M', '?size=M&_gl=1*abc&utm_medium=email']) {
      const again = await (await fetch(`${t.baseUrl}/p/${product.slug}${query}`)).text();
      assert.ok(again.includes(`<h1>${product.name}</h1>`), `${query}: the kept page`);
    }
  });

  test("a page the browser revalidates (304) keeps its own policy, not the service's defaults", async () => {
    const first = await fetch(`${t.baseUrl}/cart`);
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.ok(etag, 'pages carry an ETag');
    const again = await fetch(`${t.baseUrl}/cart`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    // A 304's headers replace the kept response's: the API's CSP would block the page's inline bootstrap,
    // and its no-referrer would make the page's forms post Origin: null, which SvelteKit refuses.
    for (const name of ['content-security-policy', 'referrer-policy']) {
      const value = again.headers.get(name);
      assert.ok(value === null || value === first.headers.get(name), `${name}: ${value}`);
    }
    assert.equal(await again.text(), '');
  });

  test('a visitor with no cookie gets pages a shared cache may keep, named by what they show; anyone else a private page', async () => {
    const { product, shirts, admin } = await makeShop(t, { stock: 50 });
    const keysOf = (response: Response) => (response.headers.get('surrogate-key') ?? '').split(' ');
    const productPage = await fetch(`${t.baseUrl}/p/${product.slug}`);
    assert.equal(productPage.status, 200);
    // The API's own policy (CACHE_*), copied from the answers the page was built from.
    assert.match(productPage.headers.get('cache-control')!, /^public, max-age=0, s-maxage=\d+/);
    assert.match(productPage.headers.get('surrogate-control')!, /stale-while-revalidate/);
    assert.match(productPage.headers.get('vary') ?? '', /\bcookie\b/i);
    assert.deepEqual(productPage.headers.getSetCookie(), []);
    for (const key of [product.id, `reviews:${product.id}`, 'categories', 'store']) assert.ok(keysOf(productPage).includes(key), key);
    assert.deepEqual(productPage.headers.get('cache-tag')!.split(','), keysOf(productPage));
    // Kept here for a few seconds (page-cache.ts), and revalidated from what is kept: a 304 with the same policy.
    const revalidated = await fetch(`${t.baseUrl}/p/${product.slug}`, { headers: { 'if-none-match': productPage.headers.get('etag')! } });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers.get('cache-control'), productPage.headers.get('cache-control'));

    const category = await fetch(`${t.baseUrl}/c/${shirts.slug}`);
    for (const key of ['products', shirts.public_id, product.id]) assert.ok(keysOf(category).includes(key), key);
    assert.ok(keysOf(await fetch(`${t.baseUrl}/`)).includes('products'));

    // A cookie of the shop's (a session, a visitor's CSRF token, a cart) makes the page someone's; so does a
    // page that sets one (a form's token). Any other cookie (analytics) changes nothing: the page kept above.
    for (const cookie of ['cart=x', 'presession=x', '_ga=GA1.1.1; session=x']) {
      const withCookie = await fetch(`${t.baseUrl}/p/${product.slug}`, { headers: { cookie } });
      assert.equal(withCookie.headers.get('cache-control'), 'private, no-store', cookie);
      assert.equal(withCookie.headers.get('surrogate-key'), null, cookie);
    }
    const analytics = await fetch(`${t.baseUrl}/p/${product.slug}`, { headers: { cookie: '_ga=GA1.1.1; consent=all' } });
    assert.equal(analytics.headers.get('cache-control'), productPage.headers.get('cache-control'));
    assert.equal(analytics.headers.get('etag'), productPage.headers.get('etag'));
    assert.deepEqual(analytics.headers.getSetCookie(), []);
    const login = await fetch(`${t.baseUrl}/login`);
    assert.ok(login.headers.getSetCookie().length > 0);
    assert.equal(login.headers.get('cache-control'), 'private, no-store');

    // "Only 2 left" moves with every sale and nothing purges it: that page stays private.
    for (const variant of product.variants) {
      const patched = await admin.patch(`/api/v1/admin/inventory/${variant.id}`, { quantity_on_hand: 2, reorder_level: 5 });
      assert.equal(patched.status, 200, patched.text);
    }
    // (Another URL than above: this service keeps cookie-less pages for a few seconds, page-cache.ts.)
    const low = await fetch(`${t.baseUrl}/p/${product.slug}?size=M`);
    assert.ok(/Only 2 left/.test(await low.text()), 'the page says how many are left');
    assert.equal(low.headers.get('cache-control'), 'private, no-store');
  });

  test('a page kept for one host name is never served for another: its CSP names the image host by the name it was asked under', async () => {
    const { product } = await makeShop(t, { stock: 50 });
    const media = new URL(t.config.publicBaseUrl);
    const path = `/p/${product.slug}?hosts=1`;
    const imagesAllowed = (csp: string) => /img-src [^;]*/.exec(csp)?.[0].split(' ').includes(media.origin) ?? false;
    // Asked under the image host's own name: its images are 'self', so the CSP does not name it.
    const asMediaHost = await requestAsWritten(t.baseUrl, path, { headers: { host: media.host } });
    assert.equal(asMediaHost.status, 200);
    assert.equal(imagesAllowed(String(asMediaHost.headers['content-security-policy'])), false);
    // The same page, at once, under another name: rendered for it, with the image host named.
    const direct = await fetch(t.baseUrl + path);
    assert.equal(direct.status, 200);
    assert.equal(imagesAllowed(direct.headers.get('content-security-policy') ?? ''), true, 'images from the image host are allowed');
  });

  test("a page and its data (a browser's navigation without reload) are kept apart: neither is ever served for the other", async () => {
    const { product } = await makeShop(t, { stock: 50 });
    const kinds = async (order: readonly ('page' | 'data')[], query: string) => {
      const seen: string[] = [];
      for (const kind of order) {
        const url = kind === 'page' ? `/p/${product.slug}?${query}` : `/p/${product.slug}/__data.json?${query}&x-sveltekit-invalidated=01`;
        const response = await fetch(t.baseUrl + url);
        assert.equal(response.status, 200, url);
        seen.push(`${kind}:${(response.headers.get('content-type') ?? '').split(';')[0]}`);
        await response.arrayBuffer();
      }
      return seen;
    };
    // Each after the other within the page cache's life (CI saw a navigation's JSON served as the page).
    assert.deepEqual(await kinds(['data', 'page', 'data'], 'size=M'), ['data:application/json', 'page:text/html', 'data:application/json']);
    assert.deepEqual(await kinds(['page', 'data', 'page'], 'size=S'), ['page:text/html', 'data:application/json', 'page:text/html']);
  });

  test('assets are precompressed and cached for a year; a missing one is a plain 404', async () => {
    const scripts = await scriptsOf('/cart');
    assert.ok(scripts.length > 0);
    for (const script of scripts) {
      const response = await fetch(t.baseUrl + script, { headers: { 'accept-encoding': 'br' } });
      assert.equal(response.status, 200, script);
      assert.match(response.headers.get('content-type') ?? '', /javascript/);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(response.headers.get('content-encoding'), 'br');
    }
    const missing = await fetch(`${t.baseUrl}/_app/immutable/chunks/none.js`);
    assert.equal(missing.status, 404);
    // The compressed copies beside each asset are how it is sent, not addresses of their own.
    for (const copy of [`${scripts[0]}.br`, `${scripts[0]}.gz`]) assert.equal((await fetch(t.baseUrl + copy)).status, 404, copy);
    assert.doesNotMatch(missing.headers.get('content-type') ?? '', /html/);
  });

  test('the product page ships at most 60 KB of gzipped JavaScript', async () => {
    const { product } = await makeShop(t);
    let total = 0;
    for (const script of await scriptsOf(`/p/${product.slug}`))
      total += gzipSync(Buffer.from(await (await fetch(t.baseUrl + script)).arrayBuffer())).length;
    assert.ok(total <= 60 * 1024, `${total} bytes gzipped`);
  });

  test('forms: a cross-site post is refused, and a same-site post without the API token changes nothing', async () => {
    const { product } = await makeShop(t);
    const buyer = await customer(t);
    await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 1 });
    const cookie = [...buyer.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0].public_id;
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const post = (pathname: string, fields: Record<string, string>, origin: string) =>
      fetch(t.baseUrl + pathname, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: form(fields),
      });

    const crossSite = await post('/checkout?/place', { address, key: 'k-1', csrf: 'anything' }, 'https://evil.example');
    assert.equal(crossSite.status, 403);
    // Same origin (SvelteKit's check passes) but the page's token is missing or another session's: the API refuses.
    for (const csrf of ['', 'forged-token']) {
      const forged = await post('/checkout?/place', { address, key: `k-${csrf}`, csrf }, t.baseUrl);
      assert.equal(forged.status, 403);
      assert.match(await forged.text(), /This form had expired/);
    }
    const removal = await post('/cart?/remove', { variant: product.variants[0]!.id, csrf: '' }, t.baseUrl);
    assert.equal(removal.status, 403);
    // A review with a photo sent as a file: the photo is not stored for a forged form either.
    const filesBefore = await t.db
      .selectFrom('media_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const review = new FormData();
    for (const [name, value] of Object.entries({ rating: '5', title: 'Forged', comment: 'Not mine', csrf: 'forged-token' }))
      review.set(name, value);
    review.set('photos', new File([new Uint8Array(await pictureWebp('tee', '#112233'))], 'p.webp', { type: 'image/webp' }));
    const forgedReview = await fetch(`${t.baseUrl}/p/${product.slug}/review`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: t.baseUrl, accept: 'text/html' },
      body: review,
    });
    assert.equal(forgedReview.status, 403);
    const filesAfter = await t.db
      .selectFrom('media_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(filesAfter.n), Number(filesBefore.n), 'no photo stored');
    assert.equal((await ordersOf(t, buyer.email)).length, 0);
    assert.equal((await buyer.client.get('/api/v1/cart')).body.data.items.length, 1, 'the cart is as it was');
  });

  test('form bodies are bounded: 64 KB for a form, 12 MB for the review form, and only so many of those read at once', async () => {
    const { product } = await makeShop(t);
    const post = (pathname: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
      fetch(t.baseUrl + pathname, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: t.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    const big = `email=${'a'.repeat(70 * 1024)}`;
    const refused = await post('/login', big);
    assert.equal(refused.status, 413);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'PAYLOAD_TOO_LARGE');
    // Sent without a length (chunked): cut off all the same, and nothing is done with what came.
    const chunked = await fetch(`${t.baseUrl}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: t.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.equal(((await chunked.json()) as { error: { code: string } }).error.code, 'PAYLOAD_TOO_LARGE');
    // The review form may carry photos: a megabyte is read (and refused for want of a session, not of room).
    const photos = await post(`/p/${product.slug}/review`, `title=${'a'.repeat(1024 * 1024)}`);
    assert.notEqual(photos.status, 413);
    await photos.arrayBuffer();
  });

  test('review forms read at once are bounded (MAX_UPLOADS_IN_FLIGHT): one more waits for a 503 with Retry-After', async () => {
    const bounded = await startTestApp({ MAX_UPLOADS_IN_FLIGHT: '1' });
    try {
      const { product } = await makeShop(bounded);
      const { hostname, port } = new URL(bounded.baseUrl);
      // A form that announces a megabyte and sends a little: it holds the one place while it lasts.
      const held = http.request({
        hostname,
        port,
        path: `/p/${product.slug}/review`,
        method: 'POST',
        headers: { origin: bounded.baseUrl, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(1024 * 1024) },
      });
      held.on('error', () => {});
      held.write('title=');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await fetch(`${bounded.baseUrl}/p/${product.slug}/review`, {
        method: 'POST',
        headers: { origin: bounded.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'title=x',
      });
      assert.equal(second.status, 503);
      assert.equal(second.headers.get('retry-after'), '1');
      assert.equal(((await second.json()) as { error: { code: string } }).error.code, 'SERVICE_UNAVAILABLE');
      // Other forms are not held up by it.
      const login = await fetch(`${bounded.baseUrl}/login`, { redirect: 'manual' });
      assert.equal(login.status, 200);
      await login.arrayBuffer();
      held.destroy();
    } finally {
      await bounded.close();
    }
  });

  test('a running service keeps serving the release it started on when a new build takes the link', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'storefront-link-'));
    const link = path.join(scratch, 'build');
    symlinkSync(realpathSync('packages/storefront/build'), link);
    const release = realpathSync(link);
    // Every service on this build marks it (other test files' too): this one's are those it adds.
    const marks = () => (existsSync(path.join(release, '.serving')) ? readdirSync(path.join(release, '.serving')) : []);
    const before = new Set(marks());
    const running = await startTestApp({ STOREFRONT_DIR: link });
    const added = marks().filter((name) => !before.has(name) && name.startsWith(`${process.pid}-`));
    try {
      // It marks the release it serves, so a build meanwhile does not prune it (scripts/storefront-releases.ts).
      assert.equal(added.length, 1);
      assert.equal(servedNow(release), true);
      // The link moves on (to a build with nothing in it yet) after the service started.
      const next = path.join(scratch, 'next');
      mkdirSync(next);
      const staged = path.join(scratch, 'build.next');
      symlinkSync(next, staged);
      renameSync(staged, link);
      // Pages it has not rendered yet (their code loads now) and the scripts they name come from its release.
      for (const pathname of ['/login', '/search?q=tee', '/cart']) {
        const page = await fetch(running.baseUrl + pathname);
        assert.equal(page.status, 200, pathname);
        await page.arrayBuffer();
      }
      const scripts = [...((await fetch(`${running.baseUrl}/cart`)).headers.get('link') ?? '').matchAll(/<([^>]+\.js)>/g)];
      assert.ok(scripts.length > 0);
      for (const [, script] of scripts) {
        const asset = await fetch(new URL(script!, `${running.baseUrl}/cart`));
        assert.equal(asset.status, 200, script);
        await asset.arrayBuffer();
      }
    } finally {
      await running.close();
      rmSync(scratch, { recursive: true, force: true });
    }
    assert.equal(marks().includes(added[0]!), false, 'its mark goes when it closes');
  });

  test('without a build, shop paths answer 503 STOREFRONT_NOT_BUILT and the API works', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'no-storefront-'));
    const bare = await startTestApp({ STOREFRONT_DIR: empty });
    try {
      const client = bare.client();
      const home = await client.get('/');
      assert.equal(home.status, 503);
      assert.equal(errorOf(home).code, 'STOREFRONT_NOT_BUILT');
      assert.equal((await client.get('/api/v1/products')).status, 200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
