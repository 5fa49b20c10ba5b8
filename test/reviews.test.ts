import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { API, auditEntries, expectStatus, makeProduct } from './helpers/catalog.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { errorOf, signUp, type Client } from './helpers/factories.js';
import { uploadedReviewImage } from './helpers/media.js';
import { useApp } from './helpers/use-app.js';

/** Reviews (contract section 10): authors, moderation, public lists and product ratings. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['ADMIN'] });

const product = async () => (await sellableVariant(t.admin)).productId;
const review = (productId: string, extra: Record<string, unknown> = {}) => ({
  product_public_id: productId,
  rating: 4,
  title: 'Solid',
  comment: 'Does what it says.',
  ...extra,
});

async function postReview(client: Client, productId: string, extra: Record<string, unknown> = {}) {
  return expectStatus(await client.post(`${API}/reviews`, review(productId, extra)), 201);
}

const moderate = async (id: string, status: 'APPROVED' | 'REJECTED', note?: string) =>
  expectStatus(await t.admin.patch(`${API}/admin/reviews/${id}`, { status, ...(note !== undefined ? { moderation_note: note } : {}) }), 200);

const publicList = (productId: string, query = '') => t.client().get(`${API}/products/${productId}/reviews${query}`);
const publicIds = async (productId: string) => expectStatus(await publicList(productId), 200).map((r: { public_id: string }) => r.public_id);
const ratingOf = async (productId: string) => expectStatus(await t.client().get(`${API}/products/${productId}`), 200).rating;

describe('POST /reviews', () => {
  test('full flow: upload an image, then review with its url; 201 PENDING with the public shape', async () => {
    const productId = await product();
    const { client } = await signUp(t, { first_name: 'Grace', last_name: 'hopper' });
    const url = await uploadedReviewImage(t, client);
    const response = await client.post(`${API}/reviews`, review(productId, { rating: 5, images: [{ image_url: url, alt_text: 'On my desk' }] }));
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
    const productId = await product();
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
      const response = await client.post(`${API}/reviews`, review(productId, { images: [{ image_url: ok }, { image_url: url }] }));
      assert.equal(response.status, 400, url);
      const error = errorOf(response);
      assert.equal(error.code, 'INVALID_IMAGE_URL');
      assert.equal(error.details?.[0]?.field, 'images.1.image_url');
    }
    assert.equal((await client.get(`${API}/users/me/reviews`)).body.meta.total, 0);
  });

  test('validation: rating 1-5 as a number, title and comment bounds, at most 5 images, no unknown fields', async () => {
    const productId = await product();
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
      const response = await client.post(`${API}/reviews`, review(productId, extra));
      assert.equal(response.status, 400, JSON.stringify(extra).slice(0, 80));
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
    const { product_public_id: _omit, ...noProduct } = review(productId);
    assert.equal((await client.post(`${API}/reviews`, noProduct)).status, 400);
    expectStatus(await client.post(`${API}/reviews`, review(productId, { title: 'x'.repeat(200), comment: 'y'.repeat(5000), images: Array.from({ length: 5 }, () => image) })), 201);
  });

  test('the product must be ACTIVE and live: unknown, malformed, DRAFT and deleted products are 404', async () => {
    const { client } = await signUp(t);
    const draft = (await makeProduct(t.admin, { status: 'DRAFT' })).id;
    const deleted = await product();
    expectStatus(await t.admin.delete(`${API}/admin/products/${deleted}`), 204);
    for (const id of [draft, deleted, 'prd_00000000000000000000', 'var_00000000000000000000', 'nope']) {
      const response = await client.post(`${API}/reviews`, review(id));
      assert.equal(response.status, 404, id);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('one live review per account and product: 409 ALREADY_REVIEWED; after deleting, a new one is allowed', async () => {
    const productId = await product();
    const { client } = await signUp(t);
    const first = await postReview(client, productId);
    const again = await client.post(`${API}/reviews`, review(productId, { rating: 1 }));
    assert.equal(again.status, 409);
    assert.equal(errorOf(again).code, 'ALREADY_REVIEWED');
    // Another account may review the same product.
    await postReview((await signUp(t)).client, productId);

    assert.equal((await client.delete(`${API}/reviews/${first.public_id}`)).status, 204);
    const second = await postReview(client, productId, { rating: 2 });
    assert.notEqual(second.public_id, first.public_id);
    const mine = expectStatus(await client.get(`${API}/users/me/reviews`), 200);
    assert.deepEqual(mine.map((r: { public_id: string }) => r.public_id), [second.public_id]);
  });

  test('without a session 401; without the CSRF header 403', async () => {
    const productId = await product();
    const anonymous = await t.client().post(`${API}/reviews`, review(productId));
    assert.equal(anonymous.status, 401);
    const { client } = await signUp(t);
    const noCsrf = await client.post(`${API}/reviews`, review(productId), { csrf: false });
    assert.equal(noCsrf.status, 403);
    assert.equal(errorOf(noCsrf).code, 'CSRF_TOKEN_INVALID');
  });
});

describe('moderation and visibility', () => {
  test('PENDING and REJECTED reviews stay private; approval publishes and moves the rating; an edit takes it back', async () => {
    const productId = await product();
    const { client } = await signUp(t);
    const created = await postReview(client, productId, { rating: 4 });

    assert.deepEqual(await publicIds(productId), []);
    assert.deepEqual(await ratingOf(productId), { average: 0, count: 0 });

    const rejected = await moderate(created.public_id, 'REJECTED', 'Off topic');
    assert.equal(rejected.status, 'REJECTED');
    assert.equal(rejected.moderation_note, 'Off topic');
    assert.deepEqual(await publicIds(productId), []);
    assert.deepEqual(await ratingOf(productId), { average: 0, count: 0 });

    const approved = await moderate(created.public_id, 'APPROVED');
    assert.equal(approved.status, 'APPROVED');
    assert.equal(approved.moderation_note, null);
    assert.deepEqual(await publicIds(productId), [created.public_id]);
    assert.deepEqual(await ratingOf(productId), { average: 4, count: 1 });

    const edited = expectStatus(await client.patch(`${API}/reviews/${created.public_id}`, { rating: 2 }), 200);
    assert.equal(edited.status, 'PENDING');
    assert.equal(edited.rating, 2);
    assert.deepEqual(await publicIds(productId), []);
    assert.deepEqual(await ratingOf(productId), { average: 0, count: 0 });

    await moderate(created.public_id, 'APPROVED');
    assert.deepEqual(await ratingOf(productId), { average: 2, count: 1 });
    // Rejecting an approved review takes it out again.
    await moderate(created.public_id, 'REJECTED');
    assert.deepEqual(await publicIds(productId), []);
    assert.deepEqual(await ratingOf(productId), { average: 0, count: 0 });
  });

  test('deleting an approved review takes it out of the list and the rating', async () => {
    const productId = await product();
    const a = await signUp(t);
    const b = await signUp(t);
    const ra = await postReview(a.client, productId, { rating: 5 });
    const rb = await postReview(b.client, productId, { rating: 2 });
    await moderate(ra.public_id, 'APPROVED');
    await moderate(rb.public_id, 'APPROVED');
    assert.deepEqual(await ratingOf(productId), { average: 3.5, count: 2 });
    assert.equal((await a.client.delete(`${API}/reviews/${ra.public_id}`)).status, 204);
    assert.deepEqual(await publicIds(productId), [rb.public_id]);
    assert.deepEqual(await ratingOf(productId), { average: 2, count: 1 });
    const row = await t.db.selectFrom('reviews').select('deleted_at').where('public_id', '=', ra.public_id).executeTakeFirstOrThrow();
    assert.ok(row.deleted_at instanceof Date, 'soft delete keeps the row');
    assert.equal((await a.client.delete(`${API}/reviews/${ra.public_id}`)).status, 404);
  });

  test('the product rating is rounded to two places', async () => {
    const productId = await product();
    for (const rating of [5, 4, 4]) {
      const { client } = await signUp(t);
      await moderate((await postReview(client, productId, { rating })).public_id, 'APPROVED');
    }
    assert.deepEqual(await ratingOf(productId), { average: 4.33, count: 3 });
    const row = await t.db.selectFrom('products').select(['rating_average', 'rating_count']).where('public_id', '=', productId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { rating_average: '4.33', rating_count: 3 });
  });

  test('concurrent moderations of one product all count', async () => {
    const productId = await product();
    const created = [];
    for (const rating of [1, 2, 3, 4, 5, 5, 4, 3]) created.push(await postReview((await signUp(t)).client, productId, { rating }));
    await Promise.all(created.map((r) => moderate(r.public_id, 'APPROVED')));
    assert.deepEqual(await ratingOf(productId), { average: 3.38, count: 8 });
  });

  test('moderation writes a review.moderate audit entry with the status before and after', async () => {
    const productId = await product();
    const { client } = await signUp(t);
    const created = await postReview(client, productId);
    await moderate(created.public_id, 'APPROVED', 'Fine');
    await moderate(created.public_id, 'REJECTED');
    const entries = await auditEntries(t, 'review.moderate', created.public_id);
    assert.equal(entries.length, 2);
    assert.equal(entries[0]!.entity_type, 'review');
    assert.equal(entries[0]!.actor_role, 'ADMIN');
    assert.deepEqual(entries[0]!.changes, { before: { status: 'PENDING', moderation_note: null }, after: { status: 'APPROVED', moderation_note: 'Fine' } });
    assert.deepEqual(entries[1]!.changes, { before: { status: 'APPROVED', moderation_note: 'Fine' }, after: { status: 'REJECTED', moderation_note: null } });
  });
});

describe('PATCH and DELETE /reviews/{rev}', () => {
  test('the author edits; images replace the set; an edit that changes nothing keeps the status', async () => {
    const productId = await product();
    const { client } = await signUp(t);
    const [one, two] = [await uploadedReviewImage(t, client), await uploadedReviewImage(t, client)];
    const created = await postReview(client, productId, { images: [{ image_url: one, alt_text: 'first' }] });
    await moderate(created.public_id, 'APPROVED');

    const same = expectStatus(await client.patch(`${API}/reviews/${created.public_id}`, { title: 'Solid', images: [{ image_url: one, alt_text: 'first' }] }), 200);
    assert.equal(same.status, 'APPROVED');

    const replaced = expectStatus(await client.patch(`${API}/reviews/${created.public_id}`, { images: [{ image_url: two }] }), 200);
    assert.deepEqual(replaced.images, [{ image_url: two, alt_text: null }]);
    assert.equal(replaced.status, 'PENDING');
    assert.equal(replaced.title, 'Solid');
    assert.ok(replaced.updated_at > created.updated_at);
  });

  test('an empty body, unknown fields, product changes and bad images are 400', async () => {
    const productId = await product();
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
    const productId = await product();
    const author = await signUp(t);
    const other = await signUp(t);
    const created = await postReview(author.client, productId);
    await moderate(created.public_id, 'APPROVED');
    const patch = await other.client.patch(`${API}/reviews/${created.public_id}`, { rating: 1 });
    assert.equal(patch.status, 404);
    assert.equal(errorOf(patch).code, 'NOT_FOUND');
    assert.equal((await other.client.delete(`${API}/reviews/${created.public_id}`)).status, 404);
    // Even an admin is not the author.
    assert.equal((await t.admin.patch(`${API}/reviews/${created.public_id}`, { rating: 1 })).status, 404);
    assert.deepEqual(await publicIds(productId), [created.public_id]);
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
    for (let i = 0; i < 3; i++) created.push(await postReview(client, await product()));
    await moderate(created[0].public_id, 'APPROVED');
    await moderate(created[1].public_id, 'REJECTED');
    const page1 = await client.get(`${API}/users/me/reviews?limit=2`);
    assert.deepEqual(page1.body.meta, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    const page2 = await client.get(`${API}/users/me/reviews?limit=2&page=2`);
    const all = [...page1.body.data, ...page2.body.data];
    assert.deepEqual(all.map((r: any) => r.public_id), created.map((r) => r.public_id).reverse());
    assert.deepEqual(all.map((r: any) => r.status), ['PENDING', 'REJECTED', 'APPROVED']);
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

    await moderate(created.public_id, 'APPROVED');
    await moderate(unverified.public_id, 'APPROVED');
    const listed = expectStatus(await publicList(productId), 200);
    const flags = Object.fromEntries(listed.map((r: any) => [r.public_id, r.verified_purchase]));
    assert.deepEqual(flags, { [created.public_id]: true, [unverified.public_id]: false });
  });
});

describe('GET /products/{prd}/reviews', () => {
  let productId: string;
  const ids: Record<string, string> = {};

  before(async () => {
    productId = await product();
    // Approved: 5, 5, 4, 2. Pending: 1. Rejected: 3. None of the last two may count.
    for (const [label, rating, decision] of [
      ['a5', 5, 'APPROVED'],
      ['b4', 4, 'APPROVED'],
      ['c2', 2, 'APPROVED'],
      ['d5', 5, 'APPROVED'],
      ['e1', 1, null],
      ['f3', 3, 'REJECTED'],
    ] as const) {
      const { client } = await signUp(t);
      ids[label] = (await postReview(client, productId, { rating })).public_id;
      if (decision) await moderate(ids[label]!, decision);
    }
  });

  const summary = { average: 4, count: 4, distribution: { '1': 0, '2': 1, '3': 0, '4': 1, '5': 2 } };

  test('approved only, newest first, with an exact summary', async () => {
    const response = await publicList(productId);
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    assert.deepEqual(response.body.data.map((r: any) => r.public_id), [ids.d5, ids.c2, ids.b4, ids.a5]);
    assert.deepEqual(response.body.meta, { page: 1, limit: 20, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual(response.body.summary, summary);
    assert.ok(response.body.data.every((r: any) => r.status === 'APPROVED'));
  });

  test('the rating filter narrows the page, never the summary', async () => {
    const response = await publicList(productId, '?rating=5');
    assert.deepEqual(response.body.data.map((r: any) => r.public_id), [ids.d5, ids.a5]);
    assert.equal(response.body.meta.total, 2);
    assert.deepEqual(response.body.summary, summary);
    const none = await publicList(productId, '?rating=1');
    assert.deepEqual(none.body.data, []);
    assert.equal(none.body.meta.total, 0);
    assert.deepEqual(none.body.summary, summary);
  });

  test('sort by rating either way, pages and the summary over all pages', async () => {
    const ascending = await publicList(productId, '?sort=rating');
    assert.deepEqual(ascending.body.data.map((r: any) => r.rating), [2, 4, 5, 5]);
    const descending = await publicList(productId, '?sort=-rating');
    assert.deepEqual(descending.body.data.map((r: any) => r.rating), [5, 5, 4, 2]);
    const oldest = await publicList(productId, '?sort=created_at&limit=3&page=2');
    assert.deepEqual(oldest.body.data.map((r: any) => r.public_id), [ids.d5]);
    assert.deepEqual(oldest.body.meta, { page: 2, limit: 3, total: 4, totalPages: 2, hasNext: false, hasPrev: true });
    assert.deepEqual(oldest.body.summary, summary);
    const past = await publicList(productId, '?page=9');
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total, 4);
  });

  test('bad query values are 400', async () => {
    for (const query of ['?rating=0', '?rating=6', '?rating=x', '?sort=title', '?limit=101']) {
      const response = await publicList(productId, query);
      assert.equal(response.status, 400, query);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });

  test('a product without reviews has an all-zero summary; unknown, malformed and DRAFT products are 404', async () => {
    const empty = await publicList(await product());
    assert.deepEqual(empty.body.summary, { average: 0, count: 0, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } });
    const draft = (await makeProduct(t.admin, { status: 'DRAFT' })).id;
    for (const id of ['prd_00000000000000000000', 'rev_00000000000000000000', draft]) {
      const response = await publicList(id);
      assert.equal(response.status, 404, id);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('verified_purchase is computed in the page query, not per row', async () => {
    const before = t.queries.length;
    expectStatus(await publicList(productId), 200);
    const statements = t.queries.slice(before);
    assert.equal(statements.filter((sql) => sql.includes('order_items')).length, 1, statements.join('\n'));
    assert.ok(statements.length <= 4, `${statements.length} statements`);
  });
});

describe('admin review routes', () => {
  test('a customer gets 403 and an anonymous caller 401', async () => {
    const productId = await product();
    const { client } = await signUp(t);
    const created = await postReview(client, productId);
    const customerList = await client.get(`${API}/admin/reviews`);
    assert.equal(customerList.status, 403);
    assert.equal(errorOf(customerList).code, 'FORBIDDEN');
    const customerPatch = await client.patch(`${API}/admin/reviews/${created.public_id}`, { status: 'APPROVED' });
    assert.equal(customerPatch.status, 403);
    const anonymous = t.client();
    assert.equal((await anonymous.get(`${API}/admin/reviews`)).status, 401);
    assert.equal((await anonymous.patch(`${API}/admin/reviews/${created.public_id}`, { status: 'APPROVED' })).status, 401);
    assert.deepEqual(await publicIds(productId), []);
  });

  test('lists oldest first with status, product and rating filters', async () => {
    const productId = await product();
    const created = [];
    for (const rating of [3, 5, 3]) created.push(await postReview((await signUp(t)).client, productId, { rating }));
    await moderate(created[1].public_id, 'APPROVED');
    const list = async (query: string) => expectStatus(await t.admin.get(`${API}/admin/reviews?product=${productId}${query}`), 200).map((r: any) => r.public_id);
    assert.deepEqual(await list(''), created.map((r) => r.public_id));
    assert.deepEqual(await list('&sort=-created_at'), created.map((r) => r.public_id).reverse());
    assert.deepEqual(await list('&status=PENDING'), [created[0].public_id, created[2].public_id]);
    assert.deepEqual(await list('&status=APPROVED'), [created[1].public_id]);
    assert.deepEqual(await list('&rating=3&status=PENDING'), [created[0].public_id, created[2].public_id]);
    assert.deepEqual(await list('&rating=5&status=PENDING'), []);
    const row = expectStatus(await t.admin.get(`${API}/admin/reviews?product=${productId}&status=APPROVED`), 200)[0];
    assert.equal(row.product_public_id, productId);
    assert.match(row.author_public_id, /^usr_/);
    assert.ok(row.moderated_at);
    assert.equal(expectStatus(await t.admin.get(`${API}/admin/reviews?product=nope`), 200).length, 0);
    assert.equal((await t.admin.get(`${API}/admin/reviews?status=DELETED`)).status, 400);
  });

  test('moderation validates its body and 404s an unknown review', async () => {
    const productId = await product();
    const created = await postReview((await signUp(t)).client, productId);
    for (const body of [{}, { status: 'PENDING' }, { status: 'APPROVED', moderation_note: 'x'.repeat(1001) }, { status: 'APPROVED', extra: 1 }]) {
      assert.equal((await t.admin.patch(`${API}/admin/reviews/${created.public_id}`, body)).status, 400, JSON.stringify(body).slice(0, 60));
    }
    assert.equal((await t.admin.patch(`${API}/admin/reviews/rev_00000000000000000000`, { status: 'APPROVED' })).status, 404);
  });
});

test('the review routes are in the OpenAPI document', async () => {
  const spec = (await t.client().get('/openapi.json')).body;
  for (const path of ['/api/v1/reviews', '/api/v1/reviews/{review_public_id}', '/api/v1/users/me/reviews', '/api/v1/products/{product_public_id}/reviews', '/api/v1/admin/reviews', '/api/v1/admin/reviews/{review_public_id}']) {
    assert.ok(spec.paths[path], path);
  }
  assert.ok(spec.paths['/api/v1/products/{product_public_id}/reviews'].get.responses['200']);
});
