import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Response } from './helpers/client.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Operating expenses (contract section 11): SUPER_ADMIN only, validated, filtered, soft-deleted. */

const EXPENSES = '/api/v1/admin/expenses';
const CATEGORIES = ['RENT', 'SALARIES', 'MARKETING', 'SOFTWARE', 'SHIPPING', 'UTILITIES', 'OTHER'];
const FIELDS = ['amount', 'category', 'created_at', 'description', 'public_id', 'spent_at', 'updated_at'];

const t = useApp({ as: ['SUPER_ADMIN', 'ADMIN'] });

function ok(response: Response, status = 200) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  return response.body?.data;
}

function invalid(response: Response, label: string) {
  assert.equal(response.status, 400, `${label}: ${response.status} ${response.text}`);
  assert.equal(errorOf(response).code, 'VALIDATION_ERROR', label);
}

const valid = (overrides: Record<string, unknown> = {}) => ({
  description: 'Office rent',
  category: 'RENT',
  amount: '1200.00',
  spent_at: '2026-03-01',
  ...overrides,
});
const create = async (overrides: Record<string, unknown> = {}) => ok(await t.superAdmin.post(EXPENSES, valid(overrides)), 201);
const liveCount = async () => (await t.db.selectFrom('expenses').select('id').where('deleted_at', 'is', null).execute()).length;

describe('create, edit, delete', () => {
  test('POST returns the expense; PATCH changes only what it is given; DELETE is soft and final', async () => {
    const created = await create({ description: 'Design tool', category: 'SOFTWARE', amount: '49.90', spent_at: '2026-02-14' });
    assert.deepEqual(Object.keys(created).sort(), FIELDS);
    assert.match(created.public_id, /^exp_[0-9A-Za-z]{16,}$/);
    assert.deepEqual(
      { description: created.description, category: created.category, amount: created.amount, spent_at: created.spent_at },
      { description: 'Design tool', category: 'SOFTWARE', amount: '49.90', spent_at: '2026-02-14' },
    );
    assert.equal((await create({ amount: '7' })).amount, '7.00', 'whole amounts come back with two places');

    const patched = ok(await t.superAdmin.patch(`${EXPENSES}/${created.public_id}`, { amount: '55.05', category: 'MARKETING' }));
    assert.deepEqual(
      { description: patched.description, category: patched.category, amount: patched.amount, spent_at: patched.spent_at },
      { description: 'Design tool', category: 'MARKETING', amount: '55.05', spent_at: '2026-02-14' },
    );
    const moved = ok(await t.superAdmin.patch(`${EXPENSES}/${created.public_id}`, { spent_at: '2026-02-28', description: 'Design suite' }));
    assert.equal(moved.spent_at, '2026-02-28');
    assert.equal(moved.description, 'Design suite');
    assert.equal(moved.amount, '55.05');
    const listed = (ok(await t.superAdmin.get(`${EXPENSES}?limit=100`)) as any[]).find((e) => e.public_id === created.public_id);
    assert.deepEqual(listed, moved);

    const removed = await t.superAdmin.delete(`${EXPENSES}/${created.public_id}`);
    assert.equal(removed.status, 204);
    assert.equal(removed.text, '');
    for (const response of [
      await t.superAdmin.patch(`${EXPENSES}/${created.public_id}`, { amount: '1.00' }),
      await t.superAdmin.delete(`${EXPENSES}/${created.public_id}`),
    ]) {
      assert.equal(response.status, 404, response.text);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
    assert.ok(!(ok(await t.superAdmin.get(`${EXPENSES}?limit=100`)) as any[]).some((e) => e.public_id === created.public_id));
    const row = await t.db
      .selectFrom('expenses')
      .select(['deleted_at', 'amount'])
      .where('public_id', '=', created.public_id)
      .executeTakeFirstOrThrow();
    assert.ok(row.deleted_at, 'the row is kept, marked deleted');
    assert.equal(row.amount, '55.05');
  });

  test('unknown or malformed IDs are 404', async () => {
    for (const id of [`exp_${'Q'.repeat(20)}`, `usr_${'Q'.repeat(20)}`, 'exp_short', '123']) {
      const response = await t.superAdmin.patch(`${EXPENSES}/${id}`, { amount: '1.00' });
      assert.equal(response.status, 404, `${id}: ${response.text}`);
      assert.equal((await t.superAdmin.delete(`${EXPENSES}/${id}`)).status, 404, id);
    }
  });
});

describe('validation', () => {
  test('POST: category from the fixed list, amount above zero with at most two places, a real date, no unknown fields', async () => {
    const before = await liveCount();
    const cases: [string, Record<string, unknown>][] = [
      ['category outside the list', valid({ category: 'FOOD' })],
      ['category lower case', valid({ category: 'rent' })],
      ['amount 0', valid({ amount: '0' })],
      ['amount 0.00', valid({ amount: '0.00' })],
      ['amount negative', valid({ amount: '-5.00' })],
      ['amount three places', valid({ amount: '12.345' })],
      ['amount a number', valid({ amount: 12.5 })],
      ['amount text', valid({ amount: 'twelve' })],
      ['spent_at not a date', valid({ spent_at: 'not-a-date' })],
      ['spent_at impossible date', valid({ spent_at: '2026-02-30' })],
      ['spent_at a timestamp', valid({ spent_at: '2026-03-01T10:00:00Z' })],
      ['description blank', valid({ description: '   ' })],
      ['description too long', valid({ description: 'x'.repeat(501) })],
      ['unknown field', valid({ vendor: 'ACME' })],
      ['missing amount', { description: 'x', category: 'RENT', spent_at: '2026-03-01' }],
      ['missing spent_at', { description: 'x', category: 'RENT', amount: '1.00' }],
    ];
    for (const [label, body] of cases) invalid(await t.superAdmin.post(EXPENSES, body), label);
    const detail = errorOf(await t.superAdmin.post(EXPENSES, valid({ amount: '0' }))).details ?? [];
    assert.ok(
      detail.some((d) => d.field === 'amount'),
      JSON.stringify(detail),
    );
    assert.equal(await liveCount(), before, 'nothing was recorded');
    for (const category of CATEGORIES) assert.equal((await create({ category })).category, category);
  });

  test('PATCH: the same rules, at least one field, and a refused edit changes nothing', async () => {
    const expense = await create({ amount: '10.00' });
    const url = `${EXPENSES}/${expense.public_id}`;
    for (const [label, body] of [
      ['empty', {}],
      ['amount 0', { amount: '0' }],
      ['amount three places', { amount: '12.345' }],
      ['category', { category: 'TRAVEL' }],
      ['spent_at', { spent_at: '01/03/2026' }],
      ['unknown field', { note: 'x' }],
      ['null amount', { amount: null }],
    ] as const)
      invalid(await t.superAdmin.patch(url, body), label);
    const row = (ok(await t.superAdmin.get(`${EXPENSES}?limit=100`)) as any[]).find((e) => e.public_id === expense.public_id);
    assert.deepEqual(row, expense);
  });
});

describe('GET /admin/expenses', () => {
  test('filters by category and an inclusive date range; newest spent_at first; paged', async () => {
    const marker = `Filter ${randomBytes(3).toString('hex')}`;
    const fixtures = [
      ['UTILITIES', '2031-01-01'],
      ['UTILITIES', '2031-01-15'],
      ['SHIPPING', '2031-01-15'],
      ['UTILITIES', '2031-01-31'],
      ['UTILITIES', '2031-02-01'],
    ] as const;
    const made: Record<string, string> = {};
    for (const [category, spentAt] of fixtures)
      made[`${category} ${spentAt}`] = (await create({ description: marker, category, spent_at: spentAt })).public_id;

    const pick = (response: Response) => (ok(response) as any[]).map((e) => `${e.category} ${e.spent_at}`);
    assert.deepEqual(pick(await t.superAdmin.get(`${EXPENSES}?category=UTILITIES&from=2031-01-01&to=2031-01-31`)), [
      'UTILITIES 2031-01-31',
      'UTILITIES 2031-01-15',
      'UTILITIES 2031-01-01',
    ]);
    assert.deepEqual(pick(await t.superAdmin.get(`${EXPENSES}?from=2031-01-15&to=2031-01-15`)).sort(), [
      'SHIPPING 2031-01-15',
      'UTILITIES 2031-01-15',
    ]);
    assert.deepEqual(pick(await t.superAdmin.get(`${EXPENSES}?category=SHIPPING&from=2031-01-01`)), ['SHIPPING 2031-01-15']);
    assert.deepEqual(pick(await t.superAdmin.get(`${EXPENSES}?from=2031-02-01`)), ['UTILITIES 2031-02-01']);
    const upTo = pick(await t.superAdmin.get(`${EXPENSES}?from=2030-01-01&to=2031-01-01&category=UTILITIES`));
    assert.deepEqual(upTo, ['UTILITIES 2031-01-01']);
    assert.ok(pick(await t.superAdmin.get(`${EXPENSES}?to=2031-01-01&limit=100`)).every((e) => e.slice(-10) <= '2031-01-01'));

    // Same spent_at: the public ID breaks the tie (descending), so pages are stable.
    const sameDay = (ok(await t.superAdmin.get(`${EXPENSES}?from=2031-01-15&to=2031-01-15`)) as any[]).map((e) => e.public_id);
    assert.deepEqual(sameDay, [...sameDay].sort().reverse());

    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const response = await t.superAdmin.get(`${EXPENSES}?from=2031-01-01&to=2031-12-31&limit=2&page=${page}`);
      assert.deepEqual(response.body.meta, { page, limit: 2, total: 5, totalPages: 3, hasNext: page < 3, hasPrev: page > 1 });
      seen.push(...(ok(response) as any[]).map((e) => e.public_id));
    }
    assert.equal(new Set(seen).size, 5);
    assert.deepEqual(new Set(seen), new Set(Object.values(made)));
    assert.equal(seen[0], made['UTILITIES 2031-02-01']);
    assert.equal(seen[4], made['UTILITIES 2031-01-01']);

    for (const query of ['category=FOOD', 'from=tomorrow', 'to=2031-02-30', 'limit=0', 'limit=101'])
      invalid(await t.superAdmin.get(`${EXPENSES}?${query}`), query);
  });
});

describe('access', () => {
  test('an ADMIN gets 403 on every expense endpoint and changes nothing', async () => {
    const expense = await create({ amount: '3.00' });
    const before = await liveCount();
    for (const response of [
      await t.admin.get(EXPENSES),
      await t.admin.post(EXPENSES, valid()),
      await t.admin.patch(`${EXPENSES}/${expense.public_id}`, { amount: '4.00' }),
      await t.admin.delete(`${EXPENSES}/${expense.public_id}`),
    ]) {
      assert.equal(response.status, 403, response.text);
      assert.equal(errorOf(response).code, 'FORBIDDEN');
    }
    assert.equal(await liveCount(), before);
    const row = await t.db
      .selectFrom('expenses')
      .select(['amount', 'deleted_at'])
      .where('public_id', '=', expense.public_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { amount: '3.00', deleted_at: null });
  });
});
