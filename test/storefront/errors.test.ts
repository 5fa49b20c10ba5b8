import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { startTestApp } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';
import { sendError } from '../../src/lib/error-handler.js';
import { freePort } from '../../src/lib/ports.js';
import { uniqueEmail } from '../helpers/factories.js';
import { customer, inShop, makeShop } from '../helpers/storefront.js';

/**
 * Errors where they happen, in words: field errors next to their fields, the rate limit's wait,
 * a not-found page, and a page that says try again while the API cannot answer. The API's address
 * limits count each shopper's own address, not the storefront's.
 */
let apiDown = false;
const port = await freePort();
const app = await startTestApp(
  {
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_LOGIN: '2/15m',
    RATE_LIMIT_REGISTER: '2/1h',
    TRUST_PROXY: 'loopback',
  },
  {
    // While `apiDown`, every API call answers as the API does when its database is unreachable.
    setup: (fastify) =>
      fastify.addHook('onRequest', async (request, reply) => {
        if (apiDown && request.url.startsWith('/api/')) {
          reply.header('retry-after', '2');
          return sendError(reply, 503, 'SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly');
        }
      }),
  },
);
const browser = await launchBrowser();
after(async () => {
  await browser.close();
  await app.close();
});
const { product, shirts } = await makeShop(app);

describe('storefront: errors, in words', () => {
  test('the API down: the page says the shop is busy and offers to try again, which works once it is back', async (t) => {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        apiDown = true;
        try {
          const response = await page.goto(`/p/${product.slug}`);
          assert.equal(response?.status(), 503);
          await page.getByRole('heading', { level: 1, name: 'We are a little busy' }).waitFor();
          await page.getByText('The shop is busy right now. Please try again in a moment.').waitFor();
          assert.doesNotMatch(await page.locator('body').innerText(), /SERVICE_UNAVAILABLE|database|\{"/);
          // The frame states no shop facts it could not read (no "free shipping from $0.00").
          assert.doesNotMatch(await page.getByRole('contentinfo').innerText(), /Free shipping/);
        } finally {
          apiDown = false;
        }
        await page.getByRole('link', { name: 'Try again' }).click();
        await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
        // The whole frame comes back, not only the page: the shop's facts and its navigation.
        await page
          .getByRole('contentinfo')
          .getByText(/\. Prices in USD\. Free shipping on orders from/)
          .waitFor();
      },
      { expectedConsoleErrors: /status of 503/ },
    );
  });

  test('not found: an unknown product, category or page is the 404 page with a way on', async (t) => {
    await inShop(browser, t, app, async (page) => {
      for (const path of ['/p/no-such-shirt', '/c/no-such-category', '/nothing/here']) {
        const response = await page.goto(path);
        assert.equal(response?.status(), 404, path);
        await page.getByRole('heading', { level: 1, name: 'We could not find that page' }).waitFor();
        await page.getByRole('searchbox', { name: 'Search products' }).last().waitFor();
        // Said once: the heading, then what the shopper can do, not the heading again as a sentence.
        const main = await page.getByRole('main').innerText();
        assert.equal(main.match(/could not find that/g)?.length ?? 0, 1, `${path}: ${main}`);
      }
      // What the page knows beyond "not found" is said under the heading.
      await page.goto('/c/no-such-category');
      await page.getByText('This category is no longer in the shop.').waitFor();
    });
  });

  test("field errors sit next to their fields, with the API's rules in words", async (t) => {
    await inShop(browser, t, app, async (page) => {
      await page.goto('/register');
      await page.getByLabel('First name').fill('Ann');
      await page.getByLabel('Last name').fill('Smith');
      await page.getByLabel('Email').fill(uniqueEmail('weak'));
      await page.getByLabel('Password', { exact: true }).fill('aaaaaaaaaa');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please check the highlighted fields.' }).waitFor();
      const password = page.getByLabel('Password', { exact: true });
      assert.equal(await password.getAttribute('aria-invalid'), 'true');
      const described = (await password.getAttribute('aria-describedby')) ?? '';
      const error = page.locator(`[id="${described.split(' ').find((id) => id.endsWith('-error'))}"]`);
      assert.ok((await error.innerText()).length > 5, 'the password field says what is wrong');
      assert.equal(await page.getByLabel('First name').inputValue(), 'Ann', 'what was typed is kept');
    });
  });

  test('too many failed sign-ins: the form says how long to wait', async (t) => {
    const buyer = await customer(app, { address: false });
    await inShop(browser, t, app, async (page) => {
      await page.goto('/login');
      for (let attempt = 0; attempt < 3; attempt++) {
        await page.getByLabel('Email').fill(buyer.email);
        await page.getByLabel('Password', { exact: true }).fill('Wrong-Password-1');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').waitFor();
      }
      await page
        .getByRole('alert')
        .filter({ hasText: /^Too many attempts\. Please try again in 15 minutes\.$/ })
        .waitFor();
    });
  });

  test("registration limits count each shopper's address: one is stopped, another is not", async (t) => {
    const register = async (address: string, expect: RegExp) =>
      inShop(browser, t, app, async (page, context) => {
        await context.setExtraHTTPHeaders({ 'x-forwarded-for': address });
        await page.goto('/register');
        await page.getByLabel('First name').fill('Sam');
        await page.getByLabel('Last name').fill('Lee');
        await page.getByLabel('Email').fill(uniqueEmail('limit'));
        await page.getByLabel('Password', { exact: true }).fill('Fine-Password-8');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByText(expect).first().waitFor();
      });
    const welcome = /^Welcome to /;
    await register('203.0.113.7', welcome);
    await register('203.0.113.7', welcome);
    await register('203.0.113.7', /^Too many attempts\. Please try again in \d+ minutes\.$/);
    await register('198.51.100.9', welcome);
  });
  test("a trusted proxy's forwarded host or protocol that is no host or protocol is refused, never rendered as another page", async () => {
    const host = new URL(app.baseUrl).host;
    // A `/` or `?` in either would make the page's URL another path than the one asked for (a cache would keep that page here).
    for (const [name, value] of [
      ['x-forwarded-host', `${host}/search?q=moved&`],
      ['x-forwarded-host', 'a b'],
      ['x-forwarded-proto', 'http:/x/search?q=moved&'],
      ['x-forwarded-proto', 'ftp'],
    ] as const) {
      const response = await fetch(`${app.baseUrl}/`, { headers: { [name]: value } });
      assert.equal(response.status, 400, `${name}: ${value}`);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'VALIDATION_ERROR');
    }
    const forwarded = await fetch(`${app.baseUrl}/`, { headers: { 'x-forwarded-host': 'shop.example', 'x-forwarded-proto': 'https' } });
    assert.equal(forwarded.status, 200);
    assert.doesNotMatch(await forwarded.text(), /Results for/);
  });

  test('a link whose address cannot be read (a mangled %) is a page in words for a browser; the API answers it the envelope', async () => {
    // Answered before any request hook runs, and still with what every answer carries.
    const securedAndNeverStored = (response: Response, path: string) => {
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', `${path}: never framed, as every page and answer says`);
      assert.equal(response.headers.get('cache-control'), 'no-store', path);
    };
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const path of ['/orders/%ff', '/c/%']) {
      const page = await fetch(`${app.baseUrl}${path}`, { headers: html });
      assert.equal(page.status, 400, path);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/, path);
      securedAndNeverStored(page, path);
      assert.match(await page.text(), /<h1>This link is broken<\/h1>[\s\S]*href="\/">Go to the shop/, path);
    }
    for (const [path, headers] of [
      ['/api/v1/products/%ff', html],
      ['/orders/%ff', {}],
    ] as const) {
      const envelope = await fetch(`${app.baseUrl}${path}`, { headers });
      assert.equal(envelope.status, 400, path);
      securedAndNeverStored(envelope, path);
      assert.equal(((await envelope.json()) as { error: { code: string } }).error.code, 'VALIDATION_ERROR', path);
    }
  });

  test("a form post that is no form is the sender's mistake: a page in words (400, 415), not a 500", async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${app.baseUrl}/login`, { method: 'POST', headers: { origin: app.baseUrl, accept: 'text/html', ...headers }, body });
    const unreadable = await post({ 'content-type': 'multipart/form-data; boundary=XX' }, 'garbage');
    assert.equal(unreadable.status, 400);
    assert.match(await unreadable.text(), /The shop could not read that form/);
    const noBoundary = await post({ 'content-type': 'multipart/form-data' }, 'garbage');
    assert.equal(noBoundary.status, 400);
    assert.match(await noBoundary.text(), /The shop could not read that form/);
    const notAForm = await post({ 'content-type': 'application/json' }, '{}');
    assert.equal(notAForm.status, 415);
    const html = await notAForm.text();
    assert.match(html, /The shop could not take that request/);
    assert.doesNotMatch(html, /Something went wrong/);
  });

  test('search words a link carries that the API would refuse: cleaned where they can be, a 400 page in words where not', async () => {
    const get = (path: string) => fetch(`${app.baseUrl}${path}`);
    const emoji = String.fromCodePoint(0x1f600);
    for (const path of [
      '/search?q=%00',
      '/search?q=a%E2%80%AEb',
      `/search?q=${'a'.repeat(199)}${encodeURIComponent(emoji)}`,
      '/search?q=%E2%80%8B%E2%80%8B',
      `/c/${shirts.slug}?q=%00`,
    ]) {
      const response = await get(path);
      assert.equal(response.status, 200, `${path}: ${response.status}`);
      await response.arrayBuffer();
    }
    // What the cleaning cannot settle (a joiner where no spelling needs one) is the API's to refuse: a page in words, not a 500.
    const refused = await get('/search?q=a%E2%80%8Db');
    assert.equal(refused.status, 400);
    const html = await refused.text();
    assert.match(html, /This link asks for something the shop cannot read/);
    assert.match(html, /role="search"/);
  });
});
