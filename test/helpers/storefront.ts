import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pictureWebp } from '../../scripts/seed-pictures.js';
import { freePort } from '../../src/lib/ports.js';
import { startTestApp, type RunningApp, type TestApp } from './app.js';
import { inPage, launchBrowser, LAPTOP, type Viewport } from './browser.js';
import type { Client } from './client.js';
import { addressInput, PASSWORD, signInAs, signUp } from './factories.js';
import { decodeQuotedPrintable, headerOf, linkFrom, waitFor } from './mail.js';
import { credentials, local } from './media.js';

/** Screenshots of every storefront test (TEST_SCREENSHOTS=1) or a failed one, and its trace (TEST_TRACE=1). */
export const SHOP_RESULTS = path.resolve('test-results/storefront');
export const PHONE: Viewport = { width: 360, height: 740 };
export const DESKTOP: Viewport = LAPTOP;

/**
 * A storefront test file's service and browser, closed after its tests. PUBLIC_BASE_URL is the
 * app's own address, so the links the service writes into emails open pages of this app; mail is
 * written to .eml files (no SMTP_URL), which `mailbox` reads; the worker polls often.
 */
export async function startShop(env: Record<string, string> = {}): Promise<{ t: TestApp; browser: Browser }> {
  const port = await freePort();
  const [t, browser] = await Promise.all([
    startTestApp({
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      EMAIL_POLL_INTERVAL_MS: '50',
      RATE_LIMIT_REGISTER: '0',
      ...env,
    }),
    launchBrowser(),
  ]);
  after(async () => {
    await browser.close();
    await t.close();
  });
  return { t, browser };
}

export interface ShopPageOptions {
  viewport?: Viewport;
  javaScript?: boolean;
  /** The browser's time zone (IANA name). */
  timezoneId?: string;
  label?: string;
  expectedConsoleErrors?: RegExp;
}

/** Whether the page is ready for a press: the shop's script has taken over (its root marks <html data-hydrated>), or it has none. */
function scriptReady(): boolean {
  // Runs in the page (a function, as the shop's CSP refuses strings); the test files have no DOM types.
  const page = globalThis as any;
  return page.document.documentElement?.dataset?.hydrated !== undefined || !Object.keys(page).some((key) => key.startsWith('__sveltekit_'));
}

/**
 * Makes `page`'s own loads (goto, reload, back, forward, and waitForURL after a press) also wait for the shop's script to take over
 * the page. The load event comes before SvelteKit starts: a press right after it is sent as without
 * JavaScript, and a test of what only the script does (where the focus goes) sees the other path,
 * now and then, on a fast machine. A load asked to resolve sooner (`waitUntil: 'commit'`, to act
 * before the script) is left as asked; a page without JavaScript has no script to wait for.
 */
export function waitForScriptOnLoad(page: Page): Page {
  const ready = async <T>(loaded: T, waitUntil?: string): Promise<T> => {
    if (waitUntil === undefined || waitUntil === 'load') await page.waitForFunction(scriptReady);
    return loaded;
  };
  const { goto, reload, goBack, goForward, waitForURL } = page;
  return Object.assign(page, {
    goto: async (url: string, options?: Parameters<Page['goto']>[1]) => ready(await goto.call(page, url, options), options?.waitUntil),
    reload: async (options?: Parameters<Page['reload']>[0]) => ready(await reload.call(page, options), options?.waitUntil),
    goBack: async (options?: Parameters<Page['goBack']>[0]) => ready(await goBack.call(page, options), options?.waitUntil),
    goForward: async (options?: Parameters<Page['goForward']>[0]) => ready(await goForward.call(page, options), options?.waitUntil),
    // After a press that left the page: a form the script does not handle (signing out) loads a new one.
    waitForURL: async (url: Parameters<Page['waitForURL']>[0], options?: Parameters<Page['waitForURL']>[1]) =>
      ready(await waitForURL.call(page, url, options), options?.waitUntil),
  });
}

/** A fresh browser page (its own cookies) at the shop; screenshot on failure (and trace, with TEST_TRACE=1; a screenshot always with TEST_SCREENSHOTS=1), console errors fail. */
export function inShop(
  browser: Browser,
  t: TestContext,
  app: TestApp,
  body: (page: Page, context: BrowserContext) => Promise<void>,
  options: ShopPageOptions = {},
): Promise<void> {
  return inPage(
    browser,
    t,
    {
      baseURL: app.baseUrl,
      viewport: options.viewport ?? DESKTOP,
      javaScriptEnabled: options.javaScript ?? true,
      resultsDir: SHOP_RESULTS,
      ...(options.label ? { label: options.label } : {}),
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      ...(options.expectedConsoleErrors ? { expectedConsoleErrors: options.expectedConsoleErrors } : {}),
    },
    (page, context) => body(waitForScriptOnLoad(page), context),
  );
}

export interface ShopProduct {
  id: string;
  slug: string;
  name: string;
  variants: { id: string; sku: string; options: Record<string, string>; price: string }[];
}

/** Uploads a drawn product picture as `admin` and returns its URL (the built-in image host, named by PUBLIC_BASE_URL). */
export async function productPicture(app: RunningApp, admin: Client, colour: string): Promise<string> {
  const creds = await credentials(admin, 'products');
  const form = new FormData();
  form.append('fileName', 'tee.webp');
  for (const field of ['token', 'signature', 'publicKey', 'folder'] as const) form.append(field, creds[field]);
  form.append('expire', String(creds.expire));
  form.append('file', new Blob([await pictureWebp('tee', colour)], { type: 'image/webp' }), 'tee.webp');
  const response = await fetch(local(app, creds.uploadEndpoint), { method: 'POST', body: form });
  if (!response.ok) throw new Error(`picture upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

/**
 * A small shop made through the admin API: Clothing > Shirts, and `Linen Shirt` in sizes S and M
 * and colours Sky and Sand (each with stock `stock`), with a picture. Returns the admin client too.
 */
export async function makeShop(app: RunningApp, options: { name?: string; stock?: number; price?: string } = {}) {
  const { client: admin, email: adminEmail } = await signInAs(app, 'ADMIN');
  const check = <T>(response: { status: number; body: any; text: string }, status: number): T => {
    if (response.status !== status) throw new Error(`${status} expected, got ${response.status}: ${response.text}`);
    return response.body.data as T;
  };
  const suffix = Math.random().toString(36).slice(2, 7);
  const clothing = check<{ public_id: string; slug: string; name: string }>(
    await admin.post('/api/v1/admin/categories', { name: `Clothing ${suffix}`, description: 'Things to wear.' }),
    201,
  );
  const shirts = check<{ public_id: string; slug: string; name: string }>(
    await admin.post('/api/v1/admin/categories', { name: `Shirts ${suffix}`, parent_public_id: clothing.public_id }),
    201,
  );
  const name = options.name ?? `Linen Shirt ${suffix}`;
  const product = check<{ public_id: string; slug: string }>(
    await admin.post('/api/v1/admin/products', {
      name,
      description: 'A breezy linen shirt for warm days.\n\nWashed for softness; the colour deepens with wear.',
      brand: 'Fjellstad',
      status: 'ACTIVE',
      category_public_ids: [shirts.public_id],
      images: [{ url: await productPicture(app, admin, '#7ea6c8'), alt_text: `${name} in sky blue` }],
    }),
    201,
  );
  const variants: ShopProduct['variants'] = [];
  for (const [size, colour, price] of [
    ['S', 'Sky', options.price ?? '49.00'],
    ['M', 'Sky', options.price ?? '49.00'],
    ['S', 'Sand', options.price ?? '52.00'],
    ['M', 'Sand', options.price ?? '52.00'],
  ] as const) {
    const sku = `LIN-${suffix}-${size}-${colour}`.toUpperCase();
    const variant = check<{ public_id: string }>(
      await admin.post(`/api/v1/admin/products/${product.public_id}/variants`, {
        sku,
        name: `${size} / ${colour}`,
        price,
        options: { size, colour },
      }),
      201,
    );
    check(
      await admin.post('/api/v1/admin/inventory', { variant_public_id: variant.public_id, quantity_on_hand: options.stock ?? 20 }),
      201,
    );
    variants.push({ id: variant.public_id, sku, options: { size, colour }, price });
  }
  return {
    admin,
    adminEmail,
    clothing,
    shirts,
    product: { id: product.public_id, slug: product.slug, name, variants } satisfies ShopProduct,
  };
}

/** A registered customer with an address (made through the API), to sign in through the shop's form. */
export async function customer(app: RunningApp, options: { address?: boolean } = {}) {
  const { client, email, user } = await signUp(app);
  if (options.address !== false) {
    const response = await client.post('/api/v1/users/me/addresses', addressInput());
    if (response.status !== 201) throw new Error(`address: ${response.status} ${response.text}`);
  }
  return { client, email, password: PASSWORD, user };
}

/**
 * A customer whose account cart holds `quantity` of `variant` (made through the API, with an address
 * unless `address: false`), signed in through the shop and at /checkout in a fresh page (inShop, with
 * `options`), where `body` takes over. `before` runs first, for what the shopper has before they come.
 */
export async function checkingOut(
  browser: Browser,
  t: TestContext,
  app: TestApp,
  line: { variant: string; quantity: number },
  body: (page: Page, buyer: Awaited<ReturnType<typeof customer>>) => Promise<void>,
  options: ShopPageOptions & { before?: (buyer: Awaited<ReturnType<typeof customer>>) => Promise<void> } = {},
) {
  const buyer = await customer(app);
  const added = await buyer.client.post('/api/v1/cart/items', { variant_public_id: line.variant, quantity: line.quantity });
  if (added.status !== 200) throw new Error(`cart add: ${added.status} ${added.text}`);
  await options.before?.(buyer);
  const { before: _before, ...pageOptions } = options;
  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto('/checkout');
      await body(page, buyer);
    },
    pageOptions,
  );
  return buyer;
}

/** Signs in through the shop's sign-in page (from wherever the page is) and waits to leave it. */
export async function signInThroughShop(page: Page, email: string, password = PASSWORD): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** The .eml files the service wrote for `address` (newest last), each with its subject and text. */
export function mailbox(app: RunningApp, address: string): { subject: string; raw: string; link: string | null }[] {
  const dir = path.join(app.config.dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .filter((raw) => (headerOf(raw, 'to') ?? '').toLowerCase().includes(address.toLowerCase()))
    .map((raw) => {
      let link: string | null;
      try {
        link = linkFrom(raw);
      } catch {
        link = /https?:\/\/\S+\/orders\/ord_[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(raw))?.[0] ?? null;
      }
      return { subject: decodeMimeWords(headerOf(raw, 'subject') ?? ''), raw, link };
    });
}

/** Waits for the service to write a message to `address` whose subject matches, and returns it. */
export function mailTo(app: RunningApp, address: string, subject: RegExp, timeoutMs = 10_000) {
  return waitFor(() => mailbox(app, address).find((mail) => subject.test(mail.subject)), timeoutMs);
}

/** The link as a path on the app (it names PUBLIC_BASE_URL, which is the app's own address here). */
export const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

const decodeMimeWords = (text: string) =>
  text.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );

/** The order rows of an account, straight from the database. */
export async function ordersOf(app: RunningApp, email: string) {
  return app.db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select(['o.public_id', 'o.status', 'o.total'])
    .where('u.email', '=', email.toLowerCase())
    .execute();
}

/** How far the page scrolls sideways (0 when it fits the viewport, as it must at 360 px). */
/**
 * The amounts on the page (prices, totals) split inside a word, as "$96.9" above "9": an amount must
 * read as one word at any width (a line of several may still wrap between them).
 */
export async function brokenAmounts(page: Page): Promise<string[]> {
  return page.locator('.price, .totals dd, .was').evaluateAll((elements) => {
    const broken: string[] = [];
    for (const element of elements) {
      const walker = element.ownerDocument.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (const word of (text.textContent ?? '').matchAll(/\S+/g)) {
          const range = element.ownerDocument.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          // Each line a word runs over is a box of its own; boxes on one line share their top (within a pixel).
          if (new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  });
}

export async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
      .documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}
