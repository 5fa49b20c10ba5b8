import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { pictureWebp } from '../../scripts/seed-pictures.js';
import { gainsFocus, signInThroughUi } from '../helpers/browser.js';
import { checkout, shopper } from '../helpers/commerce.js';
import { PASSWORD } from '../helpers/factories.js';
import { postReview } from '../helpers/reviews.js';
import { customer, DESKTOP, inShop, makeShop, PHONE, signInThroughShop, startShop } from '../helpers/storefront.js';

/**
 * A review with a photo: written in the shop (the photo uploaded with signed credentials to the
 * image host the service names), pending until staff approve it, then on the product page with
 * its photo. With JavaScript the browser uploads the photo itself; without it the form carries the
 * file and the storefront uploads it. Staff approve it in the console, or through the API.
 */
const { t: app, browser } = await startShop();
const { admin, adminEmail, product } = await makeShop(app);

/** Approves the review as staff do: in the console's review queue, in a browser of their own. */
async function approveInConsole(title: string) {
  const context = await browser.newContext({ baseURL: app.baseUrl, viewport: DESKTOP });
  try {
    const page = await context.newPage();
    await signInThroughUi(page, adminEmail, '/admin/reviews');
    const approve = page.getByRole('button', { name: `Approve "${title}"` });
    const decided = page.waitForResponse(
      (response) => /\/api\/v1\/admin\/reviews\//.test(response.url()) && response.request().method() === 'PATCH',
    );
    await approve.click();
    assert.equal((await decided).status(), 200, 'the console sent the approval');
    await approve.waitFor({ state: 'detached' }); // approved, it leaves the queue of pending reviews
  } finally {
    await context.close();
  }
}

async function writeReview(page: Page, title: string) {
  await page.goto(`/p/${product.slug}`);
  await page.getByRole('link', { name: 'Write a review' }).click();
  await page.getByRole('heading', { level: 1, name: `Review ${product.name}` }).waitFor();
  await page.getByText('5 stars').click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Your review').fill('Light, soft and it survived a week of travel.');
  await page
    .getByLabel('Photos (optional)')
    .setInputFiles({ name: 'me.webp', mimeType: 'image/webp', buffer: await pictureWebp('tee', '#7c3050') });
  await page.getByRole('button', { name: 'Send review' }).click();
  await page.getByText('Thank you! Your review is waiting for approval').waitFor();
}

async function approveAndSee(page: Page, title: string, email: string, by: 'console' | 'api') {
  const row = await app.db
    .selectFrom('reviews as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.public_id', 'r.status', 'r.images'])
    .where('u.email', '=', email)
    .executeTakeFirstOrThrow();
  assert.equal(row.status, 'PENDING');
  assert.equal(row.images.length, 1);
  await page.goto(`/p/${product.slug}`);
  assert.equal(await page.getByRole('heading', { name: title }).count(), 0, 'not shown before approval');

  if (by === 'console') await approveInConsole(title);
  else {
    const approved = await admin.patch(`/api/v1/admin/reviews/${row.public_id}`, { status: 'APPROVED' });
    assert.equal(approved.status, 200, approved.text);
  }
  assert.equal(
    (await app.db.selectFrom('reviews').select('status').where('public_id', '=', row.public_id).executeTakeFirstOrThrow()).status,
    'APPROVED',
  );
  await page.goto(`/p/${product.slug}`);
  const review = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await review.waitFor();
  assert.match(await review.innerText(), /Light, soft and it survived a week of travel\./);
  const photo = review.getByRole('img', { name: `Customer photo of ${product.name}` });
  await photo.scrollIntoViewIfNeeded();
  assert.equal(await photo.getAttribute('src'), row.images[0]!.image_url);
  // Its full size opens beside the shop, not in place of it.
  const full = review.getByRole('link', { name: /opens in a new tab/ });
  assert.equal(await full.getAttribute('target'), '_blank');
  assert.equal(await full.getAttribute('href'), row.images[0]!.image_url);
  await page.waitForFunction(
    (element) => (element as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0,
    await photo.elementHandle(),
  );
  await page
    .getByRole('img', { name: /^Rated 5\.0 out of 5/ })
    .first()
    .waitFor();
}

describe('storefront: reviews with photos', () => {
  test('with JavaScript: the browser uploads the photo to the image host; approved, the review shows with it', async (t) => {
    const writer = await customer(app, { address: false });
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, writer.email, writer.password);
        const direct = page.waitForResponse(
          (response) => response.url().endsWith('/media/api/v1/files/upload') && response.request().method() === 'POST',
        );
        await writeReview(page, 'Perfect summer shirt');
        // Accepted, not refused and then carried by the form instead (the fallback would hide a broken upload).
        assert.equal((await direct).ok(), true, "the browser's own upload is accepted");
        await page.goto('/account/reviews');
        await page.getByText('Waiting for approval').waitFor();
        await approveAndSee(page, 'Perfect summer shirt', writer.email, 'console');
      },
      { viewport: PHONE },
    );
  });

  test('without JavaScript: the form carries the photo and the storefront uploads it', async (t) => {
    const writer = await customer(app, { address: false });
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, writer.email, writer.password);
        await writeReview(page, 'Good for hot days');
        await approveAndSee(page, 'Good for hot days', writer.email, 'api');
      },
      { javaScript: false },
    );
  });

  for (const javaScript of [true, false]) {
    test(`a file that is no image is refused at the Photos field, with the rest as typed (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
      const writer = await customer(app, { address: false });
      await inShop(
        browser,
        t,
        app,
        async (page) => {
          await signInThroughShop(page, writer.email, writer.password);
          await page.goto(`/p/${product.slug}/review`);
          await page.getByText('4 stars').click();
          await page.getByLabel('Title').fill('Not a picture');
          await page.getByLabel('Your review').fill('Text pretending to be a photo.');
          const photos = page.getByLabel('Photos (optional)');
          await photos.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('just some words, no pixels') });
          await page.getByRole('button', { name: 'Send review' }).click();
          const said = page.locator('#photos-error');
          await said.waitFor();
          assert.equal(await said.innerText(), '“fake.png” could not be used: it is not a JPEG, PNG, GIF or WebP image.');
          assert.equal(await photos.getAttribute('aria-invalid'), 'true');
          if (javaScript) assert.ok(await gainsFocus(photos), 'the keyboard is at the photos');
          assert.equal(await page.getByLabel('Title').inputValue(), 'Not a picture');
          const reviews = await app.db
            .selectFrom('reviews as r')
            .innerJoin('users as u', 'u.id', 'r.user_id')
            .select('r.id')
            .where('u.email', '=', writer.email)
            .execute();
          assert.equal(reviews.length, 0, 'no review was made');
        },
        { javaScript, viewport: PHONE },
      );
    });
  }

  test('a delivered order offers a review of each product until the shopper has written one', async (t) => {
    const buyer = await shopper(app, [{ variantId: product.variants[0]!.id, quantity: 1 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);
    const order = placed.body.data.public_id as string;
    const shipped = await admin.patch(`/api/v1/admin/orders/${order}`, { status: 'CONFIRMED' });
    assert.equal(shipped.status, 200, shipped.text);
    assert.equal(
      (await admin.patch(`/api/v1/admin/orders/${order}`, { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'R1' })).status,
      200,
    );
    await inShop(browser, t, app, async (page) => {
      await signInThroughShop(page, buyer.email, PASSWORD);
      await page.goto(`/orders/${order}`);
      await page.getByRole('link', { name: 'Review this product' }).waitFor();
      await postReview(buyer.client, product.id, { title: 'Fits well' });
      await page.reload();
      await page.getByRole('link', { name: 'You reviewed this' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Review this product' }).count(), 0);
    });
  });
});
