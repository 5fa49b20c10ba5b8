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
      const review = await client.post('/api/v1/reviews', { product_public_id: productId, rating, title, comment: `${title}, in a few words.` });
      assert.equal(review.status, 201, review.text);
      return review.body.data.public_id as string;
    };
    const good = await write('Pours beautifully', 5);
    const spam = await write('Buy followers here', 1);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('link', { name: 'Moderation queue' }).click();
      await page.getByRole('heading', { level: 1, name: 'Reviews' }).waitFor();
      await page.getByRole('article', { name: 'Pours beautifully' }).waitFor();

      await page.getByRole('button', { name: 'Approve "Pours beautifully"' }).click();
      await page.getByRole('article', { name: 'Pours beautifully' }).waitFor({ state: 'detached' });
      await page.getByText('Review approved').waitFor();
      await page.getByRole('button', { name: 'Reject "Buy followers here"' }).click();
      await page.getByText('Nothing waiting').waitFor();
    });

    const publicList = await t.client().get(`/api/v1/products/${productId}/reviews`);
    assert.deepEqual(publicList.body.data.map((r: any) => r.public_id), [good], 'only the approved review is public');
    const rejected = await admin.client.get('/api/v1/admin/reviews?status=REJECTED');
    assert.deepEqual(rejected.body.data.map((r: any) => r.public_id), [spam]);
  });
});
