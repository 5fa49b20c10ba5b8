import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, expectStatus, makeProduct } from './helpers/catalog.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { errorOf, signUp, type Client } from './helpers/factories.js';
import { uploadedReviewImage } from './helpers/media.js';
import { moderate, postReview, publicReviewIds, publicReviews, reviewBody, reviewableProduct } from './helpers/reviews.js';
import { useApp } from './helpers/use-app.js';

/** Reviews (contract section 10) from their authors' side: posting, editing, deleting, listing one's own, verified purchase. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['ADMIN'] });

describe('POST /reviews', () => {
  test('full flow: upload an image, then review with its url; 201 PENDING with the public shape', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t, { first_name: 'Grace', last_name: 'hopper' });
    const url = await uploadedReviewImage(t, client);
    const response = await client.post(
      `${API}/reviews`,
      reviewBody(productId, { rating: 5, images: [{ image_url: url, alt_text: 'On my desk' }] }),
    );
    const data = expectStatus(response, 201);
    assert.match(data.public_id, /^rev_[0-9A-Za-z]{16,}$/);
    assert.deepEqual(data, {
      public_id: data.public_id,
      product_public_id: productId,
      author: { first_name: 'Grace', last_initial: 'H' },
      rating: 5,
      title: 'Solid',
      comment: 'Does what it says.',
      images: [{ image_url: url, alt_text: 'On my desk' }],
      status: 'PENDING',
      verified_purchase: false,
      created_at: data.created_at,
      updated_at: data.updated_at,
    });
    assert.match(data.created_at, /Z$/);
  });

  test('an image_url outside the media endpoint or in the products folder is 400 INVALID_IMAGE_URL', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const base = `${t.config.publicBaseUrl}/media`;
    const ok = await uploadedReviewImage(t, client);
    const bad = [
      'https://evil.example/media/ecommerce/reviews/a.png',
      `${base}/ecommerce/products/a.png`,
      `${base}/ecommerce/reviews/../products/a.png`,
      `${base}/elsewhere/a.png`,
    ];
    for (const url of bad) {
      const response = await client.post(`${API}/reviews`, reviewBody(productId, { images: [{ image_url: ok }, { image_url: url }] }));
      assert.equal(response.status, 400, url);
      const error = errorOf(response);
      assert.equal(error.code, 'INVALID_IMAGE_URL');
      assert.equal(error.details?.[0]?.field, 'images.1.image_url');
    }
    assert.equal((await client.get(`${API}/users/me/reviews`)).body.meta.total, 0);
  });

  test('validation: rating 1-5 as a number, title and comment bounds, at most 5 images, no unknown fields', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const image = { image_url: await uploadedReviewImage(t, client) };
    const invalid: Record<string, unknown>[] = [
      { rating: 0 },
      { rating: 6 },
      { rating: '5' },
      { rating: 4.5 },
      { title: '' },
      { title: '   ' },
      { title: 'x'.repeat(201) },
      { comment: '' },
      { comment: 'x'.repeat(5001) },
      { images: Array.from({ length: 6 }, () => image) },
      { images: [{ ...image, alt_text: 'x'.repeat(201) }] },
      { images: [{ ...image, caption: 'x' }] },
      { verified_purchase: true },
    ];
    for (const extra of invalid) {
      const response = await client.post(`${API}/reviews`, reviewBody(productId, extra));
      assert.equal(response.status, 400, JSON.stringify(extra).slice(0, 80));
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
    const { product_public_id: _omit, ...noProduct } = reviewBody(productId);
    assert.equal((await client.post(`${API}/reviews`, noProduct)).status, 400);
    expectStatus(
      await client.post(
        `${API}/reviews`,
        reviewBody(productId, { title: 'x'.repeat(200), comment: 'y'.repeat(5000), images: Array.from({ length: 5 }, () => image) }),
      ),
      201,
    );
  });

  test('the product must be ACTIVE and live: unknown, malformed, DRAFT and deleted products are 404', async () => {
    const { client } = await signUp(t);
    const draft = (await makeProduct(t.admin, { status: 'DRAFT' })).id;
    const deleted = await reviewableProduct(t.admin);
    expectStatus(await t.admin.delete(`${API}/admin/products/${deleted}`), 204);
    for (const id of [draft, deleted, 'prd_00000000000000000000', 'var_00000000000000000000', 'nope']) {
      const response = await client.post(`${API}/reviews`, reviewBody(id));
      assert.equal(response.status, 404, id);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('one live review per account and product: 409 ALREADY_REVIEWED; after deleting, a new one is allowed', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const first = await postReview(client, productId);
    const again = await client.post(`${API}/reviews`, reviewBody(productId, { rating: 1 }));
    assert.equal(again.status, 409);
    assert.equal(errorOf(again).code, 'ALREADY_REVIEWED');
    // Another account may review the same product.
    await postReview((await signUp(t)).client, productId);

    assert.equal((await client.delete(`${API}/reviews/${first.public_id}`)).status, 204);
    const second = await postReview(client, productId, { rating: 2 });
    assert.notEqual(second.public_id, first.public_id);
    const mine = expectStatus(await client.get(`${API}/users/me/reviews`), 200);
    assert.deepEqual(
      mine.map((r: { public_id: string }) => r.public_id),
      [second.public_id],
    );
  });

  test('without a session 401; without the CSRF header 403', async () => {
    const productId = await reviewableProduct(t.admin);
    const anonymous = await t.client().post(`${API}/reviews`, reviewBody(productId));
    assert.equal(anonymous.status, 401);
    const { client } = await signUp(t);
    const noCsrf = await client.post(`${API}/reviews`, reviewBody(productId), { csrf: false });
    assert.equal(noCsrf.status, 403);
    assert.equal(errorOf(noCsrf).code, 'CSRF_TOKEN_INVALID');
  });
});

describe('PATCH and DELETE /reviews/{rev}', () => {
  test('the author edits; images replace the set; an edit that changes nothing keeps the status', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const [one, two] = [await uploadedReviewImage(t, client), await uploadedReviewImage(t, client)];
    const created = await postReview(client, productId, { images: [{ image_url: one, alt_text: 'first' }] });
    await moderate(t.admin, created.public_id, 'APPROVED');

    const same = expectStatus(
      await client.patch(`${API}/reviews/${created.public_id}`, { title: 'Solid', images: [{ image_url: one, alt_text: 'first' }] }),
      200,
    );
    assert.equal(same.status, 'APPROVED');

    const replaced = expectStatus(await client.patch(`${API}/reviews/${created.public_id}`, { images: [{ image_url: two }] }), 200);
    assert.deepEqual(replaced.images, [{ image_url: two, alt_text: null }]);
    assert.equal(replaced.status, 'PENDING');
    assert.equal(replaced.title, 'Solid');
    assert.ok(replaced.updated_at > created.updated_at);
  });

  test('an empty body, unknown fields, product changes and bad images are 400', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const created = await postReview(client, productId);
    for (const body of [{}, { stars: 3 }, { product_public_id: productId }, { status: 'APPROVED' }, { rating: 9 }]) {
      const response = await client.patch(`${API}/reviews/${created.public_id}`, body);
      assert.equal(response.status, 400, JSON.stringify(body));
    }
    const badImage = await client.patch(`${API}/reviews/${created.public_id}`, { images: [{ image_url: 'https://evil.example/x.png' }] });
    assert.equal(errorOf(badImage).code, 'INVALID_IMAGE_URL');
  });

  test("another author's review is 404 on PATCH and DELETE and stays untouched", async () => {
    const productId = await reviewableProduct(t.admin);
    const author = await signUp(t);
    const other = await signUp(t);
    const created = await postReview(author.client, productId);
    await moderate(t.admin, created.public_id, 'APPROVED');
    const patch = await other.client.patch(`${API}/reviews/${created.public_id}`, { rating: 1 });
    assert.equal(patch.status, 404);
    assert.equal(errorOf(patch).code, 'NOT_FOUND');
    assert.equal((await other.client.delete(`${API}/reviews/${created.public_id}`)).status, 404);
    // Even an admin is not the author.
    assert.equal((await t.admin.patch(`${API}/reviews/${created.public_id}`, { rating: 1 })).status, 404);
    assert.deepEqual(await publicReviewIds(t, productId), [created.public_id]);
    const mine = expectStatus(await author.client.get(`${API}/users/me/reviews`), 200);
    assert.equal(mine[0].rating, 4);
    assert.equal(mine[0].status, 'APPROVED');
  });

  test('malformed and unknown review IDs are 404', async () => {
    const { client } = await signUp(t);
    for (const id of ['rev_00000000000000000000', 'prd_00000000000000000000', 'x']) {
      assert.equal((await client.patch(`${API}/reviews/${id}`, { rating: 1 })).status, 404, id);
      assert.equal((await client.delete(`${API}/reviews/${id}`)).status, 404, id);
    }
  });
});

describe('GET /users/me/reviews', () => {
  test('all statuses, newest first, paginated; 401 without a session', async () => {
    const { client } = await signUp(t);
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await postReview(client, await reviewableProduct(t.admin)));
    await moderate(t.admin, created[0].public_id, 'APPROVED');
    await moderate(t.admin, created[1].public_id, 'REJECTED');
    const page1 = await client.get(`${API}/users/me/reviews?limit=2`);
    assert.deepEqual(page1.body.meta, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    const page2 = await client.get(`${API}/users/me/reviews?limit=2&page=2`);
    const all = [...page1.body.data, ...page2.body.data];
    assert.deepEqual(
      all.map((r: any) => r.public_id),
      created.map((r) => r.public_id).reverse(),
    );
    assert.deepEqual(
      all.map((r: any) => r.status),
      ['PENDING', 'REJECTED', 'APPROVED'],
    );
    assert.equal((await t.client().get(`${API}/users/me/reviews`)).status, 401);
  });
});

describe('verified_purchase', () => {
  test("false until the author's order of the product ships, then true; another buyer's order does not count", async () => {
    const { productId, variantId } = await sellableVariant(t.admin);
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = expectStatus(await checkout(buyer.client, buyer.addressId), 201);
    const created = await postReview(buyer.client, productId);
    assert.equal(created.verified_purchase, false);

    // A reviewer who never bought it, while someone else's order ships.
    const bystander = await signUp(t);
    const unverified = await postReview(bystander.client, productId);

    expectStatus(await t.admin.patch(`${API}/admin/orders/${order.public_id}`, { status: 'CONFIRMED' }), 200);
    const mine = async (client: Client) => expectStatus(await client.get(`${API}/users/me/reviews`), 200)[0].verified_purchase;
    assert.equal(await mine(buyer.client), false, 'a confirmed order is not yet a verified purchase');

    expectStatus(await t.admin.patch(`${API}/admin/orders/${order.public_id}`, { status: 'SHIPPED', carrier: 'UPS' }), 200);
    assert.equal(await mine(buyer.client), true);
    assert.equal(await mine(bystander.client), false);

    await moderate(t.admin, created.public_id, 'APPROVED');
    await moderate(t.admin, unverified.public_id, 'APPROVED');
    const listed = expectStatus(await publicReviews(t, productId), 200);
    const flags = Object.fromEntries(listed.map((r: any) => [r.public_id, r.verified_purchase]));
    assert.deepEqual(flags, { [created.public_id]: true, [unverified.public_id]: false });
  });
});
