import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { API, expectStatus, makeProduct } from './helpers/catalog.js';
import { auditRows, statementsOf } from './helpers/inspect.js';
import { errorOf, signUp } from './helpers/factories.js';
import { moderate, postReview, publicReviewIds, publicReviews, ratingOf, reviewableProduct } from './helpers/reviews.js';
import { useApp } from './helpers/use-app.js';

/** Reviews (contract section 10) from the store's side: moderation, what the public list shows, product ratings, admin routes. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['ADMIN'] });

describe('moderation and visibility', () => {
  test('PENDING and REJECTED reviews stay private; approval publishes and moves the rating; an edit takes it back', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const created = await postReview(client, productId, { rating: 4 });

    assert.deepEqual(await publicReviewIds(t, productId), []);
    assert.deepEqual(await ratingOf(t, productId), { average: 0, count: 0 });

    const rejected = await moderate(t.admin, created.public_id, 'REJECTED', 'Off topic');
    assert.equal(rejected.status, 'REJECTED');
    assert.equal(rejected.moderation_note, 'Off topic');
    assert.deepEqual(await publicReviewIds(t, productId), []);
    assert.deepEqual(await ratingOf(t, productId), { average: 0, count: 0 });

    const approved = await moderate(t.admin, created.public_id, 'APPROVED');
    assert.equal(approved.status, 'APPROVED');
    assert.equal(approved.moderation_note, null);
    assert.deepEqual(await publicReviewIds(t, productId), [created.public_id]);
    assert.deepEqual(await ratingOf(t, productId), { average: 4, count: 1 });

    const edited = expectStatus(await client.patch(`${API}/reviews/${created.public_id}`, { rating: 2 }), 200);
    assert.equal(edited.status, 'PENDING');
    assert.equal(edited.rating, 2);
    assert.deepEqual(await publicReviewIds(t, productId), []);
    assert.deepEqual(await ratingOf(t, productId), { average: 0, count: 0 });

    await moderate(t.admin, created.public_id, 'APPROVED');
    assert.deepEqual(await ratingOf(t, productId), { average: 2, count: 1 });
    // Rejecting an approved review takes it out again.
    await moderate(t.admin, created.public_id, 'REJECTED');
    assert.deepEqual(await publicReviewIds(t, productId), []);
    assert.deepEqual(await ratingOf(t, productId), { average: 0, count: 0 });
  });

  test('deleting an approved review takes it out of the list and the rating', async () => {
    const productId = await reviewableProduct(t.admin);
    const a = await signUp(t);
    const b = await signUp(t);
    const ra = await postReview(a.client, productId, { rating: 5 });
    const rb = await postReview(b.client, productId, { rating: 2 });
    await moderate(t.admin, ra.public_id, 'APPROVED');
    await moderate(t.admin, rb.public_id, 'APPROVED');
    assert.deepEqual(await ratingOf(t, productId), { average: 3.5, count: 2 });
    assert.equal((await a.client.delete(`${API}/reviews/${ra.public_id}`)).status, 204);
    assert.deepEqual(await publicReviewIds(t, productId), [rb.public_id]);
    assert.deepEqual(await ratingOf(t, productId), { average: 2, count: 1 });
    const row = await t.db.selectFrom('reviews').select('deleted_at').where('public_id', '=', ra.public_id).executeTakeFirstOrThrow();
    assert.ok(row.deleted_at instanceof Date, 'soft delete keeps the row');
    assert.equal((await a.client.delete(`${API}/reviews/${ra.public_id}`)).status, 404);
  });

  test('the product rating is rounded to two places', async () => {
    const productId = await reviewableProduct(t.admin);
    for (const rating of [5, 4, 4]) {
      const { client } = await signUp(t);
      await moderate(t.admin, (await postReview(client, productId, { rating })).public_id, 'APPROVED');
    }
    assert.deepEqual(await ratingOf(t, productId), { average: 4.33, count: 3 });
    const row = await t.db
      .selectFrom('products')
      .select(['rating_average', 'rating_count'])
      .where('public_id', '=', productId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { rating_average: '4.33', rating_count: 3 });
  });

  test('concurrent moderations of one product all count', async () => {
    const productId = await reviewableProduct(t.admin);
    const created = [];
    for (const rating of [1, 2, 3, 4, 5, 5, 4, 3]) created.push(await postReview((await signUp(t)).client, productId, { rating }));
    await Promise.all(created.map((r) => moderate(t.admin, r.public_id, 'APPROVED')));
    assert.deepEqual(await ratingOf(t, productId), { average: 3.38, count: 8 });
  });

  test('moderation writes a review.moderate audit entry with the status before and after', async () => {
    const productId = await reviewableProduct(t.admin);
    const { client } = await signUp(t);
    const created = await postReview(client, productId);
    await moderate(t.admin, created.public_id, 'APPROVED', 'Fine');
    await moderate(t.admin, created.public_id, 'REJECTED');
    const entries = await auditRows(t, 'review.moderate', created.public_id);
    assert.equal(entries.length, 2);
    assert.equal(entries[0]!.entity_type, 'review');
    assert.equal(entries[0]!.actor_role, 'ADMIN');
    assert.deepEqual(entries[0]!.changes, {
      before: { status: 'PENDING', moderation_note: null },
      after: { status: 'APPROVED', moderation_note: 'Fine' },
    });
    assert.deepEqual(entries[1]!.changes, {
      before: { status: 'APPROVED', moderation_note: 'Fine' },
      after: { status: 'REJECTED', moderation_note: null },
    });
  });
});

describe('GET /products/{prd}/reviews', () => {
  let productId: string;
  const ids: Record<string, string> = {};

  before(async () => {
    productId = await reviewableProduct(t.admin);
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
      if (decision) await moderate(t.admin, ids[label]!, decision);
    }
  });

  const summary = { average: 4, count: 4, distribution: { '1': 0, '2': 1, '3': 0, '4': 1, '5': 2 } };

  test('approved only, newest first, with an exact summary', async () => {
    const response = await publicReviews(t, productId);
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    assert.deepEqual(
      response.body.data.map((r: any) => r.public_id),
      [ids.d5, ids.c2, ids.b4, ids.a5],
    );
    assert.deepEqual(response.body.meta, { page: 1, limit: 20, total: 4, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual(response.body.summary, summary);
    assert.ok(response.body.data.every((r: any) => r.status === 'APPROVED'));
  });

  test('the rating filter narrows the page, never the summary', async () => {
    const response = await publicReviews(t, productId, '?rating=5');
    assert.deepEqual(
      response.body.data.map((r: any) => r.public_id),
      [ids.d5, ids.a5],
    );
    assert.equal(response.body.meta.total, 2);
    assert.deepEqual(response.body.summary, summary);
    const none = await publicReviews(t, productId, '?rating=1');
    assert.deepEqual(none.body.data, []);
    assert.equal(none.body.meta.total, 0);
    assert.deepEqual(none.body.summary, summary);
  });

  test('sort by rating either way, pages and the summary over all pages', async () => {
    const ascending = await publicReviews(t, productId, '?sort=rating');
    assert.deepEqual(
      ascending.body.data.map((r: any) => r.rating),
      [2, 4, 5, 5],
    );
    const descending = await publicReviews(t, productId, '?sort=-rating');
    assert.deepEqual(
      descending.body.data.map((r: any) => r.rating),
      [5, 5, 4, 2],
    );
    const oldest = await publicReviews(t, productId, '?sort=created_at&limit=3&page=2');
    assert.deepEqual(
      oldest.body.data.map((r: any) => r.public_id),
      [ids.d5],
    );
    assert.deepEqual(oldest.body.meta, { page: 2, limit: 3, total: 4, totalPages: 2, hasNext: false, hasPrev: true });
    assert.deepEqual(oldest.body.summary, summary);
    const past = await publicReviews(t, productId, '?page=9');
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total, 4);
  });

  test('bad query values are 400', async () => {
    for (const query of ['?rating=0', '?rating=6', '?rating=x', '?sort=title', '?limit=101']) {
      const response = await publicReviews(t, productId, query);
      assert.equal(response.status, 400, query);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });

  test('a product without reviews has an all-zero summary; unknown, malformed and DRAFT products are 404', async () => {
    const empty = await publicReviews(t, await reviewableProduct(t.admin));
    assert.deepEqual(empty.body.summary, { average: 0, count: 0, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } });
    const draft = (await makeProduct(t.admin, { status: 'DRAFT' })).id;
    for (const id of ['prd_00000000000000000000', 'rev_00000000000000000000', draft]) {
      const response = await publicReviews(t, id);
      assert.equal(response.status, 404, id);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('verified_purchase is computed in the page query, not per row', async () => {
    const { response, statements } = await statementsOf(t, () => publicReviews(t, productId));
    expectStatus(response, 200);
    assert.equal(statements.filter((sql) => sql.includes('order_items')).length, 1, statements.join('\n'));
    assert.ok(statements.length <= 4, `${statements.length} statements`);
  });
});

describe('admin review routes', () => {
  test('a customer gets 403 and an anonymous caller 401', async () => {
    const productId = await reviewableProduct(t.admin);
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
    assert.deepEqual(await publicReviewIds(t, productId), []);
  });

  test('lists oldest first with status, product and rating filters', async () => {
    const productId = await reviewableProduct(t.admin);
    const created = [];
    for (const rating of [3, 5, 3]) created.push(await postReview((await signUp(t)).client, productId, { rating }));
    await moderate(t.admin, created[1].public_id, 'APPROVED');
    const list = async (query: string) =>
      expectStatus(await t.admin.get(`${API}/admin/reviews?product=${productId}${query}`), 200).map((r: any) => r.public_id);
    assert.deepEqual(
      await list(''),
      created.map((r) => r.public_id),
    );
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
    const productId = await reviewableProduct(t.admin);
    const created = await postReview((await signUp(t)).client, productId);
    for (const body of [
      {},
      { status: 'PENDING' },
      { status: 'APPROVED', moderation_note: 'x'.repeat(1001) },
      { status: 'APPROVED', extra: 1 },
    ]) {
      assert.equal((await t.admin.patch(`${API}/admin/reviews/${created.public_id}`, body)).status, 400, JSON.stringify(body).slice(0, 60));
    }
    assert.equal((await t.admin.patch(`${API}/admin/reviews/rev_00000000000000000000`, { status: 'APPROVED' })).status, 404);
  });
});

test('the review routes are in the OpenAPI document', async () => {
  const spec = (await t.client().get('/openapi.json')).body;
  for (const path of [
    '/api/v1/reviews',
    '/api/v1/reviews/{review_public_id}',
    '/api/v1/users/me/reviews',
    '/api/v1/products/{product_public_id}/reviews',
    '/api/v1/admin/reviews',
    '/api/v1/admin/reviews/{review_public_id}',
  ]) {
    assert.ok(spec.paths[path], path);
  }
  assert.ok(spec.paths['/api/v1/products/{product_public_id}/reviews'].get.responses['200']);
});
