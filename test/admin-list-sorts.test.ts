import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { test } from 'node:test';
import type { Response } from './helpers/client.js';
import { errorOf } from './helpers/factories.js';
import { API, createCoupon } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** The coupon and expense lists sort on the server; the public ID breaks ties, so pages never overlap. */

const t = useApp({ as: ['ADMIN', 'SUPER_ADMIN'] });

const ids = (response: Response): string[] => {
  assert.equal(response.status, 200, response.text);
  return response.body.data.map((row: { public_id: string }) => row.public_id);
};

function refused(response: Response) {
  assert.equal(response.status, 400, response.text);
  assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
  assert.ok(
    errorOf(response).details?.some((d: { field: string }) => d.field === 'sort'),
    response.text,
  );
}

test('coupons sort by code, times used and creation, either way', async () => {
  const tag = `S${randomBytes(4).toString('hex')}`.toUpperCase();
  const made: { public_id: string; code: string }[] = [];
  for (const suffix of ['B', 'A', 'C']) made.push(await createCoupon(t.admin, { code: `${tag}${suffix}` }));
  const [couponB, couponA, couponC] = made.map((m) => m.public_id);
  // Uses come from checkouts; the sort only needs different counts, so they are set here.
  for (const [publicId, used] of [
    [couponB, 5],
    [couponA, 1],
    [couponC, 3],
  ] as const) {
    await t.db.updateTable('coupons').set({ times_used: used }).where('public_id', '=', publicId!).execute();
  }
  const list = (sort: string, extra = '') => t.admin.get(`${API}/admin/coupons?search=${tag}&sort=${sort}${extra}`);

  assert.deepEqual(ids(await list('code')), [couponA, couponB, couponC]);
  assert.deepEqual(ids(await list('-code')), [couponC, couponB, couponA]);
  assert.deepEqual(ids(await list('-times_used')), [couponB, couponC, couponA]);
  assert.deepEqual(ids(await list('times_used')), [couponA, couponC, couponB]);
  const newestFirst = ids(await t.admin.get(`${API}/admin/coupons?search=${tag}`));
  assert.deepEqual(ids(await list('-created_at')), newestFirst, 'the default');
  assert.deepEqual(ids(await list('created_at')), [...newestFirst].reverse());

  const paged = [];
  for (let page = 1; page <= 3; page++) paged.push(...ids(await list('code', `&limit=1&page=${page}`)));
  assert.deepEqual(paged, [couponA, couponB, couponC], 'one per page, none repeated');
  refused(await t.admin.get(`${API}/admin/coupons?sort=discount_value`));
});

test('expenses sort by day spent and amount, either way, within their filters', async () => {
  // A month of its own, so other tests' expenses stay out of the range.
  const month = `20${randomInt(10, 20)}-0${randomInt(1, 10)}`;
  const EXPENSES = `${API}/admin/expenses`;
  const made: string[] = [];
  for (const [day, amount] of [
    ['03', '50.00'],
    ['01', '900.00'],
    ['02', '7.25'],
  ]) {
    const response = await t.superAdmin.post(EXPENSES, {
      description: 'Sort check',
      category: 'OTHER',
      amount,
      spent_at: `${month}-${day}`,
    });
    assert.equal(response.status, 201, response.text);
    made.push(response.body.data.public_id);
  }
  const [third, first, second] = made;
  const range = `from=${month}-01&to=${month}-03`;
  const theirs = (response: Response) => ids(response).filter((id) => made.includes(id));
  const list = (sort?: string) => t.superAdmin.get(`${EXPENSES}?${range}&limit=100${sort ? `&sort=${sort}` : ''}`);

  assert.deepEqual(theirs(await list()), [third, second, first], 'latest day first by default');
  assert.deepEqual(theirs(await list('spent_at')), [first, second, third]);
  assert.deepEqual(theirs(await list('amount')), [second, third, first], 'as numbers, not text');
  assert.deepEqual(theirs(await list('-amount')), [first, third, second]);
  refused(await t.superAdmin.get(`${EXPENSES}?sort=description`));
});
