import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf, signUp } from './helpers/factories.js';
import { subjectOf, tokenFrom, waitFor } from './helpers/mail.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ mail: true, env: { EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0' } });

const VERIFY = '/api/v1/auth/email-verification/verify';
const RESEND = '/api/v1/auth/email-verification/resend';
const SUBJECT = 'Verify your email address';
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Waits for the `n`-th (1-based) verification email to `email` and returns its token. */
async function verificationToken(email: string, n = 1): Promise<string> {
  const messages = await waitFor(() => {
    const found = t.mail.to(email).filter((m) => subjectOf(m.raw) === SUBJECT);
    return found.length >= n ? found : undefined;
  });
  return tokenFrom(messages[n - 1]!.raw);
}

const verifiedAt = async (publicId: string) =>
  (await t.db.selectFrom('users').select('email_verified_at').where('public_id', '=', publicId).executeTakeFirstOrThrow())
    .email_verified_at;

describe('POST /auth/email-verification/verify', () => {
  test('the emailed token verifies the account: 200 User with email_verified true', async () => {
    const { client, user, email } = await signUp(t);
    assert.equal(user.email_verified, false);
    const token = await verificationToken(email);

    // Anyone holding the link may use it (it is opened from a mail client, perhaps signed out).
    const response = await t.client().post(VERIFY, { token });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.equal(response.body.data.public_id, user.public_id);
    assert.equal(response.body.data.email, email);
    assert.equal(response.body.data.email_verified, true);
    assert.ok(await verifiedAt(user.public_id));

    const me = await client.get('/api/v1/users/me');
    assert.equal(me.body.data.email_verified, true);
    const session = await client.get('/api/v1/auth/session');
    assert.equal(session.body.data.user.email_verified, true);
  });

  test('a used token is 410 TOKEN_EXPIRED', async () => {
    const { email } = await signUp(t);
    const token = await verificationToken(email);
    assert.equal((await t.client().post(VERIFY, { token })).status, 200);
    const again = await t.client().post(VERIFY, { token });
    assert.equal(again.status, 410, again.text);
    assert.equal(errorOf(again).code, 'TOKEN_EXPIRED');
  });

  test('an unknown token is 404 NOT_FOUND', async () => {
    const response = await t.client().post(VERIFY, { token: 'no-such-token-0123456789abcdefghijklmnop' });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  });

  test('a token of another purpose is not a verification token (404)', async () => {
    const { email } = await signUp(t);
    await t.client().post('/api/v1/auth/password-reset', { email });
    const reset = await t.mail.waitForMail(email, 'Reset your password');
    const response = await t.client().post(VERIFY, { token: tokenFrom(reset.raw) });
    assert.equal(response.status, 404, response.text);
  });

  test('a missing or empty token and unknown fields are 400', async () => {
    for (const body of [{}, { token: '' }, { token: 'x', extra: 1 }]) {
      const response = await t.client().post(VERIFY, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });

  test('a token is valid for 24 hours: just before it works, after it is 410', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const tokenA = await verificationToken(a.email);
    const tokenB = await verificationToken(b.email);
    t.clock.advance(24 * HOUR - MINUTE);
    const early = await t.client().post(VERIFY, { token: tokenA });
    assert.equal(early.status, 200, early.text);
    t.clock.advance(2 * MINUTE);
    const late = await t.client().post(VERIFY, { token: tokenB });
    assert.equal(late.status, 410, late.text);
    assert.equal(errorOf(late).code, 'TOKEN_EXPIRED');
    assert.equal(await verifiedAt(b.user.public_id), null, 'an expired token verifies nothing');
  });
});

describe('POST /auth/email-verification/resend', () => {
  test('202 with no body and a new email; the old token then no longer works', async () => {
    const { client, email, user } = await signUp(t);
    const first = await verificationToken(email);

    const response = await client.post(RESEND);
    assert.equal(response.status, 202, response.text);
    assert.equal(response.text, '');
    const second = await verificationToken(email, 2);
    assert.notEqual(second, first);

    const old = await t.client().post(VERIFY, { token: first });
    assert.equal(old.status, 410, old.text);
    assert.equal(errorOf(old).code, 'TOKEN_EXPIRED');
    assert.equal(await verifiedAt(user.public_id), null);

    const fresh = await t.client().post(VERIFY, { token: second });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.data.email_verified, true);
  });

  test('an already verified account is 409 and gets no email', async () => {
    const { client, email } = await signUp(t);
    const token = await verificationToken(email);
    assert.equal((await client.post(VERIFY, { token })).status, 200);
    const response = await client.post(RESEND);
    assert.equal(response.status, 409, response.text);
    errorOf(response);
    const queued = await t.db.selectFrom('outbox').select('id').where('recipient', '=', email).where('kind', '=', 'verify_email').execute();
    assert.equal(queued.length, 1, 'only the sign-up email');
  });

  test('anonymous is 401 UNAUTHENTICATED', async () => {
    const response = await t.client().post(RESEND);
    assert.equal(response.status, 401, response.text);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });

  test('without the CSRF header it is 403', async () => {
    const { client } = await signUp(t);
    const response = await client.post(RESEND, undefined, { csrf: false });
    assert.equal(response.status, 403, response.text);
    assert.equal(errorOf(response).code, 'CSRF_TOKEN_INVALID');
  });
});
