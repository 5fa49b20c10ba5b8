import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PASSWORD, errorOf, signUp, uniqueEmail } from './helpers/factories.js';
import { linkFrom, subjectOf, tokenFrom, waitFor } from './helpers/mail.js';
import { sendDueMail } from './helpers/outbox.js';
import { RESET_SUBJECT as SUBJECT, resetToken as requestResetToken } from './helpers/recovery.js';
import { useApp } from './helpers/use-app.js';

// Every request comes from 127.0.0.1, so the per-IP count is switched off here and tested on an app of its own.
const t = useApp({ mail: true, env: { EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_PASSWORD_RESET: '0' } });

const REQUEST = '/api/v1/auth/password-reset';
const RESET = '/api/v1/auth/password-reset/verify';
const NEW_PASSWORD = 'Fresh-Start-2024';
const HOUR = 3_600_000;
const MINUTE = 60_000;

const resetToken = (email: string) => requestResetToken(t, email);

const login = (email: string, password: string) => t.client().post('/api/v1/auth/login', { email, password });

describe('POST /auth/password-reset', () => {
  test('202 with identical empty bodies for a known and an unknown email; only the known one gets an email', async () => {
    const { email } = await signUp(t);
    const unknown = uniqueEmail('nobody');
    const a = await t.client().post(REQUEST, { email: unknown });
    const b = await t.client().post(REQUEST, { email });
    assert.equal(a.status, 202, a.text);
    assert.equal(b.status, 202, b.text);
    assert.equal(a.text, '');
    assert.equal(a.text, b.text);
    assert.equal(a.headers.get('content-type'), b.headers.get('content-type'));

    const message = await t.mail.waitForMail(email, SUBJECT);
    assert.ok(tokenFrom(message.raw).length >= 32);
    assert.ok(linkFrom(message.raw).startsWith(`${t.config.publicBaseUrl}/reset-password?token=`), linkFrom(message.raw));
    await sendDueMail(t);
    assert.equal(t.mail.to(unknown).length, 0);
    const queued = await t.db.selectFrom('outbox').select('id').where('recipient', '=', unknown).execute();
    assert.equal(queued.length, 0);
  });

  test('the email is matched case-insensitively', async () => {
    const { email } = await signUp(t);
    await t.client().post(REQUEST, { email: email.toUpperCase() });
    const message = await t.mail.waitForMail(email, SUBJECT);
    assert.deepEqual(message.to, [email]);
  });

  test('a body without email, or with unknown fields, is 400', async () => {
    for (const body of [{}, { email: 'a@example.test', extra: true }]) {
      const response = await t.client().post(REQUEST, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });
});

describe('POST /auth/password-reset/verify', () => {
  test('204 sets the new password, signs out every session, and the old password stops working', async () => {
    const { client, email, user } = await signUp(t);
    const second = t.client();
    assert.equal((await second.post('/api/v1/auth/login', { email, password: PASSWORD })).status, 200);
    assert.equal((await client.get('/api/v1/users/me')).status, 200);
    const token = await resetToken(email);

    const response = await t.client().post(RESET, { token, new_password: NEW_PASSWORD });
    assert.equal(response.status, 204, response.text);
    assert.equal(response.text, '');

    for (const session of [client, second]) {
      const me = await session.get('/api/v1/users/me');
      assert.equal(me.status, 401, me.text);
      assert.equal(errorOf(me).code, 'UNAUTHENTICATED');
    }
    const fresh = await login(email, NEW_PASSWORD);
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.data.public_id, user.public_id);
    const old = await login(email, PASSWORD);
    assert.equal(old.status, 401, old.text);
    assert.equal(errorOf(old).code, 'INVALID_CREDENTIALS');
  });

  test('writes an auth.password_reset audit entry without secrets', async () => {
    const { email, user } = await signUp(t);
    const token = await resetToken(email);
    assert.equal((await t.client().post(RESET, { token, new_password: NEW_PASSWORD })).status, 204);
    const rows = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_public_id', '=', user.public_id)
      .where('action', '=', 'auth.password_reset')
      .execute();
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.entity_type, 'user');
    assert.equal(row.actor_public_id, user.public_id);
    assert.ok(row.request_id);
    const serialized = JSON.stringify(row);
    assert.ok(!serialized.includes(NEW_PASSWORD) && !serialized.includes(token) && !serialized.includes('scrypt'), serialized);
  });

  test('a used token is 410 TOKEN_EXPIRED', async () => {
    const { email } = await signUp(t);
    const token = await resetToken(email);
    assert.equal((await t.client().post(RESET, { token, new_password: NEW_PASSWORD })).status, 204);
    const again = await t.client().post(RESET, { token, new_password: 'Another-Pass-99' });
    assert.equal(again.status, 410, again.text);
    assert.equal(errorOf(again).code, 'TOKEN_EXPIRED');
    assert.equal((await login(email, 'Another-Pass-99')).status, 401);
  });

  test('a newer request supersedes the older token (410)', async () => {
    const { email } = await signUp(t);
    const first = await resetToken(email);
    const second = await resetToken(email);
    assert.notEqual(first, second);
    const old = await t.client().post(RESET, { token: first, new_password: NEW_PASSWORD });
    assert.equal(old.status, 410, old.text);
    assert.equal((await t.client().post(RESET, { token: second, new_password: NEW_PASSWORD })).status, 204);
  });

  test('a token is valid for one hour: just before it works, after it is 410 and the password stays', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const tokenA = await resetToken(a.email);
    const tokenB = await resetToken(b.email);
    t.clock.advance(HOUR - MINUTE);
    assert.equal((await t.client().post(RESET, { token: tokenA, new_password: NEW_PASSWORD })).status, 204);
    t.clock.advance(2 * MINUTE);
    const late = await t.client().post(RESET, { token: tokenB, new_password: NEW_PASSWORD });
    assert.equal(late.status, 410, late.text);
    assert.equal(errorOf(late).code, 'TOKEN_EXPIRED');
    assert.equal((await login(b.email, PASSWORD)).status, 200);
  });

  test('an unknown token is 404 NOT_FOUND', async () => {
    const response = await t.client().post(RESET, { token: 'not-a-real-token-abcdefghijklmnopqrstuvwxyz', new_password: NEW_PASSWORD });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  });

  test('a weak new password is 400 and the token still works afterwards', async () => {
    const { email } = await signUp(t);
    const token = await resetToken(email);
    for (const weak of ['short1A', 'onlylowercaseletters']) {
      const response = await t.client().post(RESET, { token, new_password: weak });
      assert.equal(response.status, 400, `${weak}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
      assert.equal((await login(email, weak)).status, 401);
    }
    const response = await t.client().post(RESET, { token, new_password: NEW_PASSWORD });
    assert.equal(response.status, 204, response.text);
    assert.equal((await login(email, NEW_PASSWORD)).status, 200);
  });

  test('unknown fields are 400', async () => {
    const response = await t.client().post(RESET, { token: 'x', new_password: NEW_PASSWORD, email: 'a@example.test' });
    assert.equal(response.status, 400, response.text);
    assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
  });
});

describe('POST /auth/password-reset/check', () => {
  const CHECK = '/api/v1/auth/password-reset/check';
  // What the page the link opens sends: no session, no CSRF token, nothing but the token.
  const check = (token: string) =>
    fetch(`${t.baseUrl}${CHECK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });

  test('204 for a live link, which stays usable; 410 once used; 404 when unknown', async () => {
    const { email } = await signUp(t);
    const token = await resetToken(email);
    for (let i = 0; i < 2; i++) {
      const live = await check(token);
      assert.equal(live.status, 204, await live.text());
    }
    assert.equal((await t.client().post(RESET, { token, new_password: NEW_PASSWORD })).status, 204);
    const used = await check(token);
    assert.equal(used.status, 410);
    assert.equal(((await used.json()) as { error: { code: string } }).error.code, 'TOKEN_EXPIRED');
    const unknown = await check('not-a-real-token-abcdefghijklmnopqrstuvwxyz');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  test('a link past its hour, or superseded by a newer one, is 410', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const old = await resetToken(a.email);
    await resetToken(a.email);
    assert.equal((await check(old)).status, 410);
    const tokenB = await resetToken(b.email);
    t.clock.advance(HOUR + MINUTE);
    assert.equal((await check(tokenB)).status, 410);
  });

  test('a verification link token is 404 here, and a body without a token is 400', async () => {
    const { email } = await signUp(t);
    const verification = await waitFor(() => t.mail.to(email).find((m) => subjectOf(m.raw) === 'Verify your email address'));
    assert.equal((await check(tokenFrom(verification.raw))).status, 404);
    const missing = await fetch(`${t.baseUrl}${CHECK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(missing.status, 400);
  });
});

describe('rate limit (RATE_LIMIT_PASSWORD_RESET=2/15m)', () => {
  const limited = useApp({
    env: () => ({ SMTP_URL: t.mail.url, EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_PASSWORD_RESET: '2/15m' }),
  });

  test('the third request in the window is 429 RATE_LIMITED with Retry-After and sends nothing; the next window allows again', async () => {
    const { email } = await signUp(limited);
    for (let i = 0; i < 2; i++) assert.equal((await limited.client().post(REQUEST, { email })).status, 202);
    const third = await limited.client().post(REQUEST, { email });
    assert.equal(third.status, 429, third.text);
    assert.equal(errorOf(third).code, 'RATE_LIMITED');
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After: ${third.headers.get('retry-after')}`);

    await waitFor(async () => {
      const rows = await limited.db
        .selectFrom('outbox')
        .select('delivered_at')
        .where('recipient', '=', email)
        .where('kind', '=', 'password_reset')
        .execute();
      return rows.length === 2 && rows.every((row) => row.delivered_at);
    });
    await sendDueMail(limited);
    const resets = await limited.db
      .selectFrom('outbox')
      .select('id')
      .where('recipient', '=', email)
      .where('kind', '=', 'password_reset')
      .execute();
    assert.equal(resets.length, 2, 'the refused request queued no email');
    assert.equal(t.mail.to(email).filter((m) => subjectOf(m.raw) === SUBJECT).length, 2, 'and sent none');

    limited.clock.advance(15 * MINUTE + 1000);
    assert.equal((await limited.client().post(REQUEST, { email })).status, 202);
  });

  test('an unknown email is limited the same way (no enumeration through 429)', async () => {
    limited.clock.advance(15 * MINUTE + 1000);
    const unknown = uniqueEmail('ghost');
    for (let i = 0; i < 2; i++) assert.equal((await limited.client().post(REQUEST, { email: unknown })).status, 202);
    const third = await limited.client().post(REQUEST, { email: unknown });
    assert.equal(third.status, 429, third.text);
    assert.ok(third.headers.get('retry-after'));
  });
});
