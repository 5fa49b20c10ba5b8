import assert from 'node:assert/strict';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { describe, test } from 'node:test';
import { errorOf, PASSWORD, signUp } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/** Issue 12, part 2: credentials and tokens under abuse. */
// Mail stays in the outbox (the worker's first run is at start), so tests read tokens from it.
const t = useApp({
  env: {
    RATE_LIMIT_LOGIN: '3/15m',
    RATE_LIMIT_REGISTER: '0',
    RATE_LIMIT_PASSWORD_RESET: '0',
    RATE_LIMIT_EMAIL_CHANGE: '0',
    EMAIL_POLL_INTERVAL_MS: '600000',
  },
});

const API = '/api/v1';
const NEW_PASSWORD = 'Brand-New-Pass-7';

/** The token of the latest queued email of `kind` to `recipient`. */
async function queuedToken(recipient: string, kind: string): Promise<string> {
  const row = await t.db
    .selectFrom('outbox')
    .select('payload')
    .where('recipient', '=', recipient)
    .where('kind', '=', kind)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return String(row.payload.token);
}

/**
 * Counts scrypt runs in this process (the app runs in it). A spy on the real
 * function: the work is still done. Node re-binds the ESM named exports of a
 * built-in module to its CommonJS object on syncBuiltinESMExports().
 */
function scryptCounter() {
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const original = crypto.scrypt;
  let count = 0;
  crypto.scrypt = ((...args: Parameters<typeof original>) => {
    count++;
    return (original as (...a: unknown[]) => void)(...args);
  }) as typeof original;
  syncBuiltinESMExports();
  return {
    get count() {
      return count;
    },
    restore() {
      crypto.scrypt = original;
      syncBuiltinESMExports();
    },
  };
}

describe('re-checking the password', () => {
  test('password change: guesses count before the check; over the limit even the right password is 429; failures are audited', async () => {
    const { client, user } = await signUp(t);
    const change = (current: string) => client.patch(`${API}/users/me/password`, { current_password: current, new_password: NEW_PASSWORD });
    for (let i = 0; i < 3; i++) assert.equal(errorOf(await change(`wrong-${i}-X`)).code, 'INVALID_PASSWORD');
    const right = await change(PASSWORD);
    assert.equal(right.status, 429, right.text);
    assert.ok(Number(right.headers.get('retry-after')) > 0);
    assert.equal((await auditRows(t, 'auth.password_check_failed', user.public_id)).length, 3);
  });

  test('email change: the same window; a right password gives its count back', async () => {
    const { client, user } = await signUp(t);
    const start = (password: string) => client.post(`${API}/users/me/email`, { new_email: `new-${Date.now()}@example.test`, password });
    assert.equal((await start(PASSWORD)).status, 202);
    assert.equal((await start(PASSWORD)).status, 202);
    assert.equal((await start(PASSWORD)).status, 202);
    assert.equal((await start(PASSWORD)).status, 202); // right answers never fill the window
    for (let i = 0; i < 3; i++) assert.equal(errorOf(await start(`wrong-${i}-X`)).code, 'INVALID_PASSWORD');
    assert.equal((await start(PASSWORD)).status, 429);
    assert.equal((await auditRows(t, 'auth.password_check_failed', user.public_id)).length, 3);
  });

  test('parallel guesses are all counted: at most the limit of them are checked', async () => {
    const { client } = await signUp(t);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.patch(`${API}/users/me/password`, { current_password: `guess-${i}-X`, new_password: NEW_PASSWORD }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 400).length, 3, String(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 9, String(statuses));
  });
});

describe('reset and change tokens', () => {
  test('an unknown or spent reset token costs no password hashing', async () => {
    const { email } = await signUp(t);
    assert.equal((await t.client().post(`${API}/auth/password-reset`, { email })).status, 202);
    const token = await queuedToken(email, 'password_reset');
    assert.equal((await t.client().post(`${API}/auth/password-reset/verify`, { token, new_password: NEW_PASSWORD })).status, 204);

    const scrypt = scryptCounter();
    try {
      for (let i = 0; i < 5; i++) {
        const unknown = await t.client().post(`${API}/auth/password-reset/verify`, { token: `unknown-${i}`, new_password: NEW_PASSWORD });
        assert.equal(errorOf(unknown).code, 'NOT_FOUND');
        const spent = await t.client().post(`${API}/auth/password-reset/verify`, { token, new_password: NEW_PASSWORD });
        assert.equal(errorOf(spent).code, 'TOKEN_EXPIRED');
      }
      assert.equal(scrypt.count, 0);
    } finally {
      scrypt.restore();
    }
  });

  test('a burst of requests with one valid reset token hashes one password and resets once', async () => {
    const { email } = await signUp(t);
    assert.equal((await t.client().post(`${API}/auth/password-reset`, { email })).status, 202);
    const token = await queuedToken(email, 'password_reset');
    const scrypt = scryptCounter();
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => t.client().post(`${API}/auth/password-reset/verify`, { token, new_password: NEW_PASSWORD })),
      );
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 204).length, 1, String(statuses));
      assert.ok(
        responses.every((r) => r.status === 204 || errorOf(r).code === 'TOKEN_EXPIRED'),
        String(statuses),
      );
      assert.equal(scrypt.count, 1);
    } finally {
      scrypt.restore();
    }
    assert.equal((await t.client().post(`${API}/auth/login`, { email, password: NEW_PASSWORD })).status, 200);
  });

  test('changing the password ends every reset and email-change link mailed before', async () => {
    const { client, email } = await signUp(t);
    assert.equal((await t.client().post(`${API}/auth/password-reset`, { email })).status, 202);
    const reset = await queuedToken(email, 'password_reset');
    const newEmail = `moved-${Date.now()}@example.test`;
    assert.equal((await client.post(`${API}/users/me/email`, { new_email: newEmail, password: PASSWORD })).status, 202);
    const change = await queuedToken(newEmail, 'email_change_confirm');

    assert.equal((await client.patch(`${API}/users/me/password`, { current_password: PASSWORD, new_password: NEW_PASSWORD })).status, 204);
    assert.equal(
      errorOf(await t.client().post(`${API}/auth/password-reset/verify`, { token: reset, new_password: 'Other-Pass-33' })).code,
      'TOKEN_EXPIRED',
    );
    assert.equal(errorOf(await client.post(`${API}/users/me/email/verify`, { token: change })).code, 'TOKEN_EXPIRED');
    assert.equal((await t.client().post(`${API}/auth/login`, { email, password: NEW_PASSWORD })).status, 200);
  });

  test('resetting the password ends the other links too', async () => {
    const { client, email } = await signUp(t);
    const newEmail = `moved-${Date.now()}@example.test`;
    assert.equal((await client.post(`${API}/users/me/email`, { new_email: newEmail, password: PASSWORD })).status, 202);
    const change = await queuedToken(newEmail, 'email_change_confirm');
    assert.equal((await t.client().post(`${API}/auth/password-reset`, { email })).status, 202);
    const reset = await queuedToken(email, 'password_reset');
    assert.equal((await t.client().post(`${API}/auth/password-reset/verify`, { token: reset, new_password: NEW_PASSWORD })).status, 204);
    // The reset signed every session out; sign in again to try the old change link from a live session.
    const again = t.client();
    assert.equal((await again.post(`${API}/auth/login`, { email, password: NEW_PASSWORD })).status, 200);
    const verify = await client.post(`${API}/users/me/email/verify`, { token: change });
    assert.ok(verify.status === 401 || errorOf(verify).code === 'TOKEN_EXPIRED', verify.text);
    const row = await t.db
      .selectFrom('account_tokens')
      .select('used_at')
      .where('purpose', '=', 'EMAIL_CHANGE')
      .where('new_email', '=', newEmail)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.used_at, null);
  });
});

describe('limits and identifiers', () => {
  test('verification resend is limited per account (RATE_LIMIT_VERIFY_RESEND, 3 per 15 minutes by default)', async () => {
    const { client } = await signUp(t);
    for (let i = 0; i < 3; i++) assert.equal((await client.post(`${API}/auth/email-verification/resend`)).status, 202);
    const fourth = await client.post(`${API}/auth/email-verification/resend`);
    assert.equal(fourth.status, 429);
    assert.equal(errorOf(fourth).code, 'RATE_LIMITED');
    t.clock.advance(15 * 60_000 + 1000);
    assert.equal((await client.post(`${API}/auth/email-verification/resend`)).status, 202);
  });

  test("a caller's x-request-id is not the request ID the audit log records", async () => {
    const { email } = await signUp(t);
    const response = await t
      .client()
      .post(`${API}/auth/login`, { email, password: PASSWORD }, { headers: { 'x-request-id': 'spoofed-request-1' } });
    assert.equal(response.status, 200);
    const ours = response.headers.get('x-request-id');
    assert.ok(ours && ours !== 'spoofed-request-1');
    const entry = await t.db
      .selectFrom('audit_log')
      .select('request_id')
      .where('action', '=', 'auth.login')
      .where('entity_public_id', '=', response.body.data.public_id)
      .executeTakeFirstOrThrow();
    assert.equal(entry.request_id, ours);
  });
});
