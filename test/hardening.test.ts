import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf, PASSWORD, signInAs, signUp, uniqueEmail } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Behaviours added after review: each test fails without its fix. */
const t = useApp({ env: { RATE_LIMIT_LOGIN: '2/15m', RATE_LIMIT_REGISTER: '0' } });

describe('review hardening', () => {
  test('names of only spaces are refused on register and on profile edit', async () => {
    const blank = await t
      .client()
      .post('/api/v1/auth/register', { email: uniqueEmail(), password: PASSWORD, first_name: '   ', last_name: 'Lovelace' });
    assert.equal(blank.status, 400);
    assert.deepEqual(
      errorOf(blank).details?.map((d) => d.field),
      ['first_name'],
    );
    const { client } = await signUp(t);
    const edit = await client.patch('/api/v1/users/me', { last_name: ' ' });
    assert.equal(edit.status, 400);
    assert.equal(errorOf(edit).details?.[0]?.field, 'last_name');
  });

  test('wrong current passwords on password change count as login failures and end in 429', async () => {
    const { client, email } = await signUp(t);
    const wrong = () => client.patch('/api/v1/users/me/password', { current_password: 'not-it-1', new_password: 'Another-Pass-2' });
    assert.equal(errorOf(await wrong()).code, 'INVALID_PASSWORD');
    assert.equal(errorOf(await wrong()).code, 'INVALID_PASSWORD');
    const third = await wrong();
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) > 0);
    // The same window guards the login door of that account.
    const login = await t.client().post('/api/v1/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 429);
  });

  test('a P&L over more than ten years is 400', async () => {
    const { client } = await signInAs(t, 'SUPER_ADMIN');
    const response = await client.get('/api/v1/admin/analytics/pnl?from=1900-01-01&to=2026-01-01');
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    assert.equal((await client.get('/api/v1/admin/analytics/pnl?from=2016-01-01&to=2026-01-01')).status, 200);
  });

  test('category link and unlink audit entries carry before and after', async () => {
    const { client } = await signInAs(t, 'ADMIN');
    const category = (await client.post('/api/v1/admin/categories', { name: 'Linked' })).body.data.public_id;
    const product = (await client.post('/api/v1/admin/products', { name: 'Linkable' })).body.data.public_id;
    assert.equal((await client.put(`/api/v1/admin/categories/${category}/products/${product}`)).status, 204);
    assert.equal((await client.delete(`/api/v1/admin/categories/${category}/products/${product}`)).status, 204);
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('entity_public_id', '=', category)
      .where('action', 'in', ['category.link_product', 'category.unlink_product'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.action, (r.changes as any).before.linked, (r.changes as any).after.linked]),
      [
        ['category.link_product', false, true],
        ['category.unlink_product', true, false],
      ],
    );
  });
});
