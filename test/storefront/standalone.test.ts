import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { servedNow } from '../../scripts/storefront-releases.js';
import { freePort } from '../../src/lib/ports.js';
import { waitFor } from '../helpers/mail.js';
import { customer, inShop, makeShop, ordersOf, signInThroughShop, startShop } from '../helpers/storefront.js';

/**
 * The storefront as its own process (`node packages/storefront/build`, adapter-node's server, run
 * from a copy with no node_modules in reach) in front of the service at COMMERCE_API_URL, as an operator who wants it elsewhere runs it: a whole
 * purchase works, the session lives on the storefront's origin, and the API sees the shopper's
 * address and browser (X-Forwarded-For, trusted with TRUST_PROXY) rather than the storefront's.
 */
const HEADLINE = 'Tea & biscuits, slowly';
const INTRODUCTION = 'Loose-leaf teas from <small> gardens, packed by hand.';
const { t: app, browser } = await startShop({ TRUST_PROXY: 'loopback', STORE_HEADLINE: HEADLINE, STORE_INTRODUCTION: INTRODUCTION });
const { product } = await makeShop(app);

const shopPort = await freePort();
const shopUrl = `http://127.0.0.1:${shopPort}`;
// Run from a copy outside the repository, where no node_modules can be found up its tree: as on a server
// installed without development dependencies (the build has every dependency bundled in).
const shipped = mkdtempSync(path.join(tmpdir(), 'storefront-shipped-'));
cpSync(realpathSync('packages/storefront/build'), shipped, { recursive: true, filter: (source) => path.basename(source) !== '.serving' });
const child = spawn(process.execPath, [path.join(shipped, 'index.js')], {
  env: {
    PATH: process.env.PATH,
    SHOP_HOST: '127.0.0.1',
    SHOP_PORT: String(shopPort),
    SHOP_ORIGIN: shopUrl,
    // Behind a proxy the operator names the header it sets; here the test's browser sets it.
    SHOP_ADDRESS_HEADER: 'x-forwarded-for',
    COMMERCE_API_URL: app.baseUrl,
    COMMERCE_PUBLIC_URL: app.config.publicBaseUrl,
    SHOP_SHUTDOWN_TIMEOUT: '1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
const exited = new Promise((resolve) => child.once('exit', resolve));
/** Stops the storefront as an operator would (SIGTERM), once. */
async function stop() {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
after(async () => {
  await stop();
  rmSync(shipped, { recursive: true, force: true });
});
await waitFor(async () => (await fetch(shopUrl, { headers: { 'x-forwarded-for': '192.0.2.1' } }).catch(() => null))?.ok, 20_000).catch(
  (error: unknown) => {
    throw new Error(`the storefront did not start: ${String(error)}\n${output}`);
  },
);

describe('storefront: its own process', () => {
  test("the home page's words are the shop's own (STORE_HEADLINE, STORE_INTRODUCTION), in the service and on its own", async () => {
    for (const origin of [app.baseUrl, shopUrl]) {
      const html = await (await fetch(`${origin}/`, { headers: { 'x-forwarded-for': '192.0.2.1' } })).text();
      assert.match(html, /<h1[^>]*>Tea &amp; biscuits, slowly<\/h1>/, origin);
      assert.match(html, /<p[^>]*>Loose-leaf teas from &lt;small> gardens, packed by hand\.<\/p>/, origin);
      assert.match(html, /<meta name="description" content="Loose-leaf teas from &lt;small> gardens, packed by hand\. Shop /, origin);
      assert.ok(!html.includes('Good gear'), `${origin}: not the demo's words`);
    }
  });

  test('a whole purchase through a storefront on another origin; the API sees the shopper', async (t) => {
    const buyer = await customer(app);
    await inShop(browser, t, { ...app, baseUrl: shopUrl }, async (page, context) => {
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.50' });
      await page.goto(`/p/${product.slug}`);
      await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
      const image = page.getByRole('img', { name: `${product.name} in sky blue` });
      await page.waitForFunction(
        (element) => (element as unknown as { naturalWidth: number }).naturalWidth > 0,
        await image.elementHandle(),
      );
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added 1 × ').waitFor();
      await page.goto('/cart');
      await page.getByRole('link', { name: 'Check out' }).click();
      await page.getByText('Sign in or create an account to check out').waitFor();
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();

      const cookies = await context.cookies();
      assert.ok(cookies.some((cookie) => cookie.name === 'session' && cookie.domain === '127.0.0.1' && cookie.httpOnly));
    });
    assert.equal((await ordersOf(app, buyer.email)).length, 1);
    const session = await app.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.ip', 's.user_agent'])
      .where('u.email', '=', buyer.email)
      .orderBy('s.id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(session.ip, '203.0.113.50');
    assert.match(session.user_agent ?? '', /Chrome/);
  });

  test('it marks the release it serves while it runs, so a build meanwhile keeps it, and unmarks it when stopped', async () => {
    const marker = path.join(shipped, '.serving', String(child.pid));
    assert.equal(existsSync(marker), true, marker);
    assert.equal(servedNow(shipped), true);
    await stop();
    assert.equal(existsSync(marker), false, 'unmarked once stopped');
  });
});
