import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CONFIRM_SUBJECT, START, VERIFY, emailOf, withSubject } from './helpers/email-change.js';
import { PASSWORD, errorOf, login, signUp, uniqueEmail } from './helpers/factories.js';
import { linkFrom, partOf } from './helpers/mail.js';
import { sendDueMail } from './helpers/outbox.js';
import { useApp } from './helpers/use-app.js';

/** Changing one's email address, step 1: POST /users/me/email sends a confirmation to the new address; its rate limit. */

const t = useApp({ mail: true, env: { EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_EMAIL_CHANGE: '2/15m' } });

const MINUTE = 60_000;

const confirmations = (recipient: string) =>
  t.db.selectFrom('outbox').select('id').where('recipient', '=', recipient).where('kind', '=', 'email_change_confirm').execute();

describe('POST /users/me/email (start)', () => {
  test('202 with no body; a confirmation link goes to the new address and the account keeps its email until verified', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('new');
    const response = await client.post(START, { new_email: newEmail, password: PASSWORD });
    assert.equal(response.status, 202, response.text);
    assert.equal(response.text, '');
    assert.equal(response.body, null);

    const message = await t.mail.waitForMail(newEmail, CONFIRM_SUBJECT);
    assert.deepEqual(message.to, [newEmail]);
    assert.ok(linkFrom(message.raw).startsWith(`${t.config.publicBaseUrl}/confirm-email-change?token=`), linkFrom(message.raw));
    assert.ok(partOf(message.raw, 'text/html')?.includes(linkFrom(message.raw)));
    await sendDueMail(t);
    assert.equal(withSubject(t.mail, email, CONFIRM_SUBJECT).length, 0, 'nothing about it goes to the old address yet');

    assert.equal(await emailOf(t, user.public_id), email);
    assert.equal((await client.get('/api/v1/users/me')).body.data.email, email);
    assert.equal((await login(t, newEmail)).status, 401);
  });

  test('a wrong password is 400 INVALID_PASSWORD and nothing is sent', async () => {
    const { client } = await signUp(t);
    const newEmail = uniqueEmail('new');
    const response = await client.post(START, { new_email: newEmail, password: 'Not-The-Password-1' });
    assert.equal(response.status, 400, response.text);
    assert.equal(errorOf(response).code, 'INVALID_PASSWORD');
    assert.equal((await confirmations(newEmail)).length, 0);
  });

  test('the email of another account is 409 EMAIL_TAKEN, in any letter case', async () => {
    const { client } = await signUp(t);
    const other = await signUp(t);
    for (const newEmail of [other.email, other.email.toUpperCase()]) {
      const response = await client.post(START, { new_email: newEmail, password: PASSWORD });
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'EMAIL_TAKEN');
    }
    assert.equal((await confirmations(other.email)).length, 0);
  });

  test('the current address, in any letter case, is 400', async () => {
    const { client, email } = await signUp(t);
    for (const newEmail of [email, email.toUpperCase()]) {
      const response = await client.post(START, { new_email: newEmail, password: PASSWORD });
      assert.equal(response.status, 400, response.text);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });

  test('unknown fields, missing fields and a malformed email are 400 VALIDATION_ERROR', async () => {
    const { client } = await signUp(t);
    const bodies = [
      { new_email: uniqueEmail(), password: PASSWORD, email: uniqueEmail() },
      { new_email: uniqueEmail() },
      { password: PASSWORD },
      { new_email: 'not-an-email', password: PASSWORD },
    ];
    for (const body of bodies) {
      const response = await client.post(START, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });

  test('anonymous is 401 on both steps', async () => {
    const start = await t.client().post(START, { new_email: uniqueEmail(), password: PASSWORD });
    assert.equal(start.status, 401, start.text);
    assert.equal(errorOf(start).code, 'UNAUTHENTICATED');
    const verify = await t.client().post(VERIFY, { token: 'whatever-token-value' });
    assert.equal(verify.status, 401, verify.text);
    assert.equal(errorOf(verify).code, 'UNAUTHENTICATED');
  });

  test('without the CSRF header it is 403', async () => {
    const { client } = await signUp(t);
    const response = await client.post(START, { new_email: uniqueEmail(), password: PASSWORD }, { csrf: false });
    assert.equal(response.status, 403, response.text);
    assert.equal(errorOf(response).code, 'CSRF_TOKEN_INVALID');
  });
});

describe('rate limit (RATE_LIMIT_EMAIL_CHANGE=2/15m)', () => {
  test('the third start in the window is 429 RATE_LIMITED with Retry-After; it counts per account', async () => {
    const { client } = await signUp(t);
    for (let i = 0; i < 2; i++) {
      assert.equal((await client.post(START, { new_email: uniqueEmail(), password: PASSWORD })).status, 202);
    }
    const newEmail = uniqueEmail('third');
    const third = await client.post(START, { new_email: newEmail, password: PASSWORD });
    assert.equal(third.status, 429, third.text);
    assert.equal(errorOf(third).code, 'RATE_LIMITED');
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After: ${third.headers.get('retry-after')}`);
    assert.equal((await confirmations(newEmail)).length, 0);

    // Another account is not affected.
    const other = await signUp(t);
    assert.equal((await other.client.post(START, { new_email: uniqueEmail(), password: PASSWORD })).status, 202);

    t.clock.advance(15 * MINUTE + 1000);
    assert.equal((await client.post(START, { new_email: newEmail, password: PASSWORD })).status, 202);
  });
});
