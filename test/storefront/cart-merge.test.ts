import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test, type TestContext } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { sendError } from '../../src/lib/error-handler.js';
import type { ErrorCode } from '../../src/lib/error-codes.js';
import { freePort } from '../../src/lib/ports.js';
import { startTestApp } from '../helpers/app.js';
import { keepScreenshot, launchBrowser } from '../helpers/browser.js';
import { PASSWORD, uniqueEmail } from '../helpers/factories.js';
import { customer, inShop, makeShop, PHONE, SHOP_RESULTS, signInThroughShop } from '../helpers/storefront.js';

/**
 * A visitor's cart moved into the account's at sign-in or registration (mergeGuestCart): a line the
 * account already holds is added up to the 999 a line holds; only a variant no longer on sale is left
 * out; a line refused for another reason, or not reached because the API failed part-way, stays in the
 * visitor's cart, offered on the cart page until pressed (or the next sign-in), and the cart page says which is which.
 */
const refusals = new Map<string, { status: number; code: ErrorCode }>();
const port = await freePort();
const app = await startTestApp(
  { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_REGISTER: '0' },
  {
    // Adding a variant listed in `refusals` to a cart answers as the API would refuse it.
    setup: (fastify) =>
      fastify.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST' || request.url !== '/api/v1/cart/items') return;
        const refusal = refusals.get((request.body as { variant_public_id?: string } | undefined)?.variant_public_id ?? '');
        if (refusal) return sendError(reply, refusal.status, refusal.code, `refused for the test (${refusal.code})`);
      }),
  },
);
const browser = await launchBrowser();
after(async () => {
  await browser.close();
  await app.close();
});

/** The visitor's cart as the storefront keeps it (guest-cart.ts), and what is left of it. */
const guestCart = (product: string, lines: [variant: string, quantity: number][]) =>
  lines.map(([variant, quantity]) => `${product}~${variant}~${quantity}`).join('.');
/** The visitor's cart's lines as its cookie holds them (without the cart's own ID, its first entry once the shop has written it). */
const cookieCart = async (context: BrowserContext) => {
  const value = (await context.cookies()).find((cookie) => cookie.name === 'cart')?.value;
  return value === undefined ? null : value.replace(/^id~[^.]*\.?/, '');
};

/** The account's cart as the API keeps it: quantity by variant. */
async function accountCart(buyer: { client: { get(path: string): Promise<{ body: any }> } }): Promise<Record<string, number>> {
  const lines = (await buyer.client.get('/api/v1/cart')).body.data.items as { variant_public_id: string; quantity: number }[];
  return Object.fromEntries(lines.map((line) => [line.variant_public_id, line.quantity]));
}

/** The cart page after a sign-in that moved one line and kept `kept`: it says so, and the visitor's cart holds exactly those. */
async function seesKept(page: Page, context: BrowserContext, product: string, kept: [variant: string, quantity: number][], why: string) {
  await page
    .getByRole('status')
    .getByText(`${kept.length} items you added before signing in could not be added to your cart just now. They are kept for you.`)
    .waitFor();
  await page.getByRole('link', { name: /^Cart, 1 item/ }).waitFor();
  assert.equal(await cookieCart(context), guestCart(product, kept), why);
}

describe('storefront: the cart a visitor made, at sign-in', () => {
  test("a line the account's cart already holds is added up to 999, not dropped as no longer on sale", async (t) => {
    const { product } = await makeShop(app);
    const [variant, other] = [product.variants[0]!, product.variants[1]!];
    const buyer = await customer(app);
    assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: variant.id, quantity: 600 })).status, 200);
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        const cart = guestCart(product.id, [
          [variant.id, 500],
          [other.id, 2],
        ]);
        await context.addCookies([{ name: 'cart', value: cart, url: app.baseUrl }]);
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.waitForURL((url) => url.pathname === '/cart');
        await page.getByRole('status').getByText("Your account's cart already had 600 items").waitFor();
        await page
          .getByRole('status')
          .getByText('One item you added before signing in would have gone over 999, the most a cart line holds: it is now 999.')
          .waitFor();
        assert.equal(await page.getByText(/no longer on sale|could not be added/).count(), 0);
        await page.getByRole('link', { name: /^Cart, 1001 items/ }).waitFor();
        assert.equal(await cookieCart(context), null, 'everything was moved');
      },
      { viewport: PHONE },
    );
    assert.deepEqual(await accountCart(buyer), {
      [variant.id]: 999,
      [other.id]: 2,
    });
  });

  test('only a variant no longer on sale is left out; a line refused for another reason stays, offered on the cart until it goes in', async (t) => {
    const { admin, product } = await makeShop(app);
    const [moves, forbidden, conflict, gone] = product.variants;
    refusals.set(forbidden!.id, { status: 403, code: 'CSRF_TOKEN_INVALID' });
    refusals.set(conflict!.id, { status: 409, code: 'CONFLICT' });
    assert.equal((await admin.delete(`/api/v1/admin/variants/${gone!.id}`)).status, 204);
    const buyer = await customer(app);
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        const cart = guestCart(product.id, [
          [moves!.id, 1],
          [forbidden!.id, 2],
          [gone!.id, 4],
          [conflict!.id, 3],
        ]);
        await context.addCookies([{ name: 'cart', value: cart, url: app.baseUrl }]);
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.waitForURL((url) => url.pathname === '/cart');
        await page.getByRole('status').getByText('One item you added before signing in is no longer on sale and was left out.').waitFor();
        const refused: [string, number][] = [
          [forbidden!.id, 2],
          [conflict!.id, 3],
        ];
        await seesKept(page, context, product.id, refused, 'the refused lines stay, and only they');

        // Still refused: pressing Try again keeps them and says so again (once the page has its new data).
        await Promise.all([
          page.waitForResponse((response) => response.url().includes('/cart/__data.json')),
          page.getByRole('button', { name: 'Try again' }).click(),
        ]);
        await page.getByRole('status').getByText('They are kept for you.').waitFor();
        assert.equal(await cookieCart(context), guestCart(product.id, refused));

        // Refused no more. A form forged with another token moves nothing (each add is refused by the API).
        refusals.clear();
        const forged = await page.request.post('/cart?/merge', {
          form: { csrf: 'forged' },
          headers: { origin: app.baseUrl, accept: 'text/html' },
        });
        assert.equal(forged.status(), 200);
        assert.equal(await cookieCart(context), guestCart(product.id, refused));
        assert.equal((await buyer.client.get('/api/v1/cart')).body.data.item_count, 1, 'nothing added');
        // Any later visit to the cart offers them, and one press moves them.
        await page.goto('/');
        await page.goto('/cart');
        await page.getByRole('status').getByText('2 items you added before signing in are not in your cart yet.').waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'cart-waiting-lines-phone.png'));
        await page.getByRole('button', { name: 'Add them to your cart' }).click();
        await page.getByRole('status').getByText('Your cart is updated.').waitFor();
        await page.getByRole('link', { name: /^Cart, 6 items/ }).waitFor();
        assert.equal(await cookieCart(context), null);
        assert.equal(await page.getByRole('button', { name: 'Add them to your cart' }).count(), 0);
      },
      { viewport: PHONE },
    );
  });

  test('the API failing part-way: the account is made and signed in, the lines not moved stay, and none is added twice', async (t) => {
    const { product } = await makeShop(app);
    const [first, failing, last] = product.variants;
    refusals.set(failing!.id, { status: 503, code: 'SERVICE_UNAVAILABLE' });
    const email = uniqueEmail('merge');
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        const cart = guestCart(product.id, [
          [first!.id, 1],
          [failing!.id, 2],
          [last!.id, 3],
        ]);
        await context.addCookies([{ name: 'cart', value: cart, url: app.baseUrl }]);
        await page.goto('/register');
        await page.getByLabel('First name').fill('Grace');
        await page.getByLabel('Last name').fill('Hopper');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.waitForURL((url) => url.pathname === '/cart');
        const rest: [string, number][] = [
          [failing!.id, 2],
          [last!.id, 3],
        ];
        await seesKept(page, context, product.id, rest, 'the line moved is gone from the visitor cart, the rest stay');

        refusals.clear();
        await page.goto('/logout');
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL((url) => url.pathname === '/');
        await signInThroughShop(page, email, PASSWORD);
        await page.waitForURL((url) => url.pathname === '/cart');
        await page.getByRole('link', { name: /^Cart, 6 items/ }).waitFor();
        assert.equal(await cookieCart(context), null);
      },
      { viewport: PHONE },
    );
  });

  test('waiting lines can be let go instead; signed out, neither button changes anything', async (t) => {
    const { product } = await makeShop(app);
    const [waits] = product.variants;
    refusals.set(waits!.id, { status: 503, code: 'SERVICE_UNAVAILABLE' });
    const buyer = await customer(app);
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        await context.addCookies([{ name: 'cart', value: guestCart(product.id, [[waits!.id, 2]]), url: app.baseUrl }]);
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.waitForURL((url) => url.pathname === '/cart');
        await page.getByRole('status').getByText('One item you added before signing in could not be added').waitFor();
        await page.getByRole('button', { name: 'Remove it' }).click();
        await page.getByRole('button', { name: 'Try again' }).waitFor({ state: 'detached' });
        await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
        assert.equal(await cookieCart(context), null);

        // Signed out with a visitor's cart: the forms for an account's waiting lines are refused, the cart kept.
        const visitor = guestCart(product.id, [[waits!.id, 1]]);
        await context.clearCookies();
        await context.addCookies([{ name: 'cart', value: visitor, url: app.baseUrl }]);
        for (const action of ['merge', 'discard']) {
          const answer = await page.request.post(`/cart?/${action}`, {
            form: { csrf: '' },
            headers: { origin: app.baseUrl, accept: 'text/html' },
          });
          assert.equal(answer.status(), 401, action);
          assert.equal(await cookieCart(context), visitor, action);
        }
      },
      { viewport: PHONE },
    );
    refusals.clear();
    assert.equal((await buyer.client.get('/api/v1/cart')).body.data.item_count, 0);
  });

  /**
   * A customer signed in through the shop with a visitor's cart of `lines`, the sign-in's merge refused
   * (503) at `refused` and stopping there, so the lines from it on wait on the cart page; `body` takes
   * over there with the refusal lifted. Returns the customer.
   */
  async function withWaitingLines(
    t: TestContext,
    product: string,
    lines: [variant: string, quantity: number][],
    refused: string,
    body: (page: Page, context: BrowserContext, buyer: Awaited<ReturnType<typeof customer>>) => Promise<void>,
  ) {
    refusals.set(refused, { status: 503, code: 'SERVICE_UNAVAILABLE' });
    const buyer = await customer(app);
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        await context.addCookies([{ name: 'cart', value: guestCart(product, lines), url: app.baseUrl }]);
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.waitForURL((url) => url.pathname === '/cart');
        await page.getByRole('button', { name: 'Try again' }).waitFor();
        refusals.clear();
        await body(page, context, buyer);
      },
      { viewport: PHONE },
    );
    return buyer;
  }

  test('the waiting lines pressed in twice at once (a double click without JavaScript, two tabs) go in once', async (t) => {
    const { product } = await makeShop(app);
    const [first, second] = product.variants;
    const lines: [string, number][] = [
      [first!.id, 2],
      [second!.id, 3],
    ];
    const buyer = await withWaitingLines(t, product.id, lines, first!.id, async (page) => {
      const csrf = await page.locator('form.waiting input[name="csrf"]').inputValue();
      const presses = await Promise.all(
        Array.from({ length: 4 }, () =>
          page.request.post('/cart?/merge', { form: { csrf }, headers: { origin: app.baseUrl, accept: 'text/html' } }),
        ),
      );
      assert.ok(presses.every((press) => press.status() === 200));
    });
    assert.deepEqual(await accountCart(buyer), { [first!.id]: 2, [second!.id]: 3 });
  });

  test('a line added again after a merge that kept others is added again: the cart changed, so its keys did', async (t) => {
    const { product } = await makeShop(app);
    const [again, stuck] = product.variants;
    const lines: [string, number][] = [
      [again!.id, 1],
      [stuck!.id, 1],
    ];
    const buyer = await withWaitingLines(t, product.id, lines, stuck!.id, async (page, context, buyer) => {
      // Signed out, the same one unit of the first line is added again, as a visitor.
      await page.goto('/logout');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto(`/p/${product.slug}?size=${again!.options.size}&colour=${again!.options.colour}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added 1 × ').waitFor();
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.waitForURL((url) => url.pathname === '/cart');
      assert.equal(await cookieCart(context), null);
    });
    assert.deepEqual(await accountCart(buyer), { [again!.id]: 2, [stuck!.id]: 1 });
  });
});
