import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf, signInAs, signUp } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { SESSIONS, currentSessionId, listAll, threeSessions } from './helpers/sessions.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const DAY = 86_400_000;
const MINUTE = 60_000;

describe('GET /auth/session', () => {
  test('anonymous: 200 with authenticated false and no user (never 401)', async () => {
    const response = await t.client().get('/api/v1/auth/session');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { success: true, data: { authenticated: false, user: null, expires_at: null } });
  });

  test('signed in: the user with role and email_verified, and when the session ends if unused', async () => {
    const { client, user } = await signUp(t);
    const response = await client.get('/api/v1/auth/session');
    assert.equal(response.status, 200);
    const { data } = response.body;
    assert.equal(data.authenticated, true);
    assert.deepEqual(data.user, { public_id: user.public_id, email: user.email, role: 'CUSTOMER', email_verified: false });
    // Fresh session: the idle limit (7 days) comes before the absolute one (30 days).
    const expires = new Date(data.expires_at).getTime();
    assert.ok(Math.abs(expires - (t.clock.now().getTime() + 7 * DAY)) < MINUTE, data.expires_at);
  });

  test('reports the role of staff accounts', async () => {
    for (const role of ['ADMIN', 'SUPER_ADMIN'] as const) {
      const { client } = await signInAs(t, role);
      const response = await client.get('/api/v1/auth/session');
      assert.equal(response.body.data.user.role, role);
    }
  });

  test('a revoked or unknown cookie is simply "not authenticated"', async () => {
    const { client } = await signUp(t);
    const token = client.cookies.get('session')!;
    assert.equal((await client.delete('/api/v1/auth/session')).status, 204);
    for (const value of [token, 'not-a-real-token']) {
      const probe = t.client();
      probe.cookies.set('session', value);
      const response = await probe.get('/api/v1/auth/session');
      assert.equal(response.status, 200);
      assert.equal(response.body.data.authenticated, false);
      assert.equal(response.body.data.user, null);
    }
  });
});

describe('GET /auth/sessions', () => {
  test('lists my live sessions, newest first, with exactly one marked current', async () => {
    const { a, b, c } = await threeSessions(t);
    const response = await listAll(b);
    const { data, meta } = response.body;
    assert.equal(data.length, 3);
    assert.deepEqual(meta, { page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false, hasPrev: false });
    for (const session of data) {
      assert.deepEqual(Object.keys(session).sort(), ['created_at', 'current', 'ip', 'last_seen_at', 'public_id', 'user_agent']);
      assert.match(session.public_id, /^ses_[0-9A-Za-z]{16,}$/);
      assert.equal(session.ip, '127.0.0.1');
    }
    assert.deepEqual(data.map((s: any) => s.user_agent).slice(0, 2), ['device-c', 'device-b']);
    assert.deepEqual(
      data.map((s: any) => s.current),
      [false, true, false],
    );
    const created = data.map((s: any) => new Date(s.created_at).getTime());
    assert.ok(created[0] >= created[1] && created[1] >= created[2]);

    // Each client sees its own session as the current one.
    assert.equal(await currentSessionId(c), data[0].public_id);
    assert.equal(await currentSessionId(a), data[2].public_id);
  });

  test("shows neither revoked sessions nor other accounts' sessions", async () => {
    const mine = await threeSessions(t);
    const other = await signUp(t);
    assert.equal((await mine.c.delete('/api/v1/auth/session')).status, 204);
    const response = await listAll(mine.a);
    assert.equal(response.body.meta.total, 2);
    assert.deepEqual(response.body.data.map((s: any) => s.user_agent).includes('device-c'), false);
    assert.equal((await listAll(other.client)).body.meta.total, 1);
  });

  test('pages with accurate meta, no repeats, and an empty page past the end', async () => {
    const { a } = await threeSessions(t);
    const first = await listAll(a, '?limit=2');
    assert.equal(first.body.data.length, 2);
    assert.deepEqual(first.body.meta, { page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    const second = await listAll(a, '?limit=2&page=2');
    assert.equal(second.body.data.length, 1);
    assert.deepEqual(second.body.meta, { page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    const ids = [...first.body.data, ...second.body.data].map((s: any) => s.public_id);
    assert.equal(new Set(ids).size, 3);
    const beyond = await listAll(a, '?limit=2&page=3');
    assert.deepEqual(beyond.body.data, []);
    assert.deepEqual(beyond.body.meta, { page: 3, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
  });

  test('bad paging parameters are 400', async () => {
    const { client } = await signUp(t);
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?limit=abc', '?page=1.5']) {
      const response = await client.get(`${SESSIONS}${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
    assert.equal((await client.get(`${SESSIONS}?limit=100`)).status, 200);
  });

  test('anonymous is 401', async () => {
    const response = await t.client().get(SESSIONS);
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });
});

describe('DELETE /auth/sessions/{ses_id}', () => {
  test('revokes another session of mine: that client is 401 at once, mine still works, audited', async () => {
    const { a, b, user } = await threeSessions(t);
    const target = await currentSessionId(b);
    const response = await a.delete(`${SESSIONS}/${target}`);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');

    const revoked = await b.get('/api/v1/users/me');
    assert.equal(revoked.status, 401);
    assert.equal(errorOf(revoked).code, 'UNAUTHENTICATED');
    assert.equal((await a.get('/api/v1/users/me')).status, 200);
    assert.equal((await listAll(a)).body.meta.total, 2);

    const audit = await auditRows(t, 'auth.session_revoke', target);
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.entity_type, 'session');
    assert.equal(audit[0]!.actor_public_id, user.public_id);

    // Already revoked: nothing left to find.
    const again = await a.delete(`${SESSIONS}/${target}`);
    assert.equal(again.status, 404);
    assert.equal(errorOf(again).code, 'NOT_FOUND');
  });

  test("another account's session is 404 and keeps working", async () => {
    const mine = await signUp(t);
    const theirs = await signUp(t);
    const target = await currentSessionId(theirs.client);
    const response = await mine.client.delete(`${SESSIONS}/${target}`);
    assert.equal(response.status, 404);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal((await theirs.client.get('/api/v1/users/me')).status, 200);
    assert.equal((await auditRows(t, 'auth.session_revoke', target)).length, 0);
  });

  test('a malformed or wrongly prefixed id is 404', async () => {
    const { client, user } = await signUp(t);
    const mine = await currentSessionId(client);
    for (const id of ['nope', 'ses_short', user.public_id, mine.replace(/^ses_/, 'adr_'), `${mine}!`]) {
      const response = await client.delete(`${SESSIONS}/${encodeURIComponent(id)}`);
      assert.equal(response.status, 404, id);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
    assert.equal((await client.get('/api/v1/users/me')).status, 200);
  });

  test('revoking my own current session signs me out and clears the cookie', async () => {
    const { client } = await signUp(t);
    const mine = await currentSessionId(client);
    const response = await client.delete(`${SESSIONS}/${mine}`);
    assert.equal(response.status, 204);
    assert.equal(client.cookies.has('session'), false);
    const token = (await t.db.selectFrom('sessions').select('revoked_at').where('public_id', '=', mine).executeTakeFirstOrThrow())
      .revoked_at;
    assert.ok(token instanceof Date);
  });
});

describe('DELETE /auth/sessions (all others)', () => {
  test('revokes every other session of mine and keeps the current one', async () => {
    const { a, b, c, user } = await threeSessions(t);
    const bystander = await signUp(t);
    const keep = await currentSessionId(a);
    const others = [await currentSessionId(b), await currentSessionId(c)].sort();

    const response = await a.delete(SESSIONS);
    assert.equal(response.status, 204);
    assert.equal((await b.get('/api/v1/users/me')).status, 401);
    assert.equal((await c.get('/api/v1/users/me')).status, 401);
    assert.equal((await a.get('/api/v1/users/me')).status, 200);
    assert.equal((await bystander.client.get('/api/v1/users/me')).status, 200);

    const list = await listAll(a);
    assert.deepEqual(
      list.body.data.map((s: any) => [s.public_id, s.current]),
      [[keep, true]],
    );

    const audit = await auditRows(t, 'auth.session_revoke_others', user.public_id);
    assert.equal(audit.length, 1);
    assert.deepEqual([...(audit[0]!.changes as any).after.revoked].sort(), others);
  });

  test('with no other session it is still 204 and the current one survives', async () => {
    const { client } = await signUp(t);
    assert.equal((await client.delete(SESSIONS)).status, 204);
    assert.equal((await client.get('/api/v1/users/me')).status, 200);
  });
});
