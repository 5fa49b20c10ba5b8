import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestApp, type RunningApp } from './helpers/app.js';
import { PASSWORD, errorOf, signInAs, signUp, type Client } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const DAY = 86_400_000;
const MINUTE = 60_000;
const SESSIONS = '/api/v1/auth/sessions';

/** Signs the same account in from a new client; the user agent tells its sessions apart. */
async function loginFrom(app: RunningApp, email: string, userAgent: string): Promise<Client> {
  const client = app.client();
  const response = await client.post('/api/v1/auth/login', { email, password: PASSWORD }, { headers: { 'user-agent': userAgent } });
  assert.equal(response.status, 200, response.text);
  return client;
}

/** A user with three sessions: the sign-up one, then "device-b", then "device-c". */
async function threeSessions(app: RunningApp) {
  const first = await signUp(app);
  app.clock.advance(1_000); // distinct created_at, so "newest first" is decided by time alone
  const b = await loginFrom(app, first.email, 'device-b');
  app.clock.advance(1_000);
  const c = await loginFrom(app, first.email, 'device-c');
  return { ...first, a: first.client, b, c };
}

async function listAll(client: Client, query = '') {
  const response = await client.get(`${SESSIONS}${query}`);
  assert.equal(response.status, 200, response.text);
  return response;
}

/** The public ID of the session `client` is using, read from its own list. */
async function currentSessionId(client: Client): Promise<string> {
  const response = await listAll(client, '?limit=100');
  const current = response.body.data.filter((s: any) => s.current);
  assert.equal(current.length, 1);
  return current[0].public_id;
}

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
    assert.deepEqual(data.map((s: any) => s.current), [false, true, false]);
    const created = data.map((s: any) => new Date(s.created_at).getTime());
    assert.ok(created[0] >= created[1] && created[1] >= created[2]);

    // Each client sees its own session as the current one.
    assert.equal(await currentSessionId(c), data[0].public_id);
    assert.equal(await currentSessionId(a), data[2].public_id);
  });

  test('shows neither revoked sessions nor other accounts\' sessions', async () => {
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

  test('another account\'s session is 404 and keeps working', async () => {
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
    const token = (await t.db.selectFrom('sessions').select('revoked_at').where('public_id', '=', mine).executeTakeFirstOrThrow()).revoked_at;
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
    assert.deepEqual(list.body.data.map((s: any) => [s.public_id, s.current]), [[keep, true]]);

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

describe('session expiry', () => {
  test('idle: unused for more than 7 days is 401; activity pushes the idle limit forward', async () => {
    const app = await startTestApp();
    try {
      const { client } = await signUp(app);
      app.clock.advance(6 * DAY);
      assert.equal((await client.get('/api/v1/users/me')).status, 200);
      app.clock.advance(6 * DAY); // 12 days old, 6 days idle
      assert.equal((await client.get('/api/v1/users/me')).status, 200);
      app.clock.advance(7 * DAY + MINUTE);
      const expired = await client.get('/api/v1/users/me');
      assert.equal(expired.status, 401);
      assert.equal(errorOf(expired).code, 'UNAUTHENTICATED');
      assert.equal((await client.get('/api/v1/auth/session')).body.data.authenticated, false);
    } finally {
      await app.close();
    }
  });

  test('idle: SESSION_IDLE_DAYS is honoured', async () => {
    const app = await startTestApp({ SESSION_IDLE_DAYS: '2' });
    try {
      const { client } = await signUp(app);
      app.clock.advance(2 * DAY - 10 * MINUTE);
      assert.equal((await client.get('/api/v1/users/me')).status, 200);
      app.clock.advance(2 * DAY + MINUTE);
      assert.equal((await client.get('/api/v1/users/me')).status, 401);
    } finally {
      await app.close();
    }
  });

  test('absolute: 30 days after sign-in the session ends even when used every few days', async () => {
    const app = await startTestApp();
    try {
      const { client } = await signUp(app);
      for (const step of [6, 6, 6, 6, 5]) {
        app.clock.advance(step * DAY);
        assert.equal((await client.get('/api/v1/users/me')).status, 200, `still live at day ${app.clock.offsetMs / DAY}`);
      }
      // Day 29: the absolute expiry is now the nearer one.
      const state = await client.get('/api/v1/auth/session');
      const absoluteEnd = new Date(state.body.data.expires_at).getTime();
      assert.ok(Math.abs(absoluteEnd - (app.clock.now().getTime() + DAY)) < MINUTE, state.body.data.expires_at);

      app.clock.advance(DAY + MINUTE);
      const expired = await client.get('/api/v1/users/me');
      assert.equal(expired.status, 401);
      assert.equal(errorOf(expired).code, 'UNAUTHENTICATED');
    } finally {
      await app.close();
    }
  });

  test('absolute: SESSION_TTL_DAYS is honoured', async () => {
    const app = await startTestApp({ SESSION_TTL_DAYS: '3' });
    try {
      const { client } = await signUp(app);
      app.clock.advance(2 * DAY);
      assert.equal((await client.get('/api/v1/users/me')).status, 200);
      app.clock.advance(DAY + MINUTE);
      assert.equal((await client.get('/api/v1/users/me')).status, 401);
    } finally {
      await app.close();
    }
  });

  test('expires_at moves forward with activity', async () => {
    const app = await startTestApp();
    try {
      const { client } = await signUp(app);
      app.clock.advance(3 * DAY);
      const state = await client.get('/api/v1/auth/session');
      const expires = new Date(state.body.data.expires_at).getTime();
      // Used just now: unused from here, it ends 7 days from now (not 7 days after sign-up).
      assert.ok(Math.abs(expires - (app.clock.now().getTime() + 7 * DAY)) < MINUTE, state.body.data.expires_at);
    } finally {
      await app.close();
    }
  });

  test('expired sessions drop out of the session list', async () => {
    const app = await startTestApp();
    try {
      const { client, email } = await signUp(app);
      app.clock.advance(5 * DAY);
      const recent = await loginFrom(app, email, 'recent');
      app.clock.advance(3 * DAY); // the first is 8 days idle, the second 3
      const response = await listAll(recent);
      assert.deepEqual(response.body.data.map((s: any) => s.user_agent), ['recent']);
      assert.equal(response.body.meta.total, 1);
      assert.equal((await client.get('/api/v1/users/me')).status, 401);
    } finally {
      await app.close();
    }
  });

  test('a session revoked in the database is 401 on the next request', async () => {
    const { client } = await signUp(t);
    const mine = await currentSessionId(client);
    await t.db.updateTable('sessions').set({ revoked_at: new Date() }).where('public_id', '=', mine).execute();
    const response = await client.get('/api/v1/users/me');
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });
});

describe('suspended account', () => {
  test('its live session stops working and the right password gets 403 FORBIDDEN', async () => {
    const { client, email, user } = await signUp(t);
    await t.db.updateTable('users').set({ status: 'SUSPENDED' }).where('public_id', '=', user.public_id).execute();

    const stale = await client.get('/api/v1/users/me');
    assert.equal(stale.status, 401);
    assert.equal(errorOf(stale).code, 'UNAUTHENTICATED');
    assert.equal((await client.get('/api/v1/auth/session')).body.data.authenticated, false);

    const login = await t.client().post('/api/v1/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 403);
    assert.equal(errorOf(login).code, 'FORBIDDEN');
    assert.equal(login.headers.getSetCookie().some((line) => line.startsWith('session=') && !line.startsWith('session=;')), false);

    // The wrong password still answers like any wrong password: suspension is not revealed to a guesser.
    const guess = await t.client().post('/api/v1/auth/login', { email, password: 'Wrong-Password-1' });
    assert.equal(guess.status, 401);
    assert.equal(errorOf(guess).code, 'INVALID_CREDENTIALS');

    const liveSessions = await t.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.id')
      .where('u.public_id', '=', user.public_id)
      .where('s.revoked_at', 'is', null)
      .execute();
    assert.equal(liveSessions.length, 1, 'the refused login created no session');
  });
});
