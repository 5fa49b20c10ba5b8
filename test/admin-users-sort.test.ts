import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Response } from './helpers/client.js';
import { errorOf, signUp } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** `GET /admin/users?sort=`: the account lists sort on the server, with the public ID breaking ties so pages never overlap. */

const USERS = '/api/v1/admin/users';
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['ADMIN'] });

const ids = (response: Response): string[] => {
  assert.equal(response.status, 200, response.text);
  return response.body.data.map((u: { public_id: string }) => u.public_id);
};

/** Four accounts found by one search: two share a last name, and email order differs from name order. */
async function accounts() {
  const tag = `srt${randomBytes(4).toString('hex')}`;
  const made = [
    { first_name: 'Zoe', last_name: `${tag}Adams`, email: `c-${tag}@example.test` },
    { first_name: 'Amy', last_name: `${tag}Adams`, email: `d-${tag}@example.test` },
    { first_name: 'Bob', last_name: `${tag}Baker`, email: `a-${tag}@example.test` },
    { first_name: 'Cy', last_name: `${tag}Carter`, email: `b-${tag}@example.test` },
  ];
  const users = [];
  for (const overrides of made) users.push({ ...overrides, public_id: (await signUp(t, overrides)).user.public_id as string });
  const list = (sort: string, extra = '') => t.admin.get(`${USERS}?search=${tag}&sort=${sort}${extra}`);
  return { tag, users, list };
}

test('accounts sort by name (last, then first), email and sign-up time, either way', async () => {
  const { tag, users, list } = await accounts();
  const [zoeAdams, amyAdams, bob, cy] = users.map((u) => u.public_id);

  assert.deepEqual(ids(await list('name')), [amyAdams, zoeAdams, bob, cy], 'last name, then first name');
  assert.deepEqual(ids(await list('-name')), [cy, bob, zoeAdams, amyAdams]);
  assert.deepEqual(ids(await list('email')), [bob, cy, zoeAdams, amyAdams]);
  assert.deepEqual(ids(await list('-email')), [amyAdams, zoeAdams, cy, bob]);

  const stored = await t.db
    .selectFrom('users')
    .select(['public_id', 'created_at'])
    .where(
      'public_id',
      'in',
      users.map((u) => u.public_id),
    )
    .execute();
  const oldestFirst = stored
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.public_id.localeCompare(b.public_id))
    .map((u) => u.public_id);
  assert.deepEqual(ids(await list('created_at')), oldestFirst);
  assert.deepEqual(ids(await list('-created_at')), [...oldestFirst].reverse());
  assert.deepEqual(ids(await t.admin.get(`${USERS}?search=${tag}`)), [...oldestFirst].reverse(), 'newest first by default');
});

test('pages of a sorted list never repeat or skip an account', async () => {
  const { users, list } = await accounts();
  for (const sort of ['name', '-name', 'email', 'created_at', '-created_at']) {
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push(...ids(await list(sort, `&limit=1&page=${page}`)));
    assert.deepEqual(pages, ids(await list(sort)), sort);
    assert.equal(new Set(pages).size, users.length, sort);
  }
});

test('an unknown sort is refused with 400 naming the parameter', async () => {
  const response = await t.admin.get(`${USERS}?sort=password_hash`);
  assert.equal(response.status, 400, response.text);
  assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
  assert.ok(
    errorOf(response).details?.some((d: { field: string }) => d.field === 'sort'),
    response.text,
  );
});
