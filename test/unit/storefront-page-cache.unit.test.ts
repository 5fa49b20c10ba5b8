import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import {
  answerableFromCache,
  cacheable,
  cachedPage,
  freshPage,
  MAX_BYTES,
  PAGE_TTL_MS,
  pageCacheSize,
  type CachedPage,
} from '../../packages/storefront/src/lib/server/page-cache.js';

/** The storefront's micro-cache of anonymous pages (packages/storefront/src/lib/server/page-cache.ts). */
const page = (body: string, init: ResponseInit = {}) =>
  new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/html', ...init.headers },
    ...(init.status ? { status: init.status } : {}),
  });
const text = (result: CachedPage | Response) =>
  result instanceof Response ? result.text() : Promise.resolve(new TextDecoder().decode(result.body));

test("only requests without credentials or any cookie of the shop's may use it", () => {
  assert.equal(cacheable(new Request('http://shop/p/x')), true);
  const withCookie = (cookie: string) => cacheable(new Request('http://shop/p/x', { headers: { cookie } }));
  for (const cookie of ['cart=a~b~1', 'session=s', 'presession=p', '_ga=GA1.1; cart=x', 'consent=1;session=s', 'merged=1.0'])
    assert.equal(withCookie(cookie), false, cookie);
  // An analytics or consent cookie, or a name that only contains one of the shop's, changes no page.
  for (const cookie of ['_ga=GA1.1.2', '_ga=1; consent=all', 'mysession=1', 'session_id=1', 'Session=1', 'session'])
    assert.equal(withCookie(cookie), true, cookie);
  assert.equal(cacheable(new Request('http://shop/p/x', { headers: { authorization: 'Bearer x' } })), false);
  assert.equal(cacheable(new Request('http://shop/cart?/update', { method: 'POST' })), false);
});

test('a request whose only shop cookie is the pre-session one may be answered from what is kept, never fill it', () => {
  const answerable = (cookie: string, init: RequestInit = {}) =>
    answerableFromCache(new Request('http://shop/p/x', { ...init, headers: { cookie, ...init.headers } }));
  for (const cookie of ['presession=p', '_ga=1; presession=p', 'presession=p;presession=q']) {
    assert.equal(answerable(cookie), true, cookie);
    assert.equal(cacheable(new Request('http://shop/p/x', { headers: { cookie } })), false, cookie);
  }
  for (const cookie of ['', '_ga=1', 'presession=p; session=s', 'cart=a~b~1; presession=p', 'presession=p; added=x', 'mypresession=1'])
    assert.equal(answerable(cookie), false, cookie);
  assert.equal(answerable('presession=p', { headers: { authorization: 'Bearer x' } }), false);
  assert.equal(answerable('presession=p', { method: 'POST' }), false);
});

test('what is kept is handed out while fresh without a render; nothing kept is null', async (t) => {
  const instance = {};
  assert.equal(await freshPage(instance, '/p/x'), null);
  await cachedPage(instance, '/p/x', async () => page('kept'));
  assert.equal(await text((await freshPage(instance, '/p/x'))!), 'kept');
  assert.equal(await freshPage(instance, '/p/y'), null);
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() + PAGE_TTL_MS + 1 });
  assert.equal(await freshPage(instance, '/p/x'), null, 'stale: a render of its own');
});

test('a page is rendered once for many visitors at once, and kept only when it sets no cookie and is a 200', async () => {
  const instance = {};
  let renders = 0;
  const render = async () => {
    renders++;
    await new Promise((r) => setTimeout(r, 20));
    return page(`page ${renders}`);
  };
  const results = await Promise.all(Array.from({ length: 10 }, () => cachedPage(instance, '/p/x', render)));
  assert.equal(renders, 1);
  for (const result of results) assert.equal(await text(result), 'page 1');

  let forms = 0;
  const withCookie = async () => page(`form ${++forms}`, { headers: { 'set-cookie': 'presession=x; HttpOnly' } });
  assert.equal(await text(await cachedPage(instance, '/login', withCookie)), 'form 1');
  assert.equal(await text(await cachedPage(instance, '/login', withCookie)), 'form 2', 'a page that sets a cookie is never kept');
  let missing = 0;
  const notFound = async () => page(`missing ${++missing}`, { status: 404 });
  await cachedPage(instance, '/p/gone', notFound);
  await cachedPage(instance, '/p/gone', notFound);
  assert.equal(missing, 2, 'a 404 is never kept');
  // Another service in the same process has its own pages.
  assert.equal(await text(await cachedPage({}, '/p/x', async () => page('other service'))), 'other service');
});

test('past its time a page is renewed by one request while the others still get it', async () => {
  mock.timers.enable({ apis: ['Date'] });
  try {
    const instance = {};
    let renders = 0;
    let release: () => void = () => {};
    const render = async () => {
      renders++;
      if (renders > 1) await new Promise<void>((r) => (release = r));
      return page(`v${renders}`);
    };
    assert.equal(await text(await cachedPage(instance, '/c/x', render)), 'v1');
    mock.timers.tick(PAGE_TTL_MS + 1);
    const renewing = cachedPage(instance, '/c/x', render);
    const others = await Promise.all([cachedPage(instance, '/c/x', render), cachedPage(instance, '/c/x', render)]);
    for (const other of others) assert.equal(await text(other), 'v1', 'served stale while it renews');
    release();
    assert.equal(await text(await renewing), 'v2');
    assert.equal(await text(await cachedPage(instance, '/c/x', render)), 'v2');
    assert.equal(renders, 2);
  } finally {
    mock.timers.reset();
  }
});

test('bounded by bytes: a flood of long, padded URLs keeps at most MAX_BYTES, the pages in use staying', async (t) => {
  // The clock stands still: every page stays fresh however slow the machine, so only the bounds drop any.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const instance = {};
  const body = 'x'.repeat(100 * 1024);
  const hot = async () => page(`hot ${body}`);
  await cachedPage(instance, 'http://shop/', hot);
  let hotRenders = 0;
  for (let i = 0; i < 1200; i++) {
    await cachedPage(instance, `http://shop/c/a?n=${i}&pad=${'p'.repeat(12_000)}`, async () => page(body));
    // The home page, asked for all along, is never the least recently used.
    if (i % 50 === 0) await cachedPage(instance, 'http://shop/', async () => (hotRenders++, hot()));
  }
  const { pages, bytes } = pageCacheSize(instance);
  assert.ok(bytes <= MAX_BYTES, `${bytes} bytes kept, at most ${MAX_BYTES}`);
  assert.ok(pages < 1200 && pages > 50, `${pages} pages kept`);
  assert.equal(hotRenders, 0, 'the page in use stayed kept');
  assert.ok(await freshPage(instance, 'http://shop/'));
  assert.equal(await freshPage(instance, 'http://shop/c/a?n=0&pad=' + 'p'.repeat(12_000)), null, 'the oldest went first');
});

test('a page past its stale window is dropped when the next one is kept', async () => {
  mock.timers.enable({ apis: ['Date'] });
  try {
    const instance = {};
    await cachedPage(instance, '/old', async () => page('old'));
    assert.equal(pageCacheSize(instance).pages, 1);
    const kept = pageCacheSize(instance).bytes;
    assert.ok(kept > 0);
    mock.timers.tick(PAGE_TTL_MS * 6 + 1);
    await cachedPage(instance, '/new', async () => page('new'));
    assert.equal(pageCacheSize(instance).pages, 1, 'only the new page');
    assert.equal(await freshPage(instance, '/old'), null);
    assert.equal(pageCacheSize(instance).bytes, kept, 'its bytes given back (the two are the same size)');
  } finally {
    mock.timers.reset();
  }
});
