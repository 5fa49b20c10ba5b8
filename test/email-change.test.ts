import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { PASSWORD, errorOf, signUp, uniqueEmail, type Client } from './helpers/factories.js';
import { linkFrom, partOf, subjectOf, tokenFrom, waitFor } from './helpers/mail.js';
import { sendDueMail } from './helpers/outbox.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ mail: true, env: { EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_EMAIL_CHANGE: '2/15m' } });


const START = '/api/v1/users/me/email';
const VERIFY = '/api/v1/users/me/email/verify';
const CONFIRM_SUBJECT = 'Confirm your new email address';
const NOTICE_SUBJECT = 'Your email address was changed';
const HOUR = 3_600_000;
const MINUTE = 60_000;

const withSubject = (address: string, subject: string) => t.mail.to(address).filter((m) => subjectOf(m.raw) === subject);

/** Starts a change to `newEmail` (expects 202) and returns the token mailed to it. */
async function startChange(client: Client, newEmail: string): Promise<string> {
  const seen = withSubject(newEmail, CONFIRM_SUBJECT).length;
  const response = await client.post(START, { new_email: newEmail, password: PASSWORD });
  assert.equal(response.status, 202, response.text);
  const message = await waitFor(() => withSubject(newEmail, CONFIRM_SUBJECT)[seen]);
  return tokenFrom(message.raw);
}

const login = (email: string, password = PASSWORD) => t.client().post('/api/v1/auth/login', { email, password });
const emailOf = async (publicId: string) => (await t.db.selectFrom('users').select('email').where('public_id', '=', publicId).executeTakeFirstOrThrow()).email;
const confirmations = (recipient: string) => t.db.selectFrom('outbox').select('id').where('recipient', '=', recipient).where('kind', '=', 'email_change_confirm').execute();

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
    assert.equal(withSubject(email, CONFIRM_SUBJECT).length, 0, 'nothing about it goes to the old address yet');

    assert.equal(await emailOf(user.public_id), email);
    assert.equal((await client.get('/api/v1/users/me')).body.data.email, email);
    assert.equal((await login(newEmail)).status, 401);
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

describe('POST /users/me/email/verify', () => {
  test('from the same session: 200 User with the new email; logins use it; the old address gets a notice; audited', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('new');
    const token = await startChange(client, newEmail);

    const response = await client.post(VERIFY, { token });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.equal(response.body.data.public_id, user.public_id);
    assert.equal(response.body.data.email, newEmail);
    assert.equal(response.body.data.email_verified, true);
    assert.equal((await client.get('/api/v1/users/me')).body.data.email, newEmail);

    const fresh = await login(newEmail);
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.data.public_id, user.public_id);
    const old = await login(email);
    assert.equal(old.status, 401, old.text);
    assert.equal(errorOf(old).code, 'INVALID_CREDENTIALS');

    const notice = await t.mail.waitForMail(email, NOTICE_SUBJECT);
    assert.deepEqual(notice.to, [email]);
    assert.ok(partOf(notice.raw, 'text/plain')?.includes(newEmail), 'the notice names the new address');
    assert.equal(withSubject(newEmail, NOTICE_SUBJECT).length, 0);

    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity_public_id', '=', user.public_id).where('action', '=', 'user.email_change').execute();
    assert.equal(audit.length, 1);
    assert.deepEqual(audit[0]!.changes, { before: { email }, after: { email: newEmail } });
    assert.equal(audit[0]!.actor_public_id, user.public_id);
    assert.equal(audit[0]!.entity_type, 'user');
  });

  test('from another session of the same account it is 404, and the starting session can still use it', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('new');
    const token = await startChange(client, newEmail);
    const elsewhere = t.client();
    assert.equal((await elsewhere.post('/api/v1/auth/login', { email, password: PASSWORD })).status, 200);

    const response = await elsewhere.post(VERIFY, { token });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal(await emailOf(user.public_id), email);

    const own = await client.post(VERIFY, { token });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.data.email, newEmail);
  });

  test('from another account it is 404', async () => {
    const { client, email, user } = await signUp(t);
    const other = await signUp(t);
    const token = await startChange(client, uniqueEmail('new'));
    const response = await other.client.post(VERIFY, { token });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal(await emailOf(user.public_id), email);
    assert.equal(await emailOf(other.user.public_id), other.email);
  });

  test('an unknown token is 404', async () => {
    const { client } = await signUp(t);
    const response = await client.post(VERIFY, { token: 'no-such-token-abcdefghijklmnopqrstuvwxyz' });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  });

  test('a used token is 410 TOKEN_EXPIRED', async () => {
    const { client } = await signUp(t);
    const token = await startChange(client, uniqueEmail('new'));
    assert.equal((await client.post(VERIFY, { token })).status, 200);
    const again = await client.post(VERIFY, { token });
    assert.equal(again.status, 410, again.text);
    assert.equal(errorOf(again).code, 'TOKEN_EXPIRED');
  });

  test('a token is valid for 24 hours: just before it works, after it is 410 and nothing changes', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const tokenA = await startChange(a.client, uniqueEmail('new'));
    const newB = uniqueEmail('new');
    const tokenB = await startChange(b.client, newB);
    t.clock.advance(24 * HOUR - MINUTE);
    assert.equal((await a.client.post(VERIFY, { token: tokenA })).status, 200);
    t.clock.advance(2 * MINUTE);
    const late = await b.client.post(VERIFY, { token: tokenB });
    assert.equal(late.status, 410, late.text);
    assert.equal(errorOf(late).code, 'TOKEN_EXPIRED');
    assert.equal(await emailOf(b.user.public_id), b.email);
    // The flow restarts with step 1.
    const again = await startChange(b.client, newB);
    assert.equal((await b.client.post(VERIFY, { token: again })).status, 200);
  });

  test('an address taken by another account between the two steps is 409 EMAIL_TAKEN on verify', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('contested');
    const token = await startChange(client, newEmail);
    await signUp(t, { email: newEmail });

    const response = await client.post(VERIFY, { token });
    assert.equal(response.status, 409, response.text);
    assert.equal(errorOf(response).code, 'EMAIL_TAKEN');
    assert.equal(await emailOf(user.public_id), email);
    assert.equal((await login(email)).status, 200);
    const audit = await t.db.selectFrom('audit_log').select('id').where('entity_public_id', '=', user.public_id).where('action', '=', 'user.email_change').execute();
    assert.equal(audit.length, 0);
    await sendDueMail(t);
    assert.equal(withSubject(email, NOTICE_SUBJECT).length, 0, 'no change, no notice');
  });

  test('an address taken while the verify is under way is 409 EMAIL_TAKEN (the unique constraint decides), not 500', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const contested = uniqueEmail('both');
    const tokenA = await startChange(a.client, contested);
    const tokenB = await startChange(b.client, contested);
    // Hold B's user row so B's verify passes its "is the address free?" check and then waits;
    // meanwhile A takes the address. When the lock goes, B's update meets A's committed row.
    const { pendingB, resultA } = await t.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('public_id', '=', b.user.public_id).forUpdate().execute();
      const pending = b.client.post(VERIFY, { token: tokenB });
      await waitFor(async () => {
        const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db);
        return waiting.rows[0]!.n > 0;
      });
      return { pendingB: pending, resultA: await a.client.post(VERIFY, { token: tokenA }) };
    });
    assert.equal(resultA.status, 200, resultA.text);
    const resultB = await pendingB;
    assert.equal(resultB.status, 409, resultB.text);
    assert.equal(errorOf(resultB).code, 'EMAIL_TAKEN');
    assert.equal(await emailOf(b.user.public_id), b.email);
    const owners = await t.db.selectFrom('users').select('public_id').where('email', '=', contested).execute();
    assert.deepEqual(owners, [{ public_id: a.user.public_id }]);
  });

  test('a password reset link mailed to the old address stops working once the email is changed', async () => {
    const { client, email, user } = await signUp(t);
    assert.equal((await t.client().post('/api/v1/auth/password-reset', { email })).status, 202);
    const reset = await t.mail.waitForMail(email, 'Reset your password');
    const token = await startChange(client, uniqueEmail('new'));
    assert.equal((await client.post(VERIFY, { token })).status, 200);

    const response = await t.client().post('/api/v1/auth/password-reset/verify', { token: tokenFrom(reset.raw), new_password: 'Taken-Over-123' });
    assert.equal(response.status, 410, response.text);
    assert.equal(errorOf(response).code, 'TOKEN_EXPIRED');
    assert.equal((await login(await emailOf(user.public_id))).status, 200, 'the password is unchanged');
  });

  test('a second request replaces the first: the first token is 410, the second changes to its address', async () => {
    const { client, user } = await signUp(t);
    const firstEmail = uniqueEmail('first');
    const secondEmail = uniqueEmail('second');
    const first = await startChange(client, firstEmail);
    const second = await startChange(client, secondEmail);

    const stale = await client.post(VERIFY, { token: first });
    assert.equal(stale.status, 410, stale.text);
    assert.equal(errorOf(stale).code, 'TOKEN_EXPIRED');
    const response = await client.post(VERIFY, { token: second });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.data.email, secondEmail);
    assert.equal(await emailOf(user.public_id), secondEmail);
  });

  test('a missing token or unknown fields are 400', async () => {
    const { client } = await signUp(t);
    for (const body of [{}, { token: '' }, { token: 'abc', new_email: uniqueEmail() }]) {
      const response = await client.post(VERIFY, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
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
