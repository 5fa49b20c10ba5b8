import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';

/**
 * Issue 24, item 6: the API reference at /docs. A query string on its page
 * no longer sends it into a redirect loop, and whatever the query says, the
 * page shows this service's document, fetched from this service, in a real
 * browser.
 */
let t: TestApp;
let browser: Browser;
/** A server posing as the attacker's, offering another document to any page that asks. */
const foreign = createServer((request, response) => {
  foreignRequests.push(request.url ?? '');
  response
    .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
    .end(JSON.stringify({ openapi: '3.1.0', info: { title: 'Forged API', version: '6.6.6' }, paths: {} }));
});
const foreignRequests: string[] = [];
let foreignOrigin: string;

before(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});
after(async () => {
  await browser?.close();
  await t?.close();
  await new Promise((resolve) => foreign.close(resolve));
});

/** Query strings that would make Swagger UI load another document, if they reached it. */
const hostileQueries = () => {
  const spec = `${foreignOrigin}/spec.json`;
  return [
    `url=${encodeURIComponent(spec)}`,
    `configUrl=${encodeURIComponent(`${foreignOrigin}/config.json`)}`,
    `urls=${encodeURIComponent(JSON.stringify([{ url: spec, name: 'x' }]))}&urls.primaryName=x`,
  ];
};

describe('the /docs page', () => {
  test('its old static address with a query redirects once, to /docs/, which answers 200', async () => {
    const starts = ['/docs', '/docs/', '/docs/static/index.html'];
    const paths = [
      '/docs/static/index.html?x=1',
      '/docs/static/index.html',
      '/docs?x=1',
      ...starts.flatMap((start) => hostileQueries().map((query) => `${start}?${query}`)),
    ];
    for (const path of paths) {
      const first = await fetch(t.baseUrl + path, { redirect: 'manual' });
      assert.equal(first.status, 302, path);
      assert.equal(first.headers.get('location'), '/docs/', path);
    }
    const page = await fetch(`${t.baseUrl}/docs/static/index.html?x=1`);
    assert.equal(page.status, 200);
    assert.equal(new URL(page.url).pathname, '/docs/');
    assert.equal(new URL(page.url).search, '');
  });

  // Every start above lands on /docs/ without its query, so one start per query is the whole browser's view of it.
  test('whatever the query string names, the page shows this service’s document, fetched from this service', async () => {
    for (const query of hostileQueries()) {
      const context = await browser.newContext({ baseURL: t.baseUrl });
      const page = await context.newPage();
      const fetched: string[] = [];
      page.on('request', (request) => fetched.push(request.url()));
      // Swagger UI runs under the page's own CSP without a refusal (it sets inline styles).
      const errors: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      try {
        await page.goto(`/docs/?${query}`);
        await page.locator('.info .title').filter({ hasText: 'Commerce API' }).waitFor({ timeout: 20_000 });
        assert.equal(new URL(page.url()).search, '', `/docs/?${query} kept its query`);
        assert.ok(
          fetched.some((url) => url === `${t.baseUrl}/docs/json`),
          `/docs/?${query}: the document was not fetched from /docs/json`,
        );
        assert.deepEqual(
          fetched.filter((url) => !url.startsWith(t.baseUrl)),
          [],
          `/docs/?${query} fetched from elsewhere`,
        );
        assert.deepEqual(errors, [], `/docs/?${query}: console errors`);
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(foreignRequests, []);
  });
});
