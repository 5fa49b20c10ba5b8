import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { errorOf, signUp } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * `GET /admin/users?joined_from=&joined_to=`: the accounts created in a range, so the dashboard's
 * "new customers" figure links to the list it counts ([from, to), as `placed_from`/`placed_to` of orders).
 */

const USERS = '/api/v1/admin/users';
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['ADMIN'] });

test('joined_from is inclusive, joined_to exclusive; with role and search they narrow together', async () => {
  const tag = `jnd${randomBytes(4).toString('hex')}`;
  const at = ['2026-03-01T00:00:00.000Z', '2026-03-10T12:00:00.000Z', '2026-03-20T00:00:00.000Z'];
  const ids: string[] = [];
  for (const [i, created] of at.entries()) {
    const { user } = await signUp(t, { last_name: `${tag}${i}` });
    // created_at is set once by the database; the test places the accounts in time in SQL.
    await sql`UPDATE users SET created_at = ${new Date(created)} WHERE public_id = ${user.public_id}`.execute(t.db);
    ids.push(user.public_id);
  }
  const list = async (range: string) => {
    const response = await t.admin.get(`${USERS}?search=${tag}&role=CUSTOMER&sort=created_at${range}`);
    assert.equal(response.status, 200, response.text);
    return { ids: response.body.data.map((u: { public_id: string }) => u.public_id), total: response.body.meta.total };
  };

  assert.deepEqual(await list(`&joined_from=${at[1]}`), { ids: ids.slice(1), total: 2 }, 'from is inclusive');
  assert.deepEqual(await list(`&joined_to=${at[2]}`), { ids: ids.slice(0, 2), total: 2 }, 'to is exclusive');
  assert.deepEqual(await list(`&joined_from=${at[0]}&joined_to=${at[1]}`), { ids: ids.slice(0, 1), total: 1 });
  assert.deepEqual(await list(`&joined_from=2026-04-01T00:00:00Z`), { ids: [], total: 0 });
  assert.deepEqual((await t.admin.get(`${USERS}?search=${tag}&role=ADMIN&joined_from=${at[0]}`)).body.data, [], 'role still applies');
});

test('a joined bound that is not an instant is 400 naming it', async () => {
  for (const name of ['joined_from', 'joined_to']) {
    const response = await t.admin.get(`${USERS}?${name}=yesterday`);
    assert.equal(response.status, 400);
    const error = errorOf(response);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.ok(
      (error.details ?? []).some((d) => d.field.includes(name)),
      JSON.stringify(error.details),
    );
  }
});
