import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { gainsFocus } from '../helpers/browser.js';
import {
  customer,
  brokenAmounts,
  DESKTOP,
  inShop,
  makeShop,
  ordersOf,
  PHONE,
  sidewaysScroll,
  signInThroughShop,
  startShop,
} from '../helpers/storefront.js';

/**
 * The whole purchase as a shopper makes it, from the home page to the confirmation: browse by the
 * category navigation, choose a variant by its options (the price follows), add to the cart as a
 * visitor, sign in at checkout (the cart comes along), place the order. Then the database holds
 * exactly that order.
 */
const { t: app, browser } = await startShop();
const shop = await makeShop(app);
const { product } = shop;

async function buyFromHome(page: Page, email: string, password: string) {
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Categories' })
    .getByRole('link', { name: /^Clothing/ })
    .click();
  await page.getByRole('heading', { level: 1, name: /Clothing/ }).waitFor();
  await page.getByRole('link', { name: product.name }).first().click();
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  assert.equal(await sidewaysScroll(page), 0, 'the product page fits the screen');

  // The default choice is the first variant in stock; the price follows the colour chosen.
  await page.getByRole('link', { name: 'Sand', exact: true }).click();
  await page.getByRole('link', { name: 'M', exact: true }).click();
  await page.getByText('$52.00', { exact: true }).waitFor();
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('status').filter({ hasText: 'Added 2' }).waitFor();

  await page.getByRole('link', { name: /^Cart, 2 items/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
  assert.match(await page.getByRole('list', { name: 'Items in your cart' }).innerText(), /M \/ Sand/);
  assert.match(await page.locator('aside').innerText(), /\$104\.00/);
  assert.deepEqual(await brokenAmounts(page), [], 'every amount of the cart on one line');
  await page.getByRole('link', { name: 'Check out' }).click();

  await page.getByText('Sign in or create an account to check out').waitFor();
  await signInThroughShop(page, email, password);
  await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
  const summary = await page.getByRole('complementary').innerText();
  assert.match(summary, /2 × .*\n?.*M \/ Sand/);
  // The total as the API quotes it, before the shopper commits: 2 x 52.00 and flat shipping.
  assert.match(summary, /Total\s+\$114\.00/);
  assert.deepEqual(await brokenAmounts(page), [], 'every amount of the checkout on one line');
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
  assert.deepEqual(await brokenAmounts(page), [], 'every amount of the confirmation on one line');
  return page.getByRole('heading', { level: 1 }).innerText();
}

describe('storefront: the purchase', () => {
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    test(`from the home page to the confirmation (${label})`, async (t) => {
      const buyer = await customer(app);
      await inShop(
        browser,
        t,
        app,
        async (page) => {
          const heading = await buyFromHome(page, buyer.email, buyer.password);
          const orders = await ordersOf(app, buyer.email);
          assert.equal(orders.length, 1);
          const { body } = await buyer.client.get(`/api/v1/orders/${orders[0]!.public_id}`);
          assert.equal(heading, `Order ${body.data.order_number}`);
          assert.deepEqual(
            body.data.items.map((i: any) => [i.sku, i.quantity]),
            [[product.variants[3]!.sku, 2]],
          );
          assert.equal(body.data.total, '114.00', '2 x 52.00 and flat shipping');
          assert.match(await page.locator('main').innerText(), /\$114\.00/);
          // Nothing is left in the cart, and the header says so.
          assert.equal((await buyer.client.get('/api/v1/cart')).body.data.items.length, 0);
          await page.getByRole('link', { name: 'Cart, 0 items' }).waitFor();
        },
        { viewport },
      );
    });
  }

  test('a visitor who creates an account at checkout keeps the cart, adds an address there and places the order', async (t) => {
    const email = `new-${Date.now().toString(36)}@example.test`;
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto(`/p/${product.slug}?size=S&colour=Sky`);
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByRole('status').filter({ hasText: 'Added 1' }).waitFor();
        await page.goto('/checkout');
        await page.getByText('Sign in or create an account to check out').waitFor();
        await page.getByRole('link', { name: 'Create an account' }).click();
        await page.getByLabel('First name').fill('Grace');
        await page.getByLabel('Last name').fill('Hopper');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill('Correct-Horse-9');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
        assert.match(await page.getByRole('complementary').innerText(), /1 × .*\n?.*S \/ Sky/, 'the cart came along');

        // No address yet: the form to add one is open, with the account's name in it.
        assert.equal(await page.getByLabel('Full name').inputValue(), 'Grace Hopper');
        await page.getByLabel('Phone').fill('+12025550123');
        await page.getByLabel('Address', { exact: true }).fill('1 Navy Yard');
        await page.getByLabel('City').fill('Washington');
        await page.getByLabel('State').fill('DC');
        await page.getByLabel('Country').fill('US');
        // A slow answer and an impatient double click: one address, and the word that it worked in view, focused.
        await page.route('**/checkout?/address', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          await route.continue();
        });
        await page.getByRole('button', { name: 'Save address' }).dblclick();
        const saved = page.getByRole('status').getByText('Address saved and selected.');
        await saved.waitFor();
        assert.ok(await gainsFocus(saved), 'the notice has focus');
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM addresses a JOIN users u ON u.id = a.user_id
                                                   WHERE u.email = ${email}`.execute(app.db);
        assert.equal(rows[0]!.n, 1, 'one address for a double click');
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
        // The thanks are for arriving from checkout: a reload shows the order alone.
        await page.reload();
        await page.getByRole('heading', { level: 1, name: /^Order / }).waitFor();
        assert.equal(await page.getByRole('heading', { name: 'Thank you! We have your order.' }).count(), 0);
        // The status says "Placed" once; the date beside it does not repeat the word.
        assert.match((await page.locator('p.status').innerText()).replace(/\s+/g, ' '), /^Placed Ordered \d{1,2} \w+ \d{4}$/);
        const orders = await ordersOf(app, email);
        assert.equal(orders.length, 1);
      },
      { viewport: PHONE },
    );
  });

  test('the same checkout form sent twice (a double click, a retry, a refresh) places one order', async (t) => {
    const buyer = await customer(app);
    await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 1 });
    await inShop(browser, t, app, async (page, context) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto('/checkout');
      const form = page.locator('form#place');
      const fields = {
        csrf: await form.locator('input[name=csrf]').inputValue(),
        key: await form.locator('input[name=key]').inputValue(),
        address: await page.locator('input[name=address]').first().inputValue(),
        coupon: '',
        notes: '',
      };
      const send = () =>
        // As a browser sends a form: an HTML answer wanted, so SvelteKit redirects (303) rather than answering JSON.
        context.request.post('/checkout?/place', { form: fields, headers: { origin: app.baseUrl, accept: 'text/html' }, maxRedirects: 0 });
      const answers = await Promise.all([send(), send()]);
      const third = await send();
      const locations = [...answers, third].map((answer) => {
        assert.equal(answer.status(), 303);
        return answer.headers().location;
      });
      const orders = await ordersOf(app, buyer.email);
      assert.equal(orders.length, 1, 'one order');
      for (const location of locations) assert.equal(location, `/orders/${orders[0]!.public_id}`);
    });
  });
});
