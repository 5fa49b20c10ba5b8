import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { checkout, shopper } from '../helpers/commerce.js';
import { keepScreenshot } from '../helpers/browser.js';
import { PASSWORD } from '../helpers/factories.js';
import { unisolatedControls } from '../helpers/layout.js';
import { moderate, postReview } from '../helpers/reviews.js';
import {
  brokenAmounts,
  DESKTOP,
  SHOP_RESULTS,
  inShop,
  makeShop,
  PHONE,
  sidewaysScroll,
  signInThroughShop,
  startShop,
} from '../helpers/storefront.js';

/**
 * Issue 24, item 2, in the shop: a bidirectional override stored before the
 * API refused them (an old row) cannot reorder the text shown after it. Every
 * piece of text a shopper typed (names, address fields, review titles and
 * authors) is isolated on its own wherever the shop shows it.
 */
const { t: app, browser } = await startShop();
const { admin, product } = await makeShop(app);

test("a stored override stays inside its own field on every page that shows the shopper's text", async (t) => {
  const RLO = '\u202E';
  const buyer = await shopper(app, [{ variantId: product.variants[0]!.id, quantity: 1 }]);
  const placed = await checkout(buyer.client, buyer.addressId);
  assert.equal(placed.status, 201, placed.text);
  const order = placed.body.data.public_id as string;
  const review = await postReview(buyer.client, product.id, { title: 'Great shirt' });
  await moderate(admin, review.public_id, 'APPROVED');
  // Another line in the cart, so checkout lists the address book.
  assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[1]!.id, quantity: 1 })).status, 200);

  // Written straight to the tables, as rows stored before the refusal would be.
  const city = `abc${RLO}txt.exe`;
  await app.db
    .updateTable('users')
    .set({ first_name: `Ada${RLO}` })
    .where('email', '=', buyer.email)
    .execute();
  await app.db
    .updateTable('addresses')
    .set({ city, label: `Home${RLO}` })
    .where('public_id', '=', buyer.addressId)
    .execute();
  await sql`UPDATE orders SET shipping_address = jsonb_set(shipping_address, '{city}', to_jsonb(${city}::text))
            WHERE public_id = ${order}`.execute(app.db);
  await app.db
    .updateTable('reviews')
    .set({ title: `Great${RLO} shirt` })
    .where('public_id', '=', review.public_id)
    .execute();

  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await signInThroughShop(page, buyer.email, PASSWORD);
      for (const [path, shows] of [
        ['/account', `Ada${RLO}`],
        ['/account/addresses', city],
        [`/orders/${order}`, city],
        ['/checkout', city],
        [`/p/${product.slug}`, `Great${RLO} shirt`],
      ] as const) {
        await page.goto(path);
        await page.getByText(shows).first().waitFor();
        assert.deepEqual(await unisolatedControls(page), [], path);
      }
    },
    { viewport: PHONE },
  );
});

test('the longest unbroken text a shopper or the shop may write wraps inside its page, on a phone and a desktop', async (t) => {
  // One word each, as long as the API takes (a name, a brand, a pasted link in a description or a review).
  const word = (n: number, letter = 'W') => letter.repeat(n);
  const long = await makeShop(app);
  const patched = await long.admin.patch(`/api/v1/admin/products/${long.product.id}`, {
    name: word(200),
    brand: word(100, 'B'),
    description: `See https://example.com/${word(300, 'x')} for the care guide.`,
  });
  assert.equal(patched.status, 200, patched.text);
  const buyer = await shopper(app, [{ variantId: long.product.variants[0]!.id, quantity: 1 }]);
  const address = await buyer.client.patch(`/api/v1/users/me/addresses/${buyer.addressId}`, {
    recipient_name: word(100, 'R'),
    address_1: word(255, 'A'),
    city: word(100, 'C'),
  });
  assert.equal(address.status, 200, address.text);
  const placed = await checkout(buyer.client, buyer.addressId);
  assert.equal(placed.status, 201, placed.text);
  const review = await postReview(buyer.client, long.product.id, {
    title: word(200, 'T'),
    comment: `${word(1000, 'y')} ${word(900, 'z')}`,
  });
  await moderate(long.admin, review.public_id, 'APPROVED');
  assert.equal(
    (await buyer.client.post('/api/v1/cart/items', { variant_public_id: long.product.variants[1]!.id, quantity: 1 })).status,
    200,
  );

  for (const viewport of [PHONE, DESKTOP]) {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, PASSWORD);
        for (const path of [
          `/p/${long.product.slug}`,
          `/c/${long.shirts.slug}`,
          `/search?q=${word(200)}`,
          '/cart',
          '/checkout',
          '/account/addresses',
          `/orders/${placed.body.data.public_id as string}`,
          '/orders',
        ]) {
          await page.goto(path);
          assert.equal(await sidewaysScroll(page), 0, `${path} at ${viewport.width} px`);
          // Breaking long words must not squeeze the shop's own short words: no button or badge goes a letter a line.
          const squeezed = await page
            .locator('button:visible, .button:visible, .badge:visible')
            .evaluateAll((elements) =>
              elements.filter((el) => el.getBoundingClientRect().height > 90).map((el) => (el.textContent ?? '').trim().slice(0, 30)),
            );
          assert.deepEqual(squeezed, [], `${path} at ${viewport.width} px`);
          // Nor any amount beside a long name: "$96.99" stays one word.
          assert.deepEqual(await brokenAmounts(page), [], `amounts at ${path}, ${viewport.width} px`);
          if (path === '/checkout') await keepScreenshot(page, join(SHOP_RESULTS, `checkout-long-name-${viewport.width}.png`));
        }
      },
      { viewport, label: `long-text-${viewport.width}` },
    );
  }
});
