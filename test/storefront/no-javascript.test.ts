import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { inView, keepScreenshot } from '../helpers/browser.js';
import {
  customer,
  inShop,
  makeShop,
  ordersOf,
  PHONE,
  productPicture,
  SHOP_RESULTS,
  sidewaysScroll,
  signInThroughShop,
  startShop,
} from '../helpers/storefront.js';

/**
 * With JavaScript turned off, a shopper can still find, choose and buy: links and plain forms only,
 * every answer rendered on the server.
 */
const { t: app, browser } = await startShop();
const shop = await makeShop(app);
const { product } = shop;
// The Sand variants have a picture of their own: choosing Sand shows it, and the cart line carries it.
const sandPicture = await productPicture(app, shop.admin, '#c8b27e');
for (const variant of product.variants.filter((v) => v.options.colour === 'Sand')) {
  const patched = await shop.admin.patch(`/api/v1/admin/variants/${variant.id}`, {
    images: [{ url: sandPicture, alt_text: `${product.name} in sand` }],
  });
  assert.equal(patched.status, 200, patched.text);
}
const noJs = { javaScript: false, viewport: PHONE } as const;

describe('storefront without JavaScript', () => {
  test('search, filter and sort are in the URL; a variant is chosen by links; add to cart; change and remove lines', async (t) => {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto('/');
        // SvelteKit's bootstrap script never ran: the page is the server's HTML alone.
        assert.equal(await page.evaluate(() => Object.keys(globalThis).some((key) => key.startsWith('__sveltekit'))), false);
        await page.getByLabel('Search products').first().fill('linen');
        await page.getByRole('button', { name: 'Search' }).first().click();
        await page.waitForURL(/\/search\?q=linen/);
        await page.getByRole('link', { name: product.name }).waitFor();

        // Filters are a GET form: the view is a URL anyone can open.
        await page.getByText('Filter and sort').click();
        await page.getByLabel('From').fill('50');
        await page.getByLabel('Sort by').selectOption('-price');
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.waitForURL((url) => url.searchParams.get('min') === '50' && url.searchParams.get('sort') === '-price');
        await page.getByRole('link', { name: product.name }).waitFor(); // the Sand variants cost 52.00
        // The browser itself goes to the results: the open panel does not fill the phone's screen.
        assert.equal(new URL(page.url()).hash, '#results');
        const resultsTop = await page
          .locator('#results')
          .evaluate((el) => el.getBoundingClientRect().top / el.ownerDocument.defaultView!.innerHeight);
        assert.ok(resultsTop >= 0 && resultsTop < 1 / 3, `the results start in the screen's top third (at ${resultsTop.toFixed(2)})`);
        await page.goto('/search?q=linen&max=40');
        await page.getByText('No products match.').waitFor();
        // A search that finds nothing offers what is popular instead of a dead end; a plural finds its singular.
        await page.goto('/search?q=qwertyuiop');
        await page.getByRole('heading', { name: 'Nothing here for “qwertyuiop”' }).waitFor();
        const offered = page.getByRole('region', { name: 'Popular right now' });
        assert.ok((await offered.getByRole('link').count()) > 0, 'products are offered');
        assert.equal(await sidewaysScroll(page), 0);
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'search-nothing-found-phone.png'));
        await page.goto('/search?q=LINENS');
        await page.getByRole('link', { name: product.name }).waitFor();

        await page.goto(`/p/${product.slug}`);
        await page.getByRole('link', { name: 'Sand', exact: true }).click();
        await page.waitForURL((url) => url.searchParams.get('colour') === 'Sand');
        // The page comes back at the choice, not its top: on a phone the button is in view without scrolling.
        const addToCart = page.getByRole('button', { name: 'Add to cart' });
        assert.equal(await inView(addToCart), true, 'Add to cart is in view after a choice');
        // A refused add (more than there is) comes back at the buy box too, its reason beside the field.
        await page.getByLabel('Quantity').fill('500');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.locator('#buy [role="alert"]').first().waitFor();
        assert.equal(new URL(page.url()).hash, '#buy');
        assert.equal(await inView(addToCart), true, 'Add to cart is in view after a refusal');
        await page.getByLabel('Quantity').fill('1');
        await page.getByText('$52.00', { exact: true }).waitFor();
        assert.equal(await page.locator('img.main').getAttribute('src'), sandPicture, "the chosen colour's own picture");
        await page.getByRole('link', { name: 'M', exact: true }).click();
        await page.waitForURL((url) => url.searchParams.get('size') === 'M' && url.searchParams.get('colour') === 'Sand');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByText('Added 1 × ').waitFor();
        assert.equal(await inView(addToCart), true, 'and after the add, with what was added said below it');
        // The page it comes back to keeps the choice: a second press adds the same variant.
        const sandM = product.variants.find((v) => v.options.size === 'M' && v.options.colour === 'Sand')!;
        await page.getByText(`SKU ${sandM.sku}`).waitFor();
        assert.equal(new URL(page.url()).searchParams.get('size'), 'M');
        // Answered with a redirect to the page (post, redirect, get): a reload adds nothing again, and the notice is said once.
        assert.equal(new URL(page.url()).searchParams.has('/add'), false, page.url());
        await page.reload();
        await page.getByText(`SKU ${sandM.sku}`).waitFor();
        await page.getByRole('link', { name: /^Cart, 1 item/ }).waitFor();
        assert.equal(await page.getByText('Added 1 × ').count(), 0);

        await page.getByRole('link', { name: /^Cart, 1 item/ }).click();
        const line = page.getByRole('listitem').filter({ hasText: 'M / Sand' });
        assert.equal(await line.locator('.thumb img').getAttribute('src'), sandPicture, "the line shows its colour's picture");
        await line.getByLabel(/Quantity of/).fill('3');
        await line.getByRole('button', { name: /^Update/ }).click();
        await page.getByRole('link', { name: /^Cart, 3 items/ }).waitFor();
        // Back to /cart by GET (a reload sends nothing again), where the change is said once.
        await page.getByRole('status').getByText('Your cart is updated.').waitFor();
        assert.equal(new URL(page.url()).search, '', page.url());
        // At the line that changed (a long cart on a phone would otherwise come back at its top).
        assert.match(new URL(page.url()).hash, /^#line-var_/, page.url());
        assert.equal(await inView(line.getByLabel(/Quantity of/)), true);
        assert.match(await page.locator('aside').innerText(), /\$156\.00/, '3 x 52.00');
        assert.equal(await sidewaysScroll(page), 0, 'the cart fits 360 px');

        await page.goto(`/p/${product.slug}?size=S&colour=Sky`);
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByText('Added 1 × ').waitFor();
        await page.goto('/cart');
        await page
          .getByRole('button', { name: /^Remove .*/ })
          .first()
          .click();
        await page.getByRole('link', { name: /^Cart, 1 item/ }).waitFor();
        await page.getByRole('status').getByText('Removed from your cart.').waitFor();
        assert.equal(new URL(page.url()).search, '', page.url());
        await page.reload();
        assert.equal(await page.getByText('Removed from your cart.').count(), 0, 'said once');
      },
      noJs,
    );
  });

  test('the whole purchase: sign in at checkout keeps the cart, the order is placed', async (t) => {
    const buyer = await customer(app);
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto(`/p/${product.slug}?size=M&colour=Sky`);
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByText('Added 1 × ').waitFor();
        await page.goto('/cart');
        await page.getByRole('link', { name: 'Check out' }).click();
        await page.getByText('Sign in or create an account to check out').waitFor();
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
        const orders = await ordersOf(app, buyer.email);
        assert.equal(orders.length, 1);
        assert.equal(orders[0]!.total, '59.00', '49.00 and flat shipping');

        // Cancelling asks first without JavaScript too: the first press changes nothing.
        await page.getByRole('button', { name: 'Cancel order' }).click();
        await page.getByRole('button', { name: 'Yes, cancel this order' }).waitFor();
        await page.getByRole('link', { name: 'Keep my order' }).waitFor();
        // The page comes back at the question (on a phone, far below the top), not at the top.
        assert.equal(new URL(page.url()).hash, '#cancel');
        assert.equal((await ordersOf(app, buyer.email))[0]!.status, 'PLACED');
        await page.getByRole('button', { name: 'Yes, cancel this order' }).click();
        await page.getByText('Your order is cancelled and your payment refunded.').waitFor();
        assert.equal((await ordersOf(app, buyer.email))[0]!.status, 'CANCELLED');
        assert.equal(new URL(page.url()).search, '', `no form action left in the address: ${page.url()}`);
        assert.equal(
          await page.getByRole('heading', { name: 'Thank you! We have your order.' }).count(),
          0,
          'no thanks for a cancelled order',
        );
      },
      noJs,
    );
  });
});
