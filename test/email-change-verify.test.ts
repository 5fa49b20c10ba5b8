import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NOTICE_SUBJECT, VERIFY, emailOf, startChange, withSubject } from './helpers/email-change.js';
import { PASSWORD, errorOf, login, signUp, uniqueEmail } from './helpers/factories.js';
import { partOf, tokenFrom } from './helpers/mail.js';
import { someoneWaitsOnALock } from './helpers/lock-waits.js';
import { sendDueMail } from './helpers/outbox.js';
import { useApp } from './helpers/use-app.js';

/** Changing one's email address, step 2: POST /users/me/email/verify with the mailed token: the change, the notice to the old address, and the refusals. */

const t = useApp({ mail: true, env: { EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_EMAIL_CHANGE: '2/15m' } });

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('POST /users/me/email/verify', () => {
  test('from the same session: 200 User with the new email; logins use it; the old address gets a notice; audited', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('new');
    const token = await startChange(t, client, newEmail);

    const response = await client.post(VERIFY, { token });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.equal(response.body.data.public_id, user.public_id);
    assert.equal(response.body.data.email, newEmail);
    assert.equal(response.body.data.email_verified, true);
    assert.equal((await client.get('/api/v1/users/me')).body.data.email, newEmail);

    const fresh = await login(t, newEmail);
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.data.public_id, user.public_id);
    const old = await login(t, email);
    assert.equal(old.status, 401, old.text);
    assert.equal(errorOf(old).code, 'INVALID_CREDENTIALS');

    const notice = await t.mail.waitForMail(email, NOTICE_SUBJECT);
    assert.deepEqual(notice.to, [email]);
    assert.ok(partOf(notice.raw, 'text/plain')?.includes(newEmail), 'the notice names the new address');
    assert.equal(withSubject(t.mail, newEmail, NOTICE_SUBJECT).length, 0);

    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_public_id', '=', user.public_id)
      .where('action', '=', 'user.email_change')
      .execute();
    assert.equal(audit.length, 1);
    assert.deepEqual(audit[0]!.changes, { before: { email }, after: { email: newEmail } });
    assert.equal(audit[0]!.actor_public_id, user.public_id);
    assert.equal(audit[0]!.entity_type, 'user');
  });

  test('from another session of the same account it is 404, and the starting session can still use it', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('new');
    const token = await startChange(t, client, newEmail);
    const elsewhere = t.client();
    assert.equal((await elsewhere.post('/api/v1/auth/login', { email, password: PASSWORD })).status, 200);

    const response = await elsewhere.post(VERIFY, { token });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal(await emailOf(t, user.public_id), email);

    const own = await client.post(VERIFY, { token });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.data.email, newEmail);
  });

  test('from another account it is 404', async () => {
    const { client, email, user } = await signUp(t);
    const other = await signUp(t);
    const token = await startChange(t, client, uniqueEmail('new'));
    const response = await other.client.post(VERIFY, { token });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal(await emailOf(t, user.public_id), email);
    assert.equal(await emailOf(t, other.user.public_id), other.email);
  });

  test('an unknown token is 404', async () => {
    const { client } = await signUp(t);
    const response = await client.post(VERIFY, { token: 'no-such-token-abcdefghijklmnopqrstuvwxyz' });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  });

  test('a used token is 410 TOKEN_EXPIRED', async () => {
    const { client } = await signUp(t);
    const token = await startChange(t, client, uniqueEmail('new'));
    assert.equal((await client.post(VERIFY, { token })).status, 200);
    const again = await client.post(VERIFY, { token });
    assert.equal(again.status, 410, again.text);
    assert.equal(errorOf(again).code, 'TOKEN_EXPIRED');
  });

  test('a token is valid for 24 hours: just before it works, after it is 410 and nothing changes', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const tokenA = await startChange(t, a.client, uniqueEmail('new'));
    const newB = uniqueEmail('new');
    const tokenB = await startChange(t, b.client, newB);
    t.clock.advance(24 * HOUR - MINUTE);
    assert.equal((await a.client.post(VERIFY, { token: tokenA })).status, 200);
    t.clock.advance(2 * MINUTE);
    const late = await b.client.post(VERIFY, { token: tokenB });
    assert.equal(late.status, 410, late.text);
    assert.equal(errorOf(late).code, 'TOKEN_EXPIRED');
    assert.equal(await emailOf(t, b.user.public_id), b.email);
    // The flow restarts with step 1.
    const again = await startChange(t, b.client, newB);
    assert.equal((await b.client.post(VERIFY, { token: again })).status, 200);
  });

  test('an address taken by another account between the two steps is 409 EMAIL_TAKEN on verify', async () => {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('contested');
    const token = await startChange(t, client, newEmail);
    await signUp(t, { email: newEmail });

    const response = await client.post(VERIFY, { token });
    assert.equal(response.status, 409, response.text);
    assert.equal(errorOf(response).code, 'EMAIL_TAKEN');
    assert.equal(await emailOf(t, user.public_id), email);
    assert.equal((await login(t, email)).status, 200);
    const audit = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('entity_public_id', '=', user.public_id)
      .where('action', '=', 'user.email_change')
      .execute();
    assert.equal(audit.length, 0);
    await sendDueMail(t);
    assert.equal(withSubject(t.mail, email, NOTICE_SUBJECT).length, 0, 'no change, no notice');
  });

  test('an address taken while the verify is under way is 409 EMAIL_TAKEN (the unique constraint decides), not 500', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const contested = uniqueEmail('both');
    const tokenA = await startChange(t, a.client, contested);
    const tokenB = await startChange(t, b.client, contested);
    // Hold B's user row so B's verify passes its "is the address free?" check and then waits;
    // meanwhile A takes the address. When the lock goes, B's update meets A's committed row.
    const { pendingB, resultA } = await t.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('public_id', '=', b.user.public_id).forUpdate().execute();
      const pending = b.client.post(VERIFY, { token: tokenB });
      await someoneWaitsOnALock(t.db);
      return { pendingB: pending, resultA: await a.client.post(VERIFY, { token: tokenA }) };
    });
    assert.equal(resultA.status, 200, resultA.text);
    const resultB = await pendingB;
    assert.equal(resultB.status, 409, resultB.text);
    assert.equal(errorOf(resultB).code, 'EMAIL_TAKEN');
    assert.equal(await emailOf(t, b.user.public_id), b.email);
    const owners = await t.db.selectFrom('users').select('public_id').where('email', '=', contested).execute();
    assert.deepEqual(owners, [{ public_id: a.user.public_id }]);
  });

  test('a password reset link mailed to the old address stops working once the email is changed', async () => {
    const { client, email, user } = await signUp(t);
    assert.equal((await t.client().post('/api/v1/auth/password-reset', { email })).status, 202);
    const reset = await t.mail.waitForMail(email, 'Reset your password');
    const token = await startChange(t, client, uniqueEmail('new'));
    assert.equal((await client.post(VERIFY, { token })).status, 200);

    const response = await t
      .client()
      .post('/api/v1/auth/password-reset/verify', { token: tokenFrom(reset.raw), new_password: 'Taken-Over-123' });
    assert.equal(response.status, 410, response.text);
    assert.equal(errorOf(response).code, 'TOKEN_EXPIRED');
    assert.equal((await login(t, await emailOf(t, user.public_id))).status, 200, 'the password is unchanged');
  });

  test('a second request replaces the first: the first token is 410, the second changes to its address', async () => {
    const { client, user } = await signUp(t);
    const firstEmail = uniqueEmail('first');
    const secondEmail = uniqueEmail('second');
    const first = await startChange(t, client, firstEmail);
    const second = await startChange(t, client, secondEmail);

    const stale = await client.post(VERIFY, { token: first });
    assert.equal(stale.status, 410, stale.text);
    assert.equal(errorOf(stale).code, 'TOKEN_EXPIRED');
    const response = await client.post(VERIFY, { token: second });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.data.email, secondEmail);
    assert.equal(await emailOf(t, user.public_id), secondEmail);
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

describe('POST /users/me/email/check', () => {
  const CHECK = '/api/v1/users/me/email/check';
  // Sent as the page the link opens sends it: the session's cookie, no CSRF token.
  const check = (client: ReturnType<typeof t.client>, token: string) => client.post(CHECK, { token }, { csrf: false });

  test('204 in the session that asked (the link stays usable); 404 in another session or account; 410 once used', async () => {
    const { client, email } = await signUp(t);
    const other = await signUp(t);
    const token = await startChange(t, client, uniqueEmail('new'));
    const elsewhere = t.client();
    assert.equal((await elsewhere.post('/api/v1/auth/login', { email, password: PASSWORD })).status, 200);

    assert.equal((await check(client, token)).status, 204);
    for (const stranger of [elsewhere, other.client]) {
      const refused = await check(stranger, token);
      assert.equal(refused.status, 404, refused.text);
      assert.equal(errorOf(refused).code, 'NOT_FOUND');
    }
    assert.equal((await check(t.client(), token)).status, 401, 'signed out: who is asking is unknown');
    assert.equal((await client.post(VERIFY, { token })).status, 200, 'the check left the link usable');
    const spent = await check(client, token);
    assert.equal(spent.status, 410, spent.text);
    assert.equal(errorOf(spent).code, 'TOKEN_EXPIRED');
  });
});
