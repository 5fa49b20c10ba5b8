import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, expectStatus, makeProduct } from './helpers/catalog.js';
import { errorOf, signUp } from './helpers/factories.js';
import { postReview, publicReviewIds, ratingOf, reviewableProduct } from './helpers/reviews.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/** Bulk actions: many items in one request, each as its single request would, with a result per item. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['CUSTOMER', 'ADMIN'] });

const outcomes = (body: any) => body.data.results.map((r: any) => `${r.outcome}${r.error ? ` ${r.error.code}` : ''}`);

test('product status and deletion: each product done or refused with its reason, each audited', async () => {
  const [a, b] = await Promise.all([makeProduct(t.admin, { status: 'DRAFT' }), makeProduct(t.admin, { status: 'DRAFT' })]);
  const gone = await makeProduct(t.admin, {});
  expectStatus(await t.admin.delete(`${API}/admin/products/${gone.id}`), 204);
  const status = await t.admin.post(`${API}/admin/products/bulk-status`, { product_public_ids: [a.id, gone.id, b.id], status: 'ACTIVE' });
  assert.equal(status.status, 200, status.text);
  assert.deepEqual(outcomes(status.body), ['done', 'refused NOT_FOUND', 'done']);
  assert.deepEqual([status.body.data.done, status.body.data.refused], [2, 1]);
  for (const id of [a.id, b.id]) {
    assert.equal(expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200).status, 'ACTIVE');
    assert.equal((await auditRows(t, 'product.update', id)).length, 1);
  }
  const deleted = await t.admin.post(`${API}/admin/products/bulk-delete`, { product_public_ids: [a.id, 'prd_nope0000000000000000'] });
  assert.deepEqual(outcomes(deleted.body), ['done', 'refused NOT_FOUND']);
  assert.equal(errorOf(await t.admin.get(`${API}/products/${a.id}`)).code, 'NOT_FOUND');
});

test('stock adjustments with one reason: a change that would go below zero is refused, the others applied', async () => {
  const p = await makeProduct(t.admin, { variants: [{ stock: 5 }, { stock: 1 }, {}] });
  const [v1, v2, noRecord] = p.variants.map((v: any) => v.public_id as string);
  const response = await t.admin.post(`${API}/admin/inventory/bulk-adjust`, {
    reason: 'Weekly count',
    adjustments: [
      { variant_public_id: v1, quantity_change: 3 },
      { variant_public_id: v2, quantity_change: -2 },
      { variant_public_id: noRecord, quantity_change: 1 },
    ],
  });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(outcomes(response.body), ['done', 'refused STOCK_RULE_VIOLATION', 'refused NOT_FOUND']);
  assert.equal(expectStatus(await t.admin.get(`${API}/admin/inventory/${v1}`), 200).quantity_on_hand, 8);
  assert.equal(expectStatus(await t.admin.get(`${API}/admin/inventory/${v2}`), 200).quantity_on_hand, 1);
  const [audit] = await auditRows(t, 'inventory.adjust', v1);
  assert.equal(audit!.reason, 'Weekly count');
  // One reason is required; a variant named twice, a zero change and over 100 items are 400 and change nothing.
  for (const body of [
    { reason: '', adjustments: [{ variant_public_id: v1, quantity_change: 1 }] },
    { adjustments: [{ variant_public_id: v1, quantity_change: 1 }] },
    {
      reason: 'x',
      adjustments: [
        { variant_public_id: v1, quantity_change: 1 },
        { variant_public_id: v1, quantity_change: 1 },
      ],
    },
    { reason: 'x', adjustments: [{ variant_public_id: v1, quantity_change: 0 }] },
    { reason: 'x', adjustments: Array.from({ length: 101 }, () => ({ variant_public_id: v1, quantity_change: 1 })) },
  ]) {
    assert.equal(
      errorOf(await t.admin.post(`${API}/admin/inventory/bulk-adjust`, body)).code,
      'VALIDATION_ERROR',
      JSON.stringify(body).slice(0, 80),
    );
  }
  assert.equal(expectStatus(await t.admin.get(`${API}/admin/inventory/${v1}`), 200).quantity_on_hand, 8);
});

test('review approval: each review moderated and audited, the rating recomputed; an unknown one refused', async () => {
  const productId = await reviewableProduct(t.admin);
  const reviews = [];
  for (const rating of [5, 3]) reviews.push((await postReview((await signUp(t)).client, productId, { rating })).public_id as string);
  const response = await t.admin.post(`${API}/admin/reviews/bulk`, {
    review_public_ids: [...reviews, 'rev_unknown000000000000'],
    status: 'APPROVED',
  });
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(outcomes(response.body), ['done', 'done', 'refused NOT_FOUND']);
  assert.deepEqual((await publicReviewIds(t, productId)).sort(), [...reviews].sort());
  assert.deepEqual(await ratingOf(t, productId), { average: 4, count: 2 });
  for (const id of reviews) assert.equal((await auditRows(t, 'review.moderate', id)).length, 1);
});

test('staff only', async () => {
  assert.equal(errorOf(await t.customer.post(`${API}/admin/products/bulk-delete`, { product_public_ids: ['prd_x'] })).code, 'FORBIDDEN');
  assert.equal(
    errorOf(await t.customer.post(`${API}/admin/reviews/bulk`, { review_public_ids: ['rev_x'], status: 'APPROVED' })).code,
    'FORBIDDEN',
  );
});
