import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import type { Browser, Page, Route } from 'playwright-core';
import type { TestApp } from '../helpers/app.js';
import { gainsFocus, keepScreenshot } from '../helpers/browser.js';
import { inventoryOf } from '../helpers/commerce.js';
import {
  checkingOut as checkingOutIn,
  customer,
  inShop,
  makeShop,
  ordersOf,
  PHONE,
  SHOP_RESULTS,
  sidewaysScroll,
  signInThroughShop,
  startShop,
  waitForScriptOnLoad,
} from '../helpers/storefront.js';

/** Checkout when things go wrong: the last unit wanted by two shoppers at once, a session that ends at the wrong moment. */
const { t: app, browser } = await startShop();

/** A signed-in page at /checkout for a customer whose cart holds `variant` x 1. */
async function atCheckout(browser: Browser, app: TestApp, variant: string) {
  const buyer = await customer(app);
  const added = await buyer.client.post('/api/v1/cart/items', { variant_public_id: variant, quantity: 1 });
  assert.equal(added.status, 200, added.text);
  const context = await browser.newContext({ baseURL: app.baseUrl });
  const page = waitForScriptOnLoad(await context.newPage());
  await signInThroughShop(page, buyer.email, buyer.password);
  await page.goto('/checkout');
  await page.getByRole('button', { name: 'Place order' }).waitFor();
  return { buyer, context, page };
}

/** The shared checkingOut (helpers/storefront.ts) on this file's shop and browser. */
const checkingOut = (
  t: TestContext,
  line: { variant: string; quantity: number },
  body: Parameters<typeof checkingOutIn>[4],
  options: Parameters<typeof checkingOutIn>[5] = {},
) => checkingOutIn(browser, t, app, line, body, options);

describe('storefront: checkout edges', () => {
  test('the last unit bought by two shoppers at once: one order, and the other is told clearly', async (t) => {
    const { product } = await makeShop(app, { stock: 1 });
    const last = product.variants[0]!;
    await inShop(browser, t, app, async () => {
      const shoppers = await Promise.all([atCheckout(browser, app, last.id), atCheckout(browser, app, last.id)]);
      try {
        await Promise.all(shoppers.map(({ page }) => page.getByRole('button', { name: 'Place order' }).click()));
        const outcomes = await Promise.all(
          shoppers.map(({ page }) =>
            Promise.race([
              page
                .getByRole('heading', { name: 'Thank you! We have your order.' })
                .waitFor()
                .then(() => 'ordered'),
              page
                .getByRole('alert')
                .filter({ hasText: 'Some items sold out while you were checking out.' })
                .waitFor()
                .then(() => 'told'),
            ]),
          ),
        );
        assert.deepEqual([...outcomes].sort(), ['ordered', 'told']);
        const loser = shoppers[outcomes.indexOf('told')]!;
        assert.match(await loser.page.getByRole('alert').first().innerText(), new RegExp(`${last.sku}: only 0 left`));
        await keepScreenshot(loser.page, path.join(SHOP_RESULTS, 'last-unit-the-other-shopper.png'));
        const orders = await Promise.all(shoppers.map(({ buyer }) => ordersOf(app, buyer.email)));
        assert.deepEqual(orders.map((o) => o.length).sort(), [0, 1]);
        assert.equal((await inventoryOf(app, last.id)).quantity_reserved, 1);
      } finally {
        await Promise.all(shoppers.map(({ context }) => context.close()));
      }
    });
  });

  test('a visitor whose cart holds more than the few now left is told in the cart, before signing in', async (t) => {
    const { admin, product } = await makeShop(app, { stock: 3 });
    const few = product.variants[0]!;
    // At or below its reorder level, a variant is LOW_STOCK and shoppers see the count.
    const level = await admin.patch(`/api/v1/admin/inventory/${few.id}`, { reorder_level: 5 });
    assert.equal(level.status, 200, level.text);
    await inShop(browser, t, app, async (page) => {
      await page.goto(`/p/${product.slug}?size=${few.options.size}&colour=${few.options.colour}`);
      await page.getByText('Only 3 left').waitFor();
      await page.getByLabel('Quantity').fill('3');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added 3 × ').waitFor();
      // Meanwhile one is sold elsewhere: two are left.
      const sold = await admin.patch(`/api/v1/admin/inventory/${few.id}`, { quantity_on_hand: 2 });
      assert.equal(sold.status, 200, sold.text);
      await page.goto('/cart');
      const line = page.getByRole('listitem').filter({ hasText: few.options.colour });
      await line.getByText('Only 2 left').waitFor();
      await page.getByText('One item is not available in the quantity you chose.').waitFor();
      await line.getByRole('button', { name: /Change to 2/ }).click();
      await page.getByRole('listitem').filter({ hasText: few.options.colour }).getByText('Only 2 left').waitFor({ state: 'detached' });
      assert.equal(await page.getByText('not available in the quantity you chose').count(), 0);
      assert.equal(await line.getByLabel(/Quantity of/).inputValue(), '2');
    });
  });

  test('a signed-in cart that asks for more than the shop has says how many there are, at checkout and in the cart (phone)', async (t) => {
    // 20 in stock, well above the reorder level: no count is public, but the shopper asking for 30 is told it.
    const { product } = await makeShop(app, { stock: 20 });
    const plenty = product.variants[2]!;
    await checkingOut(
      t,
      { variant: plenty.id, quantity: 30 },
      async (page) => {
        await page.getByRole('alert').getByText(`(${plenty.options.size} / ${plenty.options.colour}): only 20 left, you have 30`).waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'checkout-short-line-phone.png'));
        await page.getByRole('link', { name: 'Adjust your cart' }).click();
        const line = page.getByRole('listitem').filter({ hasText: plenty.options.colour });
        await line.getByText('Only 20 left').waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'cart-short-line-phone.png'));
        await line.getByRole('button', { name: /Change to 20/ }).click();
        await page
          .getByRole('listitem')
          .filter({ hasText: plenty.options.colour })
          .getByText('Only 20 left')
          .waitFor({ state: 'detached' });
        await page.getByRole('link', { name: /^Cart, 20 items/ }).waitFor();
        assert.equal(await sidewaysScroll(page), 0, 'the cart fits 360 px');
      },
      { viewport: PHONE },
    );
  });

  test('signing in at checkout with a cart saved in the account shows the cart they make together, before checkout', async (t) => {
    const { product } = await makeShop(app, { stock: 20 });
    const [saved, added] = [product.variants[0]!, product.variants[1]!];
    const buyer = await customer(app);
    assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: saved.id, quantity: 2 })).status, 200);
    await inShop(browser, t, app, async (page) => {
      await page.goto(`/p/${product.slug}?size=${added.options.size}&colour=${added.options.colour}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added 1 × ').waitFor();
      await page.goto('/cart');
      await page.getByRole('link', { name: 'Check out' }).click();
      await page.getByText('Sign in or create an account to check out').waitFor();
      await signInThroughShop(page, buyer.email, buyer.password);
      // Not straight to payment: the cart is now two carts' worth, and says so.
      await page.waitForURL((url) => url.pathname === '/cart');
      await page.getByRole('status').getByText("Your account's cart already had 2 items").waitFor();
      assert.equal(await page.getByRole('list', { name: 'Items in your cart' }).getByRole('listitem').count(), 2);
      await page.getByRole('link', { name: /^Cart, 3 items/ }).waitFor();
      // Said once, and only after a merge: not on the next visit, not from a link anyone could send.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
      assert.equal(await page.getByText("Your account's cart already had").count(), 0);
      await page.goto('/cart?saved=7&unavailable=3');
      await page.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
      assert.equal(await page.getByText(/already had|no longer on sale/).count(), 0);
    });
    // Without a saved cart, sign-in at checkout goes on to checkout as before (the purchase tests).
  });

  test('a coupon is applied to the total before the order is placed; a wrong one is refused at its field, in words (no JavaScript)', async (t) => {
    const { admin, product } = await makeShop(app, { price: '40.00' });
    const code = `TEN${Date.now().toString(36)}`.toUpperCase();
    const coupon = await admin.post('/api/v1/admin/coupons', { code, discount_type: 'PERCENTAGE', discount_value: '10' });
    assert.equal(coupon.status, 201, coupon.text);
    await checkingOut(
      t,
      { variant: product.variants[0]!.id, quantity: 2 },
      async (page, buyer) => {
        const summary = page.getByRole('complementary');
        assert.match(await summary.innerText(), /Total\s+\$90\.00/, '2 x 40.00 and flat shipping');

        await page.getByLabel('Coupon code (optional)').fill('NOPE-NOT-A-CODE');
        await page.getByRole('button', { name: 'Apply' }).click();
        // One sentence, at the field: the shop's words and the reason together, no second banner far above.
        await page.getByRole('alert').getByText('That coupon cannot be used for this order: unknown code.').waitFor();
        assert.equal(await page.getByRole('alert').count(), 1);
        assert.equal(await page.locator('#coupon-error').innerText(), 'That coupon cannot be used for this order: unknown code.');
        assert.equal(await page.getByLabel('Coupon code (optional)').getAttribute('aria-invalid'), 'true');
        assert.match(await summary.innerText(), /Total\s+\$90\.00/);
        // The page comes back at the field (on a phone, below the addresses), where it says why.
        assert.equal(new URL(page.url()).hash, '#coupon');

        await page.getByLabel('Coupon code (optional)').fill(code.toLowerCase());
        await page.getByRole('button', { name: 'Apply' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `${code} applied: $8.00 off.` })
          .waitFor();
        assert.match(await summary.innerText(), /Discount \(.+\)\s+−\$8\.00[\s\S]*Total\s+\$82\.00/);
        assert.equal((await ordersOf(app, buyer.email)).length, 0, 'applying a coupon places nothing');
        // Applied by a post answered with a redirect: the page is a GET, the coupon kept for it, so a reload keeps it.
        assert.equal(new URL(page.url()).pathname + new URL(page.url()).search + new URL(page.url()).hash, '/checkout#coupon');
        await page.reload();
        assert.match(await summary.innerText(), /Total\s+\$82\.00/);
        assert.equal(await sidewaysScroll(page), 0, 'the coupon row fits 360 px');
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'checkout-coupon-applied-phone.png'));

        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
        const [order] = await ordersOf(app, buyer.email);
        const { body } = await buyer.client.get(`/api/v1/orders/${order!.public_id}`);
        assert.equal(body.data.total, '82.00', 'the order costs what the checkout said');
        assert.equal(body.data.coupon_code, code);
        // Back from the order: the checkout again by GET (its cart now empty), no 'send the form again?'.
        const back = await page.goBack();
        assert.equal(back?.request().method(), 'GET');
        await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
      },
      { javaScript: false, viewport: PHONE },
    );
  });

  test('with JavaScript, a refused coupon leaves the keyboard at its field, the reason there too; an applied one survives a reload', async (t) => {
    const { admin, product } = await makeShop(app, { price: '40.00' });
    const code = `FIVE${Date.now().toString(36)}`.toUpperCase();
    assert.equal((await admin.post('/api/v1/admin/coupons', { code, discount_type: 'FIXED_AMOUNT', discount_value: '5.00' })).status, 201);
    await checkingOut(
      t,
      { variant: product.variants[0]!.id, quantity: 1 },
      async (page) => {
        await page.getByLabel('Coupon code (optional)').fill('NOPE-NOT-A-CODE');
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.getByRole('alert').getByText('That coupon cannot be used for this order: unknown code.').waitFor();
        assert.ok(await gainsFocus(page.getByLabel('Coupon code (optional)')));

        await page.getByLabel('Coupon code (optional)').fill(code);
        await page.getByRole('button', { name: 'Apply' }).click();
        const applied = page.getByRole('status').filter({ hasText: `${code} applied: $5.00 off.` });
        await applied.waitFor();
        // The keyboard stays at Apply, beside the words that it worked (a successful answer moves it to the page by default).
        const apply = page.getByRole('button', { name: 'Apply' });
        assert.ok(await gainsFocus(apply));
        // Kept: a reload (or a phone reopening the tab), and Back from another page, price the order with it.
        await page.reload();
        await applied.waitFor();
        assert.equal(await page.getByLabel('Coupon code (optional)').inputValue(), code);
        await page.getByRole('link', { name: /^Cart, / }).click();
        await page.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
        await page.goBack();
        await applied.waitFor();
        // A refused code lets go of the kept one: the total is without a coupon, and stays so on a reload.
        await page.getByLabel('Coupon code (optional)').fill('NOPE-NOT-A-CODE');
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.getByRole('alert').getByText('That coupon cannot be used for this order: unknown code.').waitFor();
        assert.equal(
          await page.locator('#coupon-error').innerText(),
          `That coupon cannot be used for this order: unknown code. ${code}, applied before, was taken off: apply it again to keep it.`,
        );
        await applied.waitFor({ state: 'detached' });
        assert.match(await page.getByRole('complementary').innerText(), /Total\s+\$50\.00/, '40.00 and flat shipping, no discount');
        await page.reload();
        assert.match(await page.getByRole('complementary').innerText(), /Total\s+\$50\.00/);
        // A link that carries a coupon applies it, and the address is the checkout's own again.
        await page.goto(`/checkout?coupon=${code}`);
        await applied.waitFor();
        assert.equal(new URL(page.url()).search, '');
        // Cleared and applied again: nothing is kept.
        await page.getByLabel('Coupon code (optional)').fill('');
        await page.getByRole('button', { name: 'Apply' }).click();
        await applied.waitFor({ state: 'detached' });
        await page.reload();
        assert.equal(await applied.count(), 0);
      },
      { viewport: PHONE },
    );
  });

  test('a coupon that stops applying before Place order: the order waits, and the field says so and why', async (t) => {
    const { admin, product } = await makeShop(app, { price: '40.00' });
    const code = `GONE${Date.now().toString(36)}`.toUpperCase();
    const coupon = await admin.post('/api/v1/admin/coupons', { code, discount_type: 'FIXED_AMOUNT', discount_value: '5.00' });
    assert.equal(coupon.status, 201, coupon.text);
    for (const javaScript of [true, false]) {
      await checkingOut(
        t,
        { variant: product.variants[0]!.id, quantity: 1 },
        async (page, buyer) => {
          assert.equal((await admin.patch(`/api/v1/admin/coupons/${coupon.body.data.public_id}`, { is_active: true })).status, 200);
          await page.getByLabel('Coupon code (optional)').fill(code);
          await page.getByRole('button', { name: 'Apply' }).click();
          await page
            .getByRole('status')
            .filter({ hasText: `${code} applied: $5.00 off.` })
            .waitFor();
          // Switched off by the shop while the shopper reads the total.
          assert.equal((await admin.patch(`/api/v1/admin/coupons/${coupon.body.data.public_id}`, { is_active: false })).status, 200);
          await page.getByRole('button', { name: 'Place order' }).click();
          const said = page.locator('#coupon-error');
          await said.waitFor();
          assert.match(
            await said.innerText(),
            /^Your order was not placed\. That coupon cannot be used for this order: .+\. Remove the code or use another, then place the order again\.$/,
          );
          assert.equal(await page.getByRole('alert').count(), 1, 'one sentence, at the field');
          // And at the top, where the page comes back without JavaScript (on a phone, far above the field), a way to it.
          await page.getByText('Your order was not placed: the coupon could not be used.').getByRole('link', { name: 'See why' }).waitFor();
          if (javaScript) {
            assert.ok(await gainsFocus(page.getByLabel('Coupon code (optional)')));
          }
          assert.equal((await ordersOf(app, buyer.email)).length, 0);
          assert.match(await page.getByRole('complementary').innerText(), /Total\s+\$50\.00/, 'the total without the coupon');

          await page.getByLabel('Coupon code (optional)').fill('');
          await page.getByRole('button', { name: 'Place order' }).click();
          await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
          const [order] = await ordersOf(app, buyer.email);
          assert.equal(order!.total, '50.00');
        },
        { javaScript, viewport: PHONE },
      );
    }
  });

  test('a new address half typed at checkout stays open, with what was typed, through a coupon applied or refused; saved, it folds', async (t) => {
    const { admin, product } = await makeShop(app, { price: '40.00' });
    const code = `TEN${Date.now().toString(36)}`.toUpperCase();
    assert.equal((await admin.post('/api/v1/admin/coupons', { code, discount_type: 'PERCENTAGE', discount_value: '10' })).status, 201);
    await checkingOut(
      t,
      { variant: product.variants[0]!.id, quantity: 1 },
      async (page) => {
        const panel = page.locator('details.add');
        const isOpen = () => panel.evaluate((el) => el.hasAttribute('open'));
        // A note typed first survives every answer below (each reloads the page's data).
        await page.getByLabel('Note for us (optional)').fill('Ring twice please');
        await page.getByText('Add a new address').click();
        await panel.getByLabel('Full name').fill('Mary Somerville');
        await panel.getByLabel('Address', { exact: true }).fill('11 Harbour Road');
        for (const [typed, answer] of [
          ['NOPE-NOT-A-CODE', page.getByRole('alert').getByText('That coupon cannot be used for this order: unknown code.')],
          // Typed in lower case (a phone's keyboard opens in capitals for it): applied as the shop writes it.
          [code.toLowerCase(), page.getByRole('status').filter({ hasText: `${code} applied` })],
        ] as const) {
          await page.getByLabel('Coupon code (optional)').fill(typed);
          await page.getByRole('button', { name: 'Apply' }).click();
          await answer.waitFor();
          assert.equal(await isOpen(), true, `still open after ${typed}`);
          assert.equal(await panel.getByLabel('Address', { exact: true }).inputValue(), '11 Harbour Road', typed);
        }
        await panel.getByLabel('Phone').fill('+44 131 496 0000');
        await panel.getByLabel('City').fill('Edinburgh');
        await panel.getByLabel('State or region').fill('Lothian');
        await panel.getByLabel('Country').fill('GB');
        // Refused by the shop (a hidden control character in the name): said in the panel, what was typed kept,
        // the coupon still shown as applied.
        await panel.getByLabel('Full name').fill('Mary Somerville\u202e');
        await panel.getByRole('button', { name: 'Save address' }).click();
        const refusal = panel.getByRole('alert');
        await refusal.waitFor();
        assert.equal(await panel.getByLabel('Address', { exact: true }).inputValue(), '11 Harbour Road');
        assert.equal((await page.getByLabel('Coupon code (optional)').inputValue()).toUpperCase(), code);
        assert.equal(await page.getByLabel('Coupon code (optional)').getAttribute('autocapitalize'), 'characters');
        // Another form answered meanwhile leaves the refusal and what was typed where they are.
        const answered = page.waitForResponse((response) => response.url().endsWith('?/coupon'));
        await page.getByRole('button', { name: 'Apply' }).click();
        await answered;
        await page
          .getByRole('status')
          .filter({ hasText: `${code} applied` })
          .waitFor();
        assert.equal(await isOpen(), true, 'still open after the refusal and another Apply');
        await refusal.waitFor();
        assert.equal(await panel.getByLabel('City').inputValue(), 'Edinburgh');
        await panel.getByLabel('Full name').fill('Mary Somerville');
        await panel.getByRole('button', { name: 'Save address' }).click();
        await page.getByRole('status').getByText('Address saved and selected.').waitFor();
        await page.locator('details.add:not([open])').waitFor({ state: 'attached' });
        assert.equal(await page.getByRole('radio', { name: /11 Harbour Road/ }).isChecked(), true);
        assert.equal(await page.getByLabel('Note for us (optional)').inputValue(), 'Ring twice please');
      },
      { viewport: PHONE },
    );
  });

  test('a note kept through Apply without JavaScript: a long one in a non-Latin script survives, one past what a cookie holds is asked for again', async (t) => {
    const { product } = await makeShop(app, { price: '40.00' });
    await checkingOut(
      t,
      { variant: product.variants[0]!.id, quantity: 1 },
      async (page) => {
        const notes = page.getByLabel('Note for us (optional)');
        // 600 characters of three bytes each: 5.4 KB percent-encoded, over the 4 KB a browser keeps of a cookie.
        const long = 'ご自宅の前に置いてください。'.repeat(43).slice(0, 600);
        await notes.fill(long);
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.waitForURL(/\/checkout#coupon$/);
        assert.equal(await notes.inputValue(), long);
        assert.equal(await page.locator('#notes-lost').count(), 0);

        await notes.fill('ご'.repeat(1000));
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.locator('#notes-lost').getByText('Your note was too long to keep through that step: please type it again.').waitFor();
        assert.equal(await notes.inputValue(), '');
        assert.equal(await notes.getAttribute('aria-describedby'), 'notes-lost');
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'checkout-note-too-long-phone.png'));
      },
      { javaScript: false, viewport: PHONE },
    );
  });

  test("an order is cancelled from its page, after a second press; the stock goes back; another shopper's order is a 404 page", async (t) => {
    const { product } = await makeShop(app, { stock: 4 });
    const variant = product.variants[0]!;
    const buyer = await customer(app);
    assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: variant.id, quantity: 3 })).status, 200);
    const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0].public_id;
    const placed = await buyer.client.post('/api/v1/orders', { address_public_id: address, payment_method: 'mock' });
    assert.equal(placed.status, 201, placed.text);
    const order = placed.body.data.public_id as string;
    assert.equal((await inventoryOf(app, variant.id)).quantity_reserved, 3);
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, buyer.password);
        // As the confirmation page after placing it (checkout's word for it is a cookie): the thanks go once the order is cancelled.
        // The word is for the order it names: another order's page says nothing of it (and spends it).
        await page.context().addCookies([{ name: 'placed', value: 'ord_anotherorder123456', url: `${app.baseUrl}/orders` }]);
        await page.goto(`/orders/${order}`);
        await page.getByRole('heading', { level: 1, name: /^Order / }).waitFor();
        assert.equal(await page.getByRole('heading', { name: 'Thank you! We have your order.' }).count(), 0);
        await page.context().addCookies([{ name: 'placed', value: order, url: `${app.baseUrl}/orders` }]);
        await page.goto(`/orders/${order}`);
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
        await page.getByRole('button', { name: 'Cancel order' }).click();
        // The first press only asks: nothing is cancelled yet. "Keep my order" puts the question away, the keyboard where it was.
        await page.getByRole('link', { name: 'Keep my order' }).click();
        const cancel = page.getByRole('button', { name: 'Cancel order' });
        await cancel.waitFor();
        assert.ok(await gainsFocus(cancel), 'the keyboard is back on Cancel order');
        await cancel.click();
        await page.getByRole('button', { name: 'Yes, cancel this order' }).waitFor();
        assert.equal((await buyer.client.get(`/api/v1/orders/${order}`)).body.data.status, 'PLACED');
        await page.getByRole('button', { name: 'Yes, cancel this order' }).click();
        await page.getByRole('status').getByText('Your order is cancelled and your payment refunded.').waitFor();
        // Said at the top of the page, far above the button on a phone: brought into view, the keyboard there.
        const said = page.getByRole('status').filter({ hasText: 'Your order is cancelled' });
        assert.ok(await gainsFocus(said), 'the notice has the focus');
        assert.equal((await buyer.client.get(`/api/v1/orders/${order}`)).body.data.status, 'CANCELLED');
        assert.equal((await inventoryOf(app, variant.id)).quantity_reserved, 0, 'the stock went back');
        assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0, 'a cancelled order offers no cancel');
        assert.equal(await page.getByRole('heading', { name: 'Thank you! We have your order.' }).count(), 0, 'no thanks for it');

        const other = await customer(app);
        await page.context().clearCookies();
        await signInThroughShop(page, other.email, other.password);
        const response = await page.goto(`/orders/${order}`);
        assert.equal(response?.status(), 404);
        await page.getByRole('heading', { level: 1, name: 'We could not find that page' }).waitFor();
        assert.equal(await page.getByRole('button', { name: /cancel/i }).count(), 0);
      },
      { viewport: PHONE },
    );
  });

  test('an order cancelled in another tab meanwhile: the confirmed press says it is cancelled, not that it shipped', async (t) => {
    const { product } = await makeShop(app);
    const buyer = await customer(app);
    assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 1 })).status, 200);
    const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0].public_id;
    const placed = await buyer.client.post('/api/v1/orders', { address_public_id: address, payment_method: 'mock' });
    const order = placed.body.data.public_id as string;
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.goto(`/orders/${order}`);
        await page.getByRole('button', { name: 'Cancel order' }).click();
        await page.getByRole('button', { name: 'Yes, cancel this order' }).waitFor();
        // The other tab cancels it first.
        assert.equal((await buyer.client.post(`/api/v1/orders/${order}/cancel`, {})).status, 200);
        await page.getByRole('button', { name: 'Yes, cancel this order' }).click();
        await page.getByRole('status').getByText('Your order is cancelled and your payment refunded.').waitFor();
        assert.equal(await page.getByText('already shipped').count(), 0);
      },
      { viewport: PHONE },
    );
  });

  test('a session that ends during checkout: sign in again, come back to checkout with the cart, one order', async (t) => {
    const { product } = await makeShop(app);
    const buyer = await customer(app);
    await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[2]!.id, quantity: 2 });
    await inShop(browser, t, app, async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto('/checkout');
      await page.getByRole('button', { name: 'Place order' }).waitFor();
      await page.getByLabel('Note for us (optional)').fill('Please leave it with the neighbour at number 12.');
      // Idle past the session's lifetime while the page is open.
      app.clock.advance((app.config.sessionIdleDays + 1) * 86_400_000);
      try {
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByText('Your session has ended. Please sign in again; your cart is saved.').waitFor();
        assert.equal(new URL(page.url()).searchParams.get('next'), '/checkout');
        assert.equal((await ordersOf(app, buyer.email)).length, 0);
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
        assert.match(await page.getByRole('complementary').innerText(), /2 × /);
        // What was typed before the session ended is there again, once.
        assert.equal(await page.getByLabel('Note for us (optional)').inputValue(), 'Please leave it with the neighbour at number 12.');
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
      } finally {
        app.clock.offsetMs = 0;
      }
    });
    const orders = await ordersOf(app, buyer.email);
    assert.equal(orders.length, 1);
    const placed = await app.db.selectFrom('orders').select('notes').where('public_id', '=', orders[0]!.public_id).executeTakeFirst();
    assert.equal(placed?.notes, 'Please leave it with the neighbour at number 12.', 'the note reached the order');
  });
  test('a cart changed in another tab after checkout was shown is not ordered unseen: the new cart and total are shown first', async (t) => {
    const { product } = await makeShop(app);
    for (const javaScript of [true, false]) {
      const buyer = await checkingOut(
        t,
        { variant: product.variants[0]!.id, quantity: 1 },
        async (page, buyer) => {
          assert.match(await page.getByRole('complementary').innerText(), /1 × /);
          // Another tab: three more of another variant.
          await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[2]!.id, quantity: 3 });
          await page.getByRole('button', { name: 'Place order' }).click();
          const notice = page.getByRole('alert').filter({ hasText: 'Your cart changed since this page was shown' });
          await notice.waitFor();
          assert.equal((await ordersOf(app, buyer.email)).length, 0, 'nothing ordered unseen');
          // The summary now shows the cart as it stands, and the total it costs.
          const summary = await page.getByRole('complementary').innerText();
          assert.match(summary, /3 × /);
          if (javaScript) assert.ok(await gainsFocus(notice), 'the reason has focus');
          await keepScreenshot(page, path.join(SHOP_RESULTS, `checkout-cart-changed-${javaScript ? 'js' : 'nojs'}-phone.png`));
          await page.getByRole('button', { name: 'Place order' }).click();
          await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
        },
        { viewport: PHONE, javaScript, label: `cart-changed-${javaScript ? 'js' : 'nojs'}` },
      );
      const orders = await ordersOf(app, buyer.email);
      assert.equal(orders.length, 1);
      const lines = await app.db
        .selectFrom('order_items')
        .select('quantity')
        .where('order_id', '=', app.db.selectFrom('orders').select('id').where('public_id', '=', orders[0]!.public_id))
        .execute();
      assert.deepEqual(lines.map((line) => line.quantity).sort(), [1, 3]);
    }
  });

  test('a price raised after checkout was shown is not charged unseen: the new total is shown first', async (t) => {
    const { admin, product } = await makeShop(app, { price: '40.00' });
    const variant = product.variants[0]!.id;
    const buyer = await checkingOut(
      t,
      { variant, quantity: 1 },
      async (page, buyer) => {
        assert.match(await page.getByRole('complementary').innerText(), /\$50\.00/);
        assert.equal((await admin.patch(`/api/v1/admin/variants/${variant}`, { price: '45.00' })).status, 200);
        await page.getByRole('button', { name: 'Place order' }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: "Your order's total went up since this page was shown: it now costs $55.00, not $50.00." })
          .waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'checkout-total-went-up-phone.png'));
        assert.equal((await ordersOf(app, buyer.email)).length, 0, 'nothing charged at a total the page did not show');
        assert.match(await page.getByRole('complementary').innerText(), /\$55\.00/);
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
      },
      { viewport: PHONE },
    );
    const orders = await ordersOf(app, buyer.email);
    assert.equal(orders.length, 1);
    const placed = await app.db.selectFrom('orders').select('total').where('public_id', '=', orders[0]!.public_id).executeTakeFirst();
    assert.equal(String(placed?.total), '55.00');
  });

  /**
   * An order placed at checkout (phone) whose answer does not come back as sent (`lose` answers the
   * post after it reached the shop); `check` looks at the checkout then, and pressing again must show
   * that one order, never a second.
   */
  async function orderWithItsAnswerLost(
    t: TestContext,
    lose: (route: Route) => Promise<void>,
    check: (page: Page, buyer: Awaited<ReturnType<typeof customer>>) => Promise<void>,
    expectedConsoleErrors?: RegExp,
  ) {
    const { product } = await makeShop(app);
    const buyer = await checkingOut(
      t,
      { variant: product.variants[1]!.id, quantity: 1 },
      async (page, buyer) => {
        const key = await page.locator('input[name="key"]').inputValue();
        await page.route('**/checkout?/place', async (route) => {
          await route.fetch();
          await lose(route);
        });
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('alert').filter({ hasText: 'We could not hear back from the shop' }).waitFor();
        assert.equal(await page.locator('input[name="key"]').inputValue(), key, 'the same key for the retry');
        await check(page, buyer);
        await page.unroute('**/checkout?/place');
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
      },
      { viewport: PHONE, ...(expectedConsoleErrors ? { expectedConsoleErrors } : {}) },
    );
    assert.equal((await ordersOf(app, buyer.email)).length, 1, 'the same order, not a second');
  }

  test('an order whose answer is lost on the way back is said in words on the checkout, and pressing again shows that one order', async (t) => {
    await orderWithItsAnswerLost(
      t,
      (route) => route.abort('connectionreset'),
      async (page, buyer) => {
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'checkout-answer-lost-phone.png'));
        assert.equal((await ordersOf(app, buyer.email)).length, 1, 'it was placed');
        assert.equal(
          await page.getByRole('heading', { level: 1, name: 'Checkout' }).count(),
          1,
          'still on the checkout, not an error page',
        );
      },
      /ERR_CONNECTION_RESET|Failed to load resource|Failed to fetch/,
    );
  });

  test('an order answered with a 5xx may have been placed: the checkout keeps its key and says so, as for a lost answer', async (t) => {
    // What comes back is a refusal with a 5xx (a proxy's, a timeout), as SvelteKit encodes one.
    const data = JSON.stringify([{ message: 1, errors: 2, values: 3 }, 'The shop is busy right now.', {}, {}]);
    await orderWithItsAnswerLost(
      t,
      (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ type: 'failure', status: 503, data }) }),
      async () => {},
    );
  });

  test('a coupon cleared after Apply is not ordered at a total the page did not show', async (t) => {
    const { admin, product } = await makeShop(app, { price: '40.00' });
    const code = `CLR${Date.now().toString(36)}`.toUpperCase();
    assert.equal((await admin.post('/api/v1/admin/coupons', { code, discount_type: 'PERCENTAGE', discount_value: '10' })).status, 201);
    await checkingOut(
      t,
      { variant: product.variants[0]!.id, quantity: 2 },
      async (page, buyer) => {
        await page.getByLabel('Coupon code (optional)').fill(code);
        await page.getByRole('button', { name: 'Apply' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: `${code} applied` })
          .waitFor();
        await page.getByLabel('Coupon code (optional)').fill('');
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('alert').filter({ hasText: 'The total shown was for another coupon' }).waitFor();
        assert.equal((await ordersOf(app, buyer.email)).length, 0);
      },
      { viewport: PHONE },
    );
  });
});
