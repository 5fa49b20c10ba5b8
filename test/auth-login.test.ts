import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PASSWORD, USER_KEYS, errorOf, signUp, uniqueEmail } from './helpers/factories.js';
import { auditRows, isCleared, setCookie } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

// Many registrations from one IP: the REGISTER limit has its own tests in rate-limits.test.ts.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const LOGIN = '/api/v1/auth/login';

describe('POST /auth/login', () => {
  test('answers 200 with the User and a fresh session cookie; email is case-insensitive', async () => {
    const { email, user } = await signUp(t);
    const client = t.client();
    const response = await client.post(LOGIN, { email: email.toUpperCase(), password: PASSWORD });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.deepEqual(Object.keys(response.body.data).sort(), USER_KEYS);
    assert.equal(response.body.data.public_id, user.public_id);
    assert.equal(response.body.data.email, email);
    const cookie = setCookie(response, 'session');
    assert.ok(cookie && cookie.value.length >= 32);
    assert.equal(cookie.attributes.get('httponly'), true);
    assert.equal(cookie.attributes.get('samesite'), 'Lax');
    assert.equal(cookie.attributes.get('path'), '/');
    const me = await client.get('/api/v1/users/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.data.public_id, user.public_id);
  });

  test('wrong password and unknown email get the same 401 INVALID_CREDENTIALS, apart from request_id', async () => {
    const { email } = await signUp(t);
    const wrong = await t.client().post(LOGIN, { email, password: 'Wrong-Password-1' });
    const unknown = await t.client().post(LOGIN, { email: uniqueEmail('nobody'), password: PASSWORD });
    for (const response of [wrong, unknown]) {
      assert.equal(response.status, 401);
      assert.equal(errorOf(response).code, 'INVALID_CREDENTIALS');
      assert.equal(setCookie(response, 'session'), undefined);
    }
    assert.notEqual(wrong.body.request_id, unknown.body.request_id);
    assert.deepEqual({ ...wrong.body, request_id: null }, { ...unknown.body, request_id: null });
  });

  test('a missing password is 400, not a login attempt', async () => {
    const { email } = await signUp(t);
    const response = await t.client().post(LOGIN, { email });
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).details?.[0]?.field, 'password');
    assert.equal((await auditRows(t, 'auth.login_failed')).filter((r) => (r.changes as any)?.after?.email === email).length, 0);
  });

  test('audits auth.login on success and auth.login_failed on failure, with no secret in them', async () => {
    const { email, user } = await signUp(t);
    const ok = await t.client().post(LOGIN, { email, password: PASSWORD });
    assert.equal(ok.status, 200);
    const logins = await auditRows(t, 'auth.login', user.public_id);
    assert.equal(logins.length, 1);
    assert.equal(logins[0]!.actor_public_id, user.public_id);
    assert.equal(logins[0]!.actor_role, 'CUSTOMER');
    assert.equal(logins[0]!.request_id, ok.headers.get('x-request-id'));

    const bad = await t.client().post(LOGIN, { email, password: 'Wrong-Password-1' });
    assert.equal(bad.status, 401);
    const failures = await auditRows(t, 'auth.login_failed', user.public_id);
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.actor_public_id, null);
    assert.equal(failures[0]!.entity_type, 'user');
    assert.deepEqual(failures[0]!.changes, { after: { email } });
    assert.equal(failures[0]!.request_id, bad.headers.get('x-request-id'));
    assert.ok(!JSON.stringify(failures[0]).includes('Wrong-Password-1'));

    const stranger = uniqueEmail('nobody');
    await t.client().post(LOGIN, { email: stranger, password: PASSWORD });
    const strangerRows = (await auditRows(t, 'auth.login_failed')).filter((r) => (r.changes as any)?.after?.email === stranger);
    assert.equal(strangerRows.length, 1);
    assert.equal(strangerRows[0]!.entity_public_id, null);
    assert.ok(!JSON.stringify(strangerRows[0]).includes(PASSWORD));
  });

  test('login rotates the session: a new cookie value, and the old token is 401 at once', async () => {
    const { client, email } = await signUp(t);
    const before = client.cookies.get('session')!;
    const response = await client.post(LOGIN, { email, password: PASSWORD });
    assert.equal(response.status, 200);
    const afterToken = client.cookies.get('session')!;
    assert.ok(afterToken);
    assert.notEqual(afterToken, before);

    const replay = t.client();
    replay.cookies.set('session', before);
    const stale = await replay.get('/api/v1/users/me');
    assert.equal(stale.status, 401);
    assert.equal(errorOf(stale).code, 'UNAUTHENTICATED');
    assert.equal((await client.get('/api/v1/users/me')).status, 200);
  });

  test('the pre-session CSRF token stops working once signed in', async () => {
    const { email } = await signUp(t);
    const client = t.client();
    const preSessionToken = await client.csrf();
    assert.ok(client.cookies.has('presession'));
    const login = await client.post(LOGIN, { email, password: PASSWORD }, { csrf: preSessionToken });
    assert.equal(login.status, 200);
    assert.equal(client.cookies.has('presession'), false, 'the pre-session cookie is cleared');

    const stale = await client.patch('/api/v1/users/me', { first_name: 'Stale' }, { csrf: preSessionToken });
    assert.equal(stale.status, 403);
    assert.equal(errorOf(stale).code, 'CSRF_TOKEN_INVALID');
    const fresh = await client.patch('/api/v1/users/me', { first_name: 'Fresh' });
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.data.first_name, 'Fresh');
    assert.notEqual(await client.csrf(), preSessionToken);
  });
});

describe('DELETE /auth/session (logout)', () => {
  test('204, clears the cookie, revokes the session at once and audits auth.logout', async () => {
    const { client, user } = await signUp(t);
    const token = client.cookies.get('session')!;
    const [sessionRow] = await t.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.public_id', 's.revoked_at'])
      .where('u.public_id', '=', user.public_id)
      .execute();

    const response = await client.delete('/api/v1/auth/session');
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.ok(isCleared(setCookie(response, 'session')), 'Set-Cookie clears the session');
    assert.equal(setCookie(response, 'session')?.attributes.get('path'), '/');
    assert.equal(client.cookies.has('session'), false);

    const replay = t.client();
    replay.cookies.set('session', token);
    const stale = await replay.get('/api/v1/users/me');
    assert.equal(stale.status, 401);
    assert.equal(errorOf(stale).code, 'UNAUTHENTICATED');

    const row = await t.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('public_id', '=', sessionRow!.public_id)
      .executeTakeFirstOrThrow();
    assert.ok(row.revoked_at instanceof Date);
    const audit = await auditRows(t, 'auth.logout', sessionRow!.public_id);
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.entity_type, 'session');
    assert.equal(audit[0]!.actor_public_id, user.public_id);
  });

  test('only the current session ends; the same account elsewhere stays signed in', async () => {
    const { client, email } = await signUp(t);
    const other = t.client();
    assert.equal((await other.post(LOGIN, { email, password: PASSWORD })).status, 200);
    assert.equal((await client.delete('/api/v1/auth/session')).status, 204);
    assert.equal((await other.get('/api/v1/users/me')).status, 200);
  });

  test('without a session it is 401 and the logout is not audited', async () => {
    const before = (await auditRows(t, 'auth.logout')).length;
    const response = await t.client().delete('/api/v1/auth/session');
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
    assert.equal((await auditRows(t, 'auth.logout')).length, before);
  });

  test('a second logout with the replayed cookie is 401', async () => {
    const { client } = await signUp(t);
    const token = client.cookies.get('session')!;
    const csrf = await client.csrf();
    assert.equal((await client.delete('/api/v1/auth/session')).status, 204);
    const replay = t.client();
    replay.cookies.set('session', token);
    const again = await replay.delete('/api/v1/auth/session', { csrf });
    assert.equal(again.status, 401);
  });
});
