import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { sellableVariant } from '../helpers/commerce.js';
import { signInAs, signUp } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: reviews', () => {
  test('from the dashboard to the queue: approving makes a review public, rejecting keeps it out', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { productId } = await sellableVariant(admin.client, { name: 'Stoneware teapot' });
    const write = async (title: string, rating: number) => {
      const { client } = await signUp(t);
      const review = await client.post('/api/v1/reviews', {
        product_public_id: productId,
        rating,
        title,
        comment: `${title}, in a few words.`,
      });
      assert.equal(review.status, 201, review.text);
      return review.body.data.public_id as string;
    };
    const good = await write('Pours beautifully', 5);
    const spam = await write('Buy followers here', 1);
    const meh = await write('Lid rattles', 3);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('link', { name: 'Moderation queue' }).click();
      await page.getByRole('heading', { level: 1, name: 'Reviews' }).waitFor();
      await page.getByRole('article', { name: 'Pours beautifully' }).waitFor();
      // The product by name, linked, not its ID.
      await page.getByRole('article', { name: 'Pours beautifully' }).getByRole('link', { name: 'Stoneware teapot' }).waitFor();
      // The queue is oldest first; sorted by rating (in the URL) the lowest comes first.
      const titles = () => page.getByRole('article').evaluateAll((items) => items.map((i) => i.querySelector('h2')?.textContent));
      assert.deepEqual(await titles(), ['Pours beautifully', 'Buy followers here', 'Lid rattles']);
      await page.getByRole('combobox', { name: 'Sort' }).click();
      await page.getByRole('option', { name: 'Lowest rating first' }).click();
      await page.waitForURL(/sort=rating/);
      await page
        .locator('article h2')
        .first()
        .filter({ hasText: /^Buy followers here$/ })
        .waitFor();
      assert.deepEqual(await titles(), ['Buy followers here', 'Lid rattles', 'Pours beautifully']);

      await page.getByRole('button', { name: 'Approve "Pours beautifully"' }).click();
      await page.getByRole('article', { name: 'Pours beautifully' }).waitFor({ state: 'detached' });
      await page.getByText('Review approved').waitFor();
      const spamCard = page.getByRole('article', { name: 'Buy followers here' });
      await spamCard.getByRole('textbox', { name: 'Moderation note (internal)' }).fill('Link farm');
      await page.getByRole('button', { name: 'Reject "Buy followers here"' }).click();
      await spamCard.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Reject "Lid rattles"' }).click();
      await page.getByText('Nothing waiting').waitFor();

      // A decision can be changed later from its view; the note stays with the review.
      await page.getByRole('search').getByText('Rejected', { exact: true }).click();
      await page.getByRole('article', { name: 'Buy followers here' }).getByText('Note: Link farm').waitFor();
      // The card leaves the view at once (optimistically); the decision is saved when the API answers.
      const saved = page.waitForResponse((r) => r.url().endsWith(`/api/v1/admin/reviews/${meh}`) && r.request().method() === 'PATCH');
      await page.getByRole('button', { name: 'Approve "Lid rattles"' }).click();
      await page.getByRole('article', { name: 'Lid rattles' }).waitFor({ state: 'detached' });
      assert.equal((await saved).status(), 200);
    });

    const publicList = await t.client().get(`/api/v1/products/${productId}/reviews?sort=created_at`);
    assert.deepEqual(
      publicList.body.data.map((r: any) => r.public_id),
      [good, meh],
      'only the approved reviews are public',
    );
    const rejected = await admin.client.get('/api/v1/admin/reviews?status=REJECTED');
    assert.deepEqual(
      rejected.body.data.map((r: any) => [r.public_id, r.moderation_note]),
      [[spam, 'Link farm']],
    );
  });

  test('a rating is one image with one name for a screen reader, "4 of 5 stars", not five unnamed pictures', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { productId } = await sellableVariant(admin.client, { name: 'Linen napkin' });
    const { client } = await signUp(t);
    const review = await client.post('/api/v1/reviews', {
      product_public_id: productId,
      rating: 4,
      title: 'Soft',
      comment: 'Washes well.',
    });
    assert.equal(review.status, 201, review.text);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/reviews');
      const card = page.getByRole('article', { name: 'Soft' });
      await card.waitFor();
      const tree = await card.ariaSnapshot();
      const images = tree.split('\n').filter((line) => /^\s*- img\b/.test(line));
      assert.deepEqual(
        images.map((line) => line.trim()),
        ['- img "4 of 5 stars"'],
        `the card's images as a screen reader meets them:\n${tree}`,
      );
    });
  });
});
