import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { keepScreenshot } from '../helpers/browser.js';
import { makeProduct } from '../helpers/catalog.js';
import { moderate, postReview } from '../helpers/reviews.js';
import { customer, inShop, makeShop, PHONE, productPicture, SHOP_RESULTS, startShop } from '../helpers/storefront.js';

/**
 * The product page as a shopper uses it with JavaScript: the choice made survives adding to the cart,
 * a variant's picture chooses that variant, and "only N left" is held to when adding. And a listing
 * page past the end says so.
 */
const { t: app, browser } = await startShop();
const shop = await makeShop(app, { stock: 50 });
const { product, admin } = shop;
const sandPicture = await productPicture(app, admin, '#c8b27e');
for (const variant of product.variants.filter((v) => v.options.colour === 'Sand')) {
  const patched = await admin.patch(`/api/v1/admin/variants/${variant.id}`, {
    images: [{ url: sandPicture, alt_text: `${product.name} in sand` }],
  });
  assert.equal(patched.status, 200, patched.text);
}
// As the demo store has it: the product's pictures include each colour's, and each variant has its colour's.
const images = (await admin.get(`/api/v1/admin/products/${product.id}`)).body.data.images as { url: string; alt_text: string | null }[];
const withSand = await admin.patch(`/api/v1/admin/products/${product.id}`, {
  images: [...images.map(({ url, alt_text }) => ({ url, alt_text })), { url: sandPicture, alt_text: `${product.name} in sand` }],
});
assert.equal(withSand.status, 200, withSand.text);
const variantOf = (size: string, colour: string) => product.variants.find((v) => v.options.size === size && v.options.colour === colour)!;

/** The cart's lines as the cart page lists them: variant name and quantity. */
async function cartLines(page: Page): Promise<string[]> {
  await page.goto('/cart');
  const lines = page.getByRole('listitem').filter({ has: page.getByLabel(/Quantity of/) });
  const names: string[] = [];
  for (const line of await lines.all()) {
    const variant = (await line.innerText()).match(/\b[SM] \/ (Sky|Sand)\b/)?.[0];
    names.push(`${variant} x${await line.getByLabel(/Quantity of/).inputValue()}`);
  }
  return names.sort();
}

describe('storefront: the product page', () => {
  test('the variant chosen stays chosen after adding to the cart, so a second press adds the same one', async (t) => {
    await inShop(browser, t, app, async (page) => {
      await page.goto(`/p/${product.slug}`);
      await page.getByRole('link', { name: 'M', exact: true }).click();
      await page.getByRole('link', { name: 'Sand', exact: true }).click();
      const chosen = variantOf('M', 'Sand');
      await page.getByText(`SKU ${chosen.sku}`).waitFor();
      const button = page.getByRole('button', { name: 'Add to cart' });
      const before = (await button.boundingBox())!.y;
      await button.click();
      await page.getByText('Added 1 × ').waitFor();
      // What the add says appears below the button: a second tap still lands on it.
      assert.equal((await button.boundingBox())!.y, before, 'the button did not move');
      await page.getByText(`SKU ${chosen.sku}`).waitFor();
      assert.equal(new URL(page.url()).searchParams.get('colour'), 'Sand');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('link', { name: /^Cart, 2 items/ }).waitFor();
      assert.deepEqual(await cartLines(page), ['M / Sand x2']);
      // From the cart, the line's name leads back to that variant, not to the product's first.
      await page.getByRole('listitem').filter({ hasText: 'M / Sand' }).getByRole('link', { name: product.name }).click();
      await page.getByText(`SKU ${chosen.sku}`).waitFor();
    });
  });

  test('the variant chosen in place stays chosen through the pages of reviews', async (t) => {
    for (let i = 0; i < 6; i++) {
      const reviewer = await customer(app);
      await moderate(admin, (await postReview(reviewer.client, product.id, { title: `Paged ${i}` })).public_id, 'APPROVED');
    }
    await inShop(browser, t, app, async (page) => {
      // (An address of its own: the plain one may be kept from before the reviews, page-cache.ts.)
      await page.goto(`/p/${product.slug}?reviews=1`);
      await page.getByRole('link', { name: 'M', exact: true }).click();
      await page.getByRole('link', { name: 'Sand', exact: true }).click();
      const chosen = variantOf('M', 'Sand');
      await page.getByText(`SKU ${chosen.sku}`).waitFor();
      await page.getByRole('navigation', { name: 'Review pages' }).getByRole('link', { name: 'Next' }).click();
      await page.waitForURL((url) => url.searchParams.get('reviews') === '2');
      await page.getByText(`SKU ${chosen.sku}`).waitFor();
      const url = new URL(page.url());
      assert.deepEqual([url.searchParams.get('size'), url.searchParams.get('colour')], ['M', 'Sand']);
      // And back to the first page of reviews, the choice still made.
      await page.getByRole('navigation', { name: 'Review pages' }).getByRole('link', { name: 'Previous' }).click();
      await page.waitForURL((url) => !url.searchParams.has('reviews'));
      await page.getByText(`SKU ${chosen.sku}`).waitFor();
    });
  });

  test("a variant's picture in the thumbnails chooses that variant; the page never leaves for the bare image", async (t) => {
    await inShop(browser, t, app, async (page) => {
      await page.goto(`/p/${product.slug}?size=M&colour=Sky`);
      await page.getByText(`SKU ${variantOf('M', 'Sky').sku}`).waitFor();
      const thumbnail = page.locator('.thumbs').getByRole('link', { name: `${product.name} in sand` });
      await thumbnail.click();
      await page.getByText(`SKU ${variantOf('M', 'Sand').sku}`).waitFor();
      assert.equal(await page.locator('img.main').getAttribute('src'), sandPicture);
      assert.equal(new URL(page.url()).pathname, `/p/${product.slug}`, 'still the product page');
      assert.equal(new URL(page.url()).searchParams.get('colour'), 'Sand');
      assert.equal(new URL(page.url()).searchParams.get('size'), 'M', 'the size chosen stays');
    });
  });

  test('"only 2 left" is held to when adding, counting what the cart has already', async (t) => {
    const few = variantOf('S', 'Sky');
    const patched = await admin.patch(`/api/v1/admin/inventory/${few.id}`, { quantity_on_hand: 2, reorder_level: 5 });
    assert.equal(patched.status, 200, patched.text);
    await inShop(browser, t, app, async (page) => {
      await page.goto(`/p/${product.slug}?size=S&colour=Sky`);
      await page.getByText('Only 2 left').waitFor();
      await page.getByLabel('Quantity').fill('3');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('alert').getByText('Only 2 left: choose 2 or fewer.').waitFor();
      assert.equal(await page.getByLabel('Quantity').getAttribute('aria-invalid'), 'true');
      await page.getByLabel('Quantity').fill('2');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByText('Added 2 × ').waitFor();
      await page.getByLabel('Quantity').fill('1');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('alert').getByText('Only 2 left, and your cart already has 2.').waitFor();
      assert.deepEqual(await cartLines(page), ['S / Sky x2']);
    });
  });

  test('a quantity is digits from 1 to 999, and a line holds at most 999 with what the cart has', async () => {
    // Posted as a form is (a browser's own checks on the number field would stop most of these first).
    const chosen = variantOf('M', 'Sand');
    const add = (quantity: string, cookie = '') =>
      fetch(`${app.baseUrl}/p/${product.slug}?size=M&colour=Sand&/add`, {
        method: 'POST',
        headers: {
          origin: app.baseUrl,
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          ...(cookie ? { cookie } : {}),
        },
        body: new URLSearchParams({ variant: chosen.id, quantity }),
        redirect: 'manual',
      });
    for (const typed of ['0x10', '2e0', '1.0', '0', '-1', '1000', '']) {
      const refused = await add(typed);
      const text = await refused.text();
      assert.equal(refused.status, 400, typed);
      assert.match(text, /Enter a whole number from 1 to 999\./, typed);
      assert.deepEqual(refused.headers.getSetCookie(), [], `${typed}: nothing added`);
    }
    // Enough stock for a whole line (what there is is checked too: a test of its own).
    const stocked = await admin.patch(`/api/v1/admin/inventory/${chosen.id}`, { quantity_change: 1000, reason: 'a full line' });
    assert.equal(stocked.status, 200, stocked.text);
    // Added: sent back to the page by GET (a reload there adds nothing again), at its buy box.
    const full = await add('999');
    assert.equal(full.status, 303);
    assert.equal(full.headers.get('location'), `/p/${product.slug}?size=M&colour=Sand#buy`);
    const cart = full.headers
      .getSetCookie()
      .find((line) => line.startsWith('cart='))!
      .split(';')[0]!;
    const more = await add('1', cart);
    assert.equal(more.status, 409);
    assert.match(await more.text(), /Your cart already has 999: a line holds at most 999\./);
    assert.deepEqual(more.headers.getSetCookie(), [], 'the cart unchanged');
  });

  test('a card on sale shows the price it was beside its price', async () => {
    const cheapest = variantOf('M', 'Sky');
    const reduced = await admin.patch(`/api/v1/admin/variants/${cheapest.id}`, { compare_at_price: '65.00' });
    assert.equal(reduced.status, 200, reduced.text);
    // With a cookie: rendered now, not a page kept from before the change.
    const response = await fetch(`${app.baseUrl}/c/${shop.shirts.slug}`, { headers: { cookie: 'presession=fresh' } });
    const html = (await response.text()).replace(/\s+/g, ' ');
    assert.match(html, />Sale</);
    const price = /<p class="price[^"]*">(.*?)<\/p>/.exec(html)?.[1]?.replace(/<!--.*?-->|<[^>]+>/g, '') ?? '';
    assert.match(price, /\$49\.00\s*was\s*\$65\.00/, price);
  });

  test('a listing page past the end says so and leads to the last page', async () => {
    const response = await fetch(`${app.baseUrl}/c/${shop.shirts.slug}?page=99`);
    const html = (await response.text()).replace(/\s+/g, ' ');
    assert.match(html, /No products on page 99: there is 1 product on 1 page\./);
    assert.match(html, /<a class="button secondary" href="\/c\/[^"?]+">Go to the last page<\/a>/);
    assert.doesNotMatch(html, /Showing \d+–/);
  });
  test('a page past the last review or order says so and leads back; a search that finds nothing offers no filters it does not have', async () => {
    const buyer = await customer(app);
    await moderate(admin, (await postReview(buyer.client, product.id, { title: 'Fits well' })).public_id, 'APPROVED');
    const page = async (path: string, cookie?: string) =>
      (await (await fetch(app.baseUrl + path, { headers: cookie ? { cookie } : {} })).text()).replace(/\s+/g, ' ');

    const reviews = await page(`/p/${product.slug}?reviews=99`);
    assert.match(reviews, /This page is past the last review\. <a href="\/p\/[^"?]+#reviews">See the newest reviews<\/a>/);
    assert.doesNotMatch(reviews, /Be the first/);

    assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 1 })).status, 200);
    const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0].public_id;
    assert.equal((await buyer.client.post('/api/v1/orders', { address_public_id: address, payment_method: 'mock' })).status, 201);
    const session = [...buyer.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const orders = await page('/orders?page=7', session);
    assert.match(orders, /This page is past the end/);
    assert.match(orders, /<a class="button secondary" href="\/orders">Go to the last page<\/a>/);
    assert.doesNotMatch(orders, /No orders yet/);

    // Twenty reviews a page on the account's reviews: 21 written make two pages, and a third is past the end.
    for (let i = 0; i < 20; i++) await postReview(buyer.client, (await makeProduct(admin)).id, { title: `Review ${i}` });
    const first = await page('/account/reviews', session);
    assert.equal(first.match(/<li class="panel/g)?.length, 20);
    assert.match(first, /<nav class="pages[^"]*" aria-label="Review pages">/);
    assert.match(first, /href="\/account\/reviews\?page=2"/);
    // A hand-edited page number shows the first page, not an error.
    for (const odd of ['2.5', '-1', 'x'])
      assert.equal((await page(`/account/reviews?page=${odd}`, session)).match(/<li class="panel/g)?.length, 20, odd);
    const second = await page('/account/reviews?page=2', session);
    assert.equal(second.match(/<li class="panel/g)?.length, 1);
    const past = await page('/account/reviews?page=3', session);
    assert.match(past, /This page is past the end/);
    assert.match(past, /You have written 21 reviews\./);
    assert.match(past, /href="\/account\/reviews\?page=2">Go to the last page/);
    // A list of two pages and more, asked far past its end: the way back to the last page, and no Previous to another empty page.
    for (let i = 0; i < 5; i++) await makeProduct(admin);
    const beyond = await page('/search?page=99');
    assert.match(beyond, /Go to the last page/);
    assert.doesNotMatch(beyond, /rel="prev"/);

    const nothing = await page('/search?q=qqqzzzxxx');
    assert.match(nothing, /Try another word or spelling/);
    assert.doesNotMatch(nothing, /Clear filters|fewer filters/);
    assert.match(await page('/search?q=qqqzzzxxx&in_stock=1'), /Clear filters/);
  });
  test('a mistyped search is offered as the catalog spells it, with the filters it was made with, and that leads to the products', async (t) => {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto('/search?q=lnen+SHRIT&in_stock=1&utm_source=news');
        const offer = page.getByText('Did you mean');
        await offer.waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, 'search-did-you-mean-phone.png'));
        const link = offer.getByRole('link', { name: 'linen shirt' });
        assert.equal(await link.getAttribute('href'), '/search?q=linen+shirt&in_stock=1');
        await link.click();
        await page.getByRole('heading', { level: 1, name: 'Results for “linen shirt”' }).waitFor();
        await page
          .getByRole('link', { name: new RegExp(product.name) })
          .first()
          .waitFor();
        // Nothing to offer for a word the catalog has nothing near.
        await page.goto('/search?q=qqqzzzxxx');
        await page.getByText('Try another word or spelling').waitFor();
        assert.equal(await page.getByText('Did you mean').count(), 0);
      },
      { viewport: PHONE },
    );
  });

  test('a search shows its best matches first: a product named so before a newer one that only says it; Newest is a choice', async (t) => {
    const fresh = await makeShop(app, { stock: 5 });
    const words = fresh.product.name.toLowerCase(); // "linen shirt <suffix>"
    const newer = await fresh.admin.post('/api/v1/admin/products', {
      name: `Summer Top ${Date.now().toString(36)}`,
      description: `Cut with the look of a ${words}.`,
      status: 'ACTIVE',
      category_public_ids: [fresh.shirts.public_id],
    });
    assert.equal(newer.status, 201, newer.text);
    const variant = await fresh.admin.post(`/api/v1/admin/products/${newer.body.data.public_id}/variants`, {
      sku: `TOP-${Date.now().toString(36)}`.toUpperCase(),
      name: 'One size',
      price: '30.00',
    });
    assert.equal(variant.status, 201, variant.text);
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        const names = () => page.locator('.results article h3').allInnerTexts();
        await page.goto(`/search?q=${encodeURIComponent(words)}&t=best`);
        assert.deepEqual(await names(), [fresh.product.name, newer.body.data.name]);
        assert.equal(await page.getByLabel('Sort by').inputValue(), 'relevance');
        assert.equal(await page.locator('.filters .applied').count(), 0, 'the default order is no filter');
        await page.goto(`/search?q=${encodeURIComponent(words)}&sort=-created_at&t=best`);
        assert.deepEqual(await names(), [newer.body.data.name, fresh.product.name]);
      },
      { viewport: PHONE },
    );
  });

  test('a price filter the shop could not use is said beside the results, not dropped unsaid', async (t) => {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto('/search?min=abc&max=60&t=notes');
        await page.getByText('“abc” is not a price, so the From price is left out.').waitFor();
        // The form shows what the list is filtered by: no From, the To as typed.
        assert.equal(await page.getByRole('textbox', { name: 'From', exact: true }).inputValue(), '');
        assert.equal(await page.getByRole('textbox', { name: 'To', exact: true }).inputValue(), '60');
        await page.goto('/search?min=60&max=20&t=notes');
        await page.getByText('The From price was above the To price, so the two are swapped.').waitFor();
      },
      { viewport: PHONE, javaScript: false },
    );
  });

  test("the header's Sign in comes back to the page it was pressed on, without the ad's tags the page was opened with", async (t) => {
    const buyer = await customer(app);
    await inShop(browser, t, app, async (page) => {
      await page.goto(`/p/${product.slug}?size=M&utm_source=news&gclid=1`);
      // Once the page's script has taken over too (it builds the link from the address bar, which keeps them).
      await page.waitForLoadState('networkidle');
      const signIn = page.getByRole('banner').getByRole('link', { name: 'Sign in' });
      assert.equal(await signIn.getAttribute('href'), `/login?next=${encodeURIComponent(`/p/${product.slug}?size=M`)}`);
      await signIn.click();
      await page.getByLabel('Email').fill(buyer.email);
      await page.getByLabel('Password', { exact: true }).fill(buyer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === `/p/${product.slug}` && url.searchParams.get('size') === 'M');
      await page.getByRole('banner').getByRole('link', { name: 'Account' }).waitFor();
    });
  });
});
