import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { APIResponse, Page } from 'playwright-core';
import { keepScreenshot } from '../helpers/browser.js';
import { customer, inShop, makeShop, PHONE, SHOP_RESULTS, signInThroughShop, startShop } from '../helpers/storefront.js';

/**
 * A signed-in shopper's "Add to cart": the product form sent twice (a double click without
 * JavaScript, a form resent) adds once, while every new press adds again; and a cart at the API's
 * line cap (MAX_CART_LINES, 4 here) is said to be full, at the form and after a sign-in that moves
 * a visitor's cart into it.
 */
const { t: app, browser } = await startShop({ MAX_CART_LINES: '4' });
const { product, admin } = await makeShop(app, { stock: 50 });
const { product: other } = await makeShop(app, { stock: 50 });

type Buyer = Awaited<ReturnType<typeof customer>>;
async function accountCart(buyer: Buyer): Promise<Record<string, number>> {
  const lines = (await buyer.client.get('/api/v1/cart')).body.data.items as { variant_public_id: string; quantity: number }[];
  return Object.fromEntries(lines.map((line) => [line.variant_public_id, line.quantity]));
}

/**
 * The product page's add form as the page rendered it: a send of its fields with `quantity`, posted
 * as a browser posts it without JavaScript (the redirect not followed).
 */
async function renderedAddForm(page: Page): Promise<(quantity: string) => Promise<APIResponse>> {
  const form = page.locator('form.add');
  const fields = Object.fromEntries(
    await Promise.all(
      ['csrf', 'add_key', 'add_held', 'variant'].map(async (name) => [name, await form.locator(`input[name="${name}"]`).inputValue()]),
    ),
  );
  const action = (await form.getAttribute('action'))!;
  return (quantity) =>
    page.request.post(action, { form: { ...fields, quantity }, headers: { origin: app.baseUrl, accept: 'text/html' }, maxRedirects: 0 });
}

describe('storefront: adding to an account cart', () => {
  test('the same form sent twice at once adds once; the page it comes back to adds again', async (t) => {
    const buyer = await customer(app);
    const variant = product.variants[0]!;
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.goto(`/p/${product.slug}?variant=${variant.id}`);
        const send = await renderedAddForm(page);
        const sends = await Promise.all(Array.from({ length: 3 }, () => send('2')));
        for (const sent of sends) assert.equal(sent.status(), 303, await sent.text());
        assert.deepEqual(await accountCart(buyer), { [variant.id]: 2 }, 'added once');

        // Each rendering has its own key: pressing again on the page the form came back to adds again.
        await page.goto(`/p/${product.slug}?variant=${variant.id}`);
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByText('Added 1 × ').waitFor();
        await page.getByRole('link', { name: /^Cart, 3 items/ }).waitFor();
        // With JavaScript the form is not rendered again, but its page's data is: a second press adds too.
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByRole('link', { name: /^Cart, 4 items/ }).waitFor();
        assert.deepEqual(await accountCart(buyer), { [variant.id]: 4 });
      },
      { javaScript: true },
    );
  });

  test('the form sent again after its answer (a resend, a page brought back) says it added before, not refused against itself', async (t) => {
    const buyer = await customer(app);
    const few = product.variants[2]!;
    assert.equal((await admin.patch(`/api/v1/admin/inventory/${few.id}`, { quantity_on_hand: 3 })).status, 200);
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.goto(`/p/${product.slug}?variant=${few.id}`);
        const send = await renderedAddForm(page);
        const first = await send('2');
        assert.equal(first.status(), 303);
        await page.goto(first.headers()['location']!);
        await page.getByRole('status').getByText(`Added 2 × ${product.name}`).waitFor();
        // Two of three are in the cart now, so the same add checked again would read "only 3 left, your cart has 2".
        const again = await send('2');
        assert.equal(again.status(), 303, await again.text());
        assert.deepEqual(await accountCart(buyer), { [few.id]: 2 });
        // Nothing was added this time, and the page says so: a shopper who meant a second add (a page
        // brought back by the Back button still carries its key) is told how to make it.
        // Without its #buy: the same address and fragment as the page shown would only scroll it, not load it again.
        await page.goto(again.headers()['location']!.replace(/#.*$/, ''));
        await page.getByRole('status').getByText(`This page added 2 × ${product.name}`).waitFor();
        await page.getByRole('status').getByText('nothing more was added now. To add more, press Add to cart again.').waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'product-added-before.png'));
        // A new press on a page made since is checked as any add: one more fits, two do not.
        await page.goto(`/p/${product.slug}?variant=${few.id}`);
        await page.getByLabel('Quantity').fill('2');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByRole('alert').getByText('Only 3 left, and your cart already has 2.').waitFor();
        assert.deepEqual(await accountCart(buyer), { [few.id]: 2 });
      },
      { javaScript: false },
    );
  });

  test('a full cart is said at the form, and adds once a line is removed', async (t) => {
    const buyer = await customer(app);
    for (const variant of product.variants) {
      const added = await buyer.client.post('/api/v1/cart/items', { variant_public_id: variant.id, quantity: 1 });
      assert.equal(added.status, 200, added.text);
    }
    const wanted = other.variants[0]!;
    await inShop(browser, t, app, async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto(`/p/${other.slug}?variant=${wanted.id}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('alert').getByText('Your cart is full. Check out or remove something first.').waitFor();
      await keepScreenshot(page, path.join(SHOP_RESULTS, 'cart-full-at-the-form-desktop.png'));
      assert.equal(Object.keys(await accountCart(buyer)).length, 4);
      // More of a line the cart holds still goes in.
      await page.goto(`/p/${product.slug}?variant=${product.variants[1]!.id}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('link', { name: /^Cart, 5 items/ }).waitFor();

      assert.equal((await buyer.client.delete(`/api/v1/cart/items/${product.variants[0]!.id}`)).status, 200);
      await page.goto(`/p/${other.slug}?variant=${wanted.id}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added 1 × ').waitFor();
      assert.equal((await accountCart(buyer))[wanted.id], 1);
    });
  });

  test("a visitor's cart moved into a full account cart: what fits goes in, the rest waits with the reason and the number", async (t) => {
    const buyer = await customer(app);
    for (const variant of product.variants) {
      assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: variant.id, quantity: 1 })).status, 200);
    }
    const [grows, waits] = [product.variants[0]!, other.variants[1]!];
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        const visitor = [`${product.id}~${grows.id}~2`, `${other.id}~${waits.id}~1`].join('.');
        await context.addCookies([{ name: 'cart', value: visitor, url: app.baseUrl }]);
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.waitForURL((url) => url.pathname === '/cart');
        await page
          .getByRole('status')
          .getByText('One item you added before signing in did not fit: your cart holds at most 4 different products.')
          .waitFor();
        assert.deepEqual(await accountCart(buyer), Object.fromEntries(product.variants.map((v) => [v.id, v === grows ? 3 : 1])));
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'cart-full-after-sign-in-phone.png'));

        // Room made on the page itself, the waiting item goes in at the press.
        const line = page.getByRole('listitem').filter({ hasText: 'M / Sand' });
        await line.getByRole('button', { name: /^Remove/ }).click();
        await page.getByRole('status').getByText('Removed from your cart.').waitFor();
        await page.getByRole('status').getByText('One item you added before signing in is not in your cart yet.').waitFor();
        await page.getByRole('button', { name: 'Add it to your cart' }).click();
        await page.getByRole('status').getByText('Your cart is updated.').waitFor();
        assert.equal(await page.getByRole('button', { name: 'Add it to your cart' }).count(), 0, 'nothing waits any more');
        assert.equal((await accountCart(buyer))[waits.id], 1);
      },
      { viewport: PHONE },
    );
  });
});
