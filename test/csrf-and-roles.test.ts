import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { PASSWORD, errorOf, signInAs, signUp, uniqueEmail } from './helpers/factories.js';
import { auditRows, setCookie } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/** Test-only routes, one per access level, registered before the server listens. */
function testRoutes(app: FastifyInstance) {
  const ok = async () => ({ ok: true });
  app.get('/__admin', { config: { access: 'admin' } }, ok);
  app.get('/__super', { config: { access: 'super_admin' } }, ok);
  app.get('/__default', ok); // declares no access: closed to anonymous callers
  app.post(
    '/__admin/echo',
    {
      config: { access: 'admin' },
      schema: {
        body: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    },
    async (request) => ({ echoed: (request.body as { name: string }).name }),
  );
}

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, setup: testRoutes });

const ME = '/api/v1/users/me';

async function firstNameOf(publicId: string) {
  return (await t.db.selectFrom('users').select('first_name').where('public_id', '=', publicId).executeTakeFirstOrThrow()).first_name;
}

function expectCsrfRefused(response: { status: number; body: any; text: string }) {
  assert.equal(response.status, 403, response.text);
  assert.equal(errorOf(response).code, 'CSRF_TOKEN_INVALID');
}

describe('GET /auth/csrf-token', () => {
  test('without a session: a token plus an HttpOnly pre-session cookie', async () => {
    const client = t.client();
    const response = await client.get('/api/v1/auth/csrf-token');
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    assert.equal(typeof response.body.data.csrf_token, 'string');
    assert.ok(response.body.data.csrf_token.length >= 32);
    const cookie = setCookie(response, 'presession');
    assert.ok(cookie && cookie.value.length >= 32);
    assert.equal(cookie.attributes.get('httponly'), true);
    assert.equal(cookie.attributes.get('samesite'), 'Lax');
    assert.equal(cookie.attributes.get('path'), '/');
    assert.notEqual(cookie.value, response.body.data.csrf_token, 'the token is not the cookie itself');
  });

  test('with a session: stable for that session, different for another, and no pre-session cookie', async () => {
    const one = await signUp(t);
    const two = await signUp(t);
    const first = await one.client.get('/api/v1/auth/csrf-token');
    const second = await one.client.get('/api/v1/auth/csrf-token');
    assert.equal(first.body.data.csrf_token, second.body.data.csrf_token);
    assert.equal(setCookie(first, 'presession'), undefined);
    const other = await two.client.get('/api/v1/auth/csrf-token');
    assert.notEqual(other.body.data.csrf_token, first.body.data.csrf_token);
  });
});

describe('CSRF on writes', () => {
  test('a write without the header is 403 CSRF_TOKEN_INVALID and changes nothing', async () => {
    const { client, user } = await signUp(t);
    expectCsrfRefused(await client.patch(ME, { first_name: 'Mallory' }, { csrf: false }));
    assert.equal(await firstNameOf(user.public_id), 'Ada');
  });

  test('a wrong or empty token is 403', async () => {
    const { client, user } = await signUp(t);
    const good = await client.csrf();
    for (const bad of ['x', good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A'), good + 'x']) {
      expectCsrfRefused(await client.patch(ME, { first_name: 'Mallory' }, { csrf: bad }));
    }
    expectCsrfRefused(await client.patch(ME, { first_name: 'Mallory' }, { headers: { 'x-csrf-token': '' } }));
    assert.equal(await firstNameOf(user.public_id), 'Ada');
    assert.equal((await client.patch(ME, { first_name: 'Grace' }, { csrf: good })).status, 200);
  });

  test("a token from another client's session is 403", async () => {
    const victim = await signUp(t);
    const attacker = await signUp(t);
    const attackerToken = await attacker.client.csrf();
    expectCsrfRefused(await victim.client.patch(ME, { first_name: 'Mallory' }, { csrf: attackerToken }));
    // Even another session of the same account does not lend its token.
    const sameAccount = t.client();
    assert.equal((await sameAccount.post('/api/v1/auth/login', { email: victim.email, password: PASSWORD })).status, 200);
    expectCsrfRefused(await victim.client.patch(ME, { first_name: 'Mallory' }, { csrf: await sameAccount.csrf() }));
    assert.equal(await firstNameOf(victim.user.public_id), 'Ada');
  });

  test('DELETE is protected too: logout without a token is 403 and the session lives on', async () => {
    const { client } = await signUp(t);
    expectCsrfRefused(await client.delete('/api/v1/auth/session', { csrf: false }));
    expectCsrfRefused(await client.delete('/api/v1/auth/sessions', { csrf: false }));
    assert.equal((await client.get(ME)).status, 200);
  });

  test('reads need no token', async () => {
    const { client } = await signUp(t);
    const response = await client.get(ME, { headers: {} });
    assert.equal(response.status, 200);
  });

  test('login without a token is 403: no session, no audit entry, no counted failure', async () => {
    const { email, user } = await signUp(t);
    const client = t.client();
    const response = await client.post('/api/v1/auth/login', { email, password: PASSWORD }, { csrf: false });
    expectCsrfRefused(response);
    assert.equal(setCookie(response, 'session'), undefined);
    assert.equal((await auditRows(t, 'auth.login', user.public_id)).length, 0);
    const limits = await t.db.selectFrom('rate_limits').selectAll().where('key', '=', email).execute();
    assert.deepEqual(limits, []);
  });

  test("login with a token but without its pre-session cookie, or with another visitor's, is 403", async () => {
    const { email } = await signUp(t);
    const visitor = t.client();
    const visitorToken = await visitor.csrf();
    // No cookie at all.
    expectCsrfRefused(await t.client().post('/api/v1/auth/login', { email, password: PASSWORD }, { csrf: visitorToken }));
    // A pre-session cookie of its own, but someone else's token.
    const other = t.client();
    await other.csrf();
    expectCsrfRefused(await other.post('/api/v1/auth/login', { email, password: PASSWORD }, { csrf: visitorToken }));
    // The visitor's own pair works.
    assert.equal((await visitor.post('/api/v1/auth/login', { email, password: PASSWORD }, { csrf: visitorToken })).status, 200);
  });

  test('register without a token is 403 and creates no account', async () => {
    const email = uniqueEmail('nocsrf');
    const response = await t
      .client()
      .post('/api/v1/auth/register', { email, password: PASSWORD, first_name: 'A', last_name: 'B' }, { csrf: false });
    expectCsrfRefused(response);
    assert.equal(setCookie(response, 'session'), undefined);
    const rows = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
    assert.equal(rows.length, 0);
  });
});

describe('order of checks on a protected write', () => {
  test('no session and no token: 401 first', async () => {
    const response = await t.client().patch(ME, { first_name: 'X' }, { csrf: false });
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });

  test('no session, a valid pre-session token and an invalid body: still 401', async () => {
    const response = await t.client().patch(ME, { nope: true });
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });

  test('session ok, bad token, invalid body: 403 before validation', async () => {
    const { client } = await signUp(t);
    expectCsrfRefused(await client.patch(ME, { first_name: '', nope: 1 }, { csrf: false }));
    expectCsrfRefused(await client.patch(ME, {}, { csrf: 'wrong' }));
    expectCsrfRefused(await client.patch('/api/v1/users/me/password', { current_password: '' }, { csrf: 'wrong' }));
  });

  test('session ok, good token, invalid body: 400', async () => {
    const { client } = await signUp(t);
    const response = await client.patch(ME, { first_name: '' });
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
  });

  test('CSRF comes before the role check, and the role check before validation', async () => {
    const customer = await signUp(t);
    expectCsrfRefused(await customer.client.post('/__admin/echo', { name: 'x' }, { csrf: false }));
    const forbidden = await customer.client.post('/__admin/echo', { bogus: 1 });
    assert.equal(forbidden.status, 403);
    assert.equal(errorOf(forbidden).code, 'FORBIDDEN');

    const admin = await signInAs(t, 'ADMIN');
    expectCsrfRefused(await admin.client.post('/__admin/echo', { bogus: 1 }, { csrf: false }));
    const invalid = await admin.client.post('/__admin/echo', { bogus: 1 });
    assert.equal(invalid.status, 400);
    assert.equal(errorOf(invalid).code, 'VALIDATION_ERROR');
    const ok = await admin.client.post('/__admin/echo', { name: 'stock' });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { echoed: 'stock' });
  });

  test('existence comes last: a malformed session id with a bad token is 403, with a good one 404', async () => {
    const { client } = await signUp(t);
    expectCsrfRefused(await client.delete('/api/v1/auth/sessions/nope', { csrf: false }));
    assert.equal((await client.delete('/api/v1/auth/sessions/nope')).status, 404);
  });
});

describe('role guard', () => {
  test('anonymous callers get 401 UNAUTHENTICATED on admin and super-admin routes', async () => {
    for (const path of ['/__admin', '/__super', '/__default']) {
      const response = await t.client().get(path);
      assert.equal(response.status, 401, path);
      assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
    }
  });

  test('CUSTOMER gets 403 FORBIDDEN on both; a route that declares no access is open to any signed-in user', async () => {
    const { client } = await signUp(t);
    for (const path of ['/__admin', '/__super']) {
      const response = await client.get(path);
      assert.equal(response.status, 403, path);
      assert.equal(errorOf(response).code, 'FORBIDDEN');
    }
    assert.deepEqual((await client.get('/__default')).body, { ok: true });
  });

  test('ADMIN passes admin routes but gets 403 on super-admin routes', async () => {
    const { client } = await signInAs(t, 'ADMIN');
    const admin = await client.get('/__admin');
    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body, { ok: true });
    const superOnly = await client.get('/__super');
    assert.equal(superOnly.status, 403);
    assert.equal(errorOf(superOnly).code, 'FORBIDDEN');
  });

  test('SUPER_ADMIN passes both', async () => {
    const { client } = await signInAs(t, 'SUPER_ADMIN');
    for (const path of ['/__admin', '/__super']) {
      const response = await client.get(path);
      assert.equal(response.status, 200, path);
      assert.deepEqual(response.body, { ok: true });
    }
  });

  test('the role is read on every request: a demoted admin loses access at once', async () => {
    const { client, user } = await signInAs(t, 'ADMIN');
    assert.equal((await client.get('/__admin')).status, 200);
    await t.db.updateTable('users').set({ role: 'CUSTOMER' }).where('public_id', '=', user.public_id).execute();
    const response = await client.get('/__admin');
    assert.equal(response.status, 403);
    assert.equal(errorOf(response).code, 'FORBIDDEN');
  });

  test("a suspended admin's session is 401, not 403", async () => {
    const { client, user } = await signInAs(t, 'ADMIN');
    await t.db.updateTable('users').set({ status: 'SUSPENDED' }).where('public_id', '=', user.public_id).execute();
    const response = await client.get('/__admin');
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });
});
