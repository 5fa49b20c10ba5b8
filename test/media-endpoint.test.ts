import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.js';
import { postReview, moderate } from './helpers/reviews.js';
import { createTestDatabase, type TestDatabase } from './helpers/service.js';
import { makeShop } from './helpers/storefront.js';
import { signUp } from './helpers/factories.js';
import { uploadedReviewImage } from './helpers/media.js';
import { freePort } from '../src/lib/ports.js';

/**
 * The built-in image host names its files by whole URLs under PUBLIC_BASE_URL, and products, variants
 * and reviews store them. An instance started with another address (a new domain, another port, a
 * seed run with the default) moves every stored URL to its own before it serves, so no image points
 * where nothing serves it; a start at the same address changes nothing.
 */
// Made in before(), not at the top: a file that shares a process with others runs its body synchronously (scripts/test/bundle.ts).
let database: TestDatabase;
const apps: TestApp[] = [];
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  await database?.drop();
});

async function instance(): Promise<TestApp> {
  const port = await freePort();
  const app = await startTestApp({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, { database });
  apps.push(app);
  return app;
}

test('images uploaded under one address follow the service to another, and a restart at the same address changes nothing', async () => {
  const first = await instance();
  const { admin, product } = await makeShop(first);
  const buyer = await signUp(first);
  const photo = await uploadedReviewImage(first, buyer.client);
  const review = await postReview(buyer.client, product.id, { images: [{ image_url: photo, alt_text: 'On the beach' }] });
  await moderate(admin, review.public_id, 'APPROVED');
  const before = (await first.client().get(`/api/v1/products/${product.id}`)).body.data;
  assert.ok(before.images[0].url.startsWith(`${first.baseUrl}/media/`), before.images[0].url);
  await first.close();
  apps.length = 0;

  const second = await instance();
  const moved = (await second.client().get(`/api/v1/products/${product.id}`)).body.data;
  const urls = [
    ...moved.images.map((image: { url: string }) => image.url),
    ...moved.variants.flatMap((variant: { images: { url: string }[] }) => variant.images.map((image) => image.url)),
  ];
  assert.ok(urls.length > 0);
  for (const url of urls) {
    assert.ok(url.startsWith(`${second.baseUrl}/media/ecommerce/products/`), url);
    const image = await fetch(url);
    assert.equal(image.status, 200, url);
    assert.match(image.headers.get('content-type') ?? '', /^image\//);
    await image.arrayBuffer();
  }
  const reviews = (await second.client().get(`/api/v1/products/${product.id}/reviews`)).body.data;
  const shown = reviews[0].images[0].image_url as string;
  assert.equal(shown, `${second.baseUrl}${new URL(photo).pathname}`);
  assert.equal((await fetch(shown)).status, 200);
  const recorded = await second.db.selectFrom('media_endpoint').select('url').executeTakeFirstOrThrow();
  assert.equal(recorded.url, `${second.baseUrl}/media`);

  // The same address again: nothing to move, nothing touched.
  const stamps = async (app: TestApp) =>
    (await app.db.selectFrom('products').select(['public_id', 'updated_at']).orderBy('id').execute()).map((row) =>
      row.updated_at.getTime(),
    );
  const settled = await stamps(second);
  const port = new URL(second.baseUrl).port;
  await second.close();
  apps.length = 0;
  const third = await startTestApp({ PORT: port, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, { database });
  apps.push(third);
  assert.deepEqual(await stamps(third), settled);
});
