import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestApp } from './helpers/app.js';
import { PASSWORD, errorOf, signInAs, signUp, verifyEmail } from './helpers/factories.js';
import { currentSessionId, listAll, loginFrom } from './helpers/sessions.js';
import { useApp } from './helpers/use-app.js';

/** When sessions end: idle and absolute expiry (each case on an app of its own, its clock moved), and a suspended account. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

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
      assert.deepEqual(
        response.body.data.map((s: any) => s.user_agent),
        ['recent'],
      );
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

describe('staff sessions end sooner', () => {
  test('idle: a staff session unused for 8 hours is 401 while a customer signed in as long ago is still in', async () => {
    const app = await startTestApp();
    try {
      const [admin, superAdmin, { client: shopper }] = await Promise.all([
        signInAs(app, 'ADMIN'),
        signInAs(app, 'SUPER_ADMIN'),
        signUp(app),
      ]);
      app.clock.advance(7 * HOUR);
      assert.equal((await admin.client.get('/api/v1/admin/orders')).status, 200);
      // Used just now: the session says it ends 8 hours from now, not in a week.
      const state = (await admin.client.get('/api/v1/auth/session')).body.data;
      assert.ok(Math.abs(new Date(state.expires_at).getTime() - (app.clock.now().getTime() + 8 * HOUR)) < MINUTE, state.expires_at);
      app.clock.advance(8 * HOUR + MINUTE);
      for (const staff of [admin, superAdmin]) {
        const expired = await staff.client.get('/api/v1/admin/orders');
        assert.equal(expired.status, 401);
        assert.equal(errorOf(expired).code, 'UNAUTHENTICATED');
      }
      assert.equal((await shopper.get('/api/v1/users/me')).status, 200, 'a customer keeps the customer limits');
      // Signing in again is all it takes.
      assert.equal((await admin.client.post('/api/v1/auth/login', { email: admin.email, password: PASSWORD })).status, 200);
      assert.equal((await admin.client.get('/api/v1/admin/orders')).status, 200);
    } finally {
      await app.close();
    }
  });

  test('absolute: a day after sign-in a staff session ends even when used every hour; its own list of sessions agrees', async () => {
    const app = await startTestApp();
    try {
      const admin = await signInAs(app, 'ADMIN');
      for (let hour = 1; hour <= 23; hour += 1) {
        app.clock.advance(HOUR);
        assert.equal((await admin.client.get('/api/v1/auth/sessions')).body.meta.total, 1, `live at hour ${hour}`);
      }
      app.clock.advance(HOUR + MINUTE);
      assert.equal((await admin.client.get('/api/v1/admin/orders')).status, 401);
    } finally {
      await app.close();
    }
  });

  test('STAFF_SESSION_IDLE_HOURS and STAFF_SESSION_TTL_HOURS are honoured; a role change starts the new limits at the next sign-in', async () => {
    const app = await startTestApp({ STAFF_SESSION_IDLE_HOURS: '1', STAFF_SESSION_TTL_HOURS: '2' });
    try {
      const admin = await signInAs(app, 'ADMIN');
      app.clock.advance(HOUR - MINUTE);
      assert.equal((await admin.client.get('/api/v1/admin/orders')).status, 200);
      app.clock.advance(HOUR - MINUTE);
      assert.equal((await admin.client.get('/api/v1/admin/orders')).status, 200, 'under an hour unused, under two since sign-in');
      app.clock.advance(3 * MINUTE);
      assert.equal((await admin.client.get('/api/v1/admin/orders')).status, 401, 'two hours since sign-in');

      // A customer promoted to staff is signed out by the change (contract), and then has the staff limits.
      const { client: promoted, email, user } = await signUp(app);
      const superAdmin = await signInAs(app, 'SUPER_ADMIN');
      await verifyEmail(app, email);
      assert.equal((await superAdmin.client.patch(`/api/v1/admin/users/${user.public_id}/role`, { role: 'ADMIN' })).status, 200);
      assert.equal((await promoted.get('/api/v1/users/me')).status, 401);
      assert.equal((await promoted.post('/api/v1/auth/login', { email, password: PASSWORD })).status, 200);
      app.clock.advance(HOUR + MINUTE);
      assert.equal((await promoted.get('/api/v1/users/me')).status, 401);
    } finally {
      await app.close();
    }
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
    assert.equal(
      login.headers.getSetCookie().some((line) => line.startsWith('session=') && !line.startsWith('session=;')),
      false,
    );

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
