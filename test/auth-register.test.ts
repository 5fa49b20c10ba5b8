import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { startTestApp } from './helpers/app.js';
import { PASSWORD, USER_KEYS, errorOf, signUp, uniqueEmail } from './helpers/factories.js';
import { auditRows, isCleared, setCookie } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

// Many registrations from one IP: the REGISTER limit has its own tests in rate-limits.test.ts.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const REGISTER = '/api/v1/auth/register';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const registration = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail(),
  password: PASSWORD,
  first_name: 'Ada',
  last_name: 'Lovelace',
  ...overrides,
});

const countUsers = async (email: string) =>
  Number(
    (
      await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('email', '=', email.toLowerCase())
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Posts a registration that must fail with 400 on `field`, and checks no account was created. */
async function expectRejected(body: Record<string, unknown>, field: string) {
  const response = await t.client().post(REGISTER, body);
  assert.equal(response.status, 400, response.text);
  const error = errorOf(response);
  assert.equal(error.code, 'VALIDATION_ERROR');
  assert.ok(
    error.details?.some((d) => d.field === field),
    `expected a detail for ${field}: ${response.text}`,
  );
  assert.equal(setCookie(response, 'session'), undefined);
  assert.equal(await countUsers(String(body.email)), 0);
}

async function expectAccepted(body: Record<string, unknown>) {
  const response = await t.client().post(REGISTER, body);
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

describe('POST /auth/register', () => {
  test('creates a CUSTOMER with a lower-cased email whatever role the body asks for', async () => {
    const email = `Mixed.Case-${Date.now()}@Example.TEST`;
    const client = t.client();
    const response = await client.post(REGISTER, registration({ email, role: 'SUPER_ADMIN', phone_number: '+14155550100' }));
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.success, true);
    const user = response.body.data;
    assert.deepEqual(Object.keys(user).sort(), USER_KEYS);
    assert.match(user.public_id, /^usr_[0-9A-Za-z]{16,}$/);
    assert.equal(user.email, email.toLowerCase());
    assert.equal(user.role, 'CUSTOMER');
    assert.equal(user.first_name, 'Ada');
    assert.equal(user.last_name, 'Lovelace');
    assert.equal(user.phone_number, '+14155550100');
    assert.equal(user.email_verified, false);
    assert.equal(user.status, 'ACTIVE');
    assert.match(user.created_at, ISO_UTC);
    assert.match(user.updated_at, ISO_UTC);

    const row = await t.db.selectFrom('users').selectAll().where('public_id', '=', user.public_id).executeTakeFirstOrThrow();
    assert.equal(row.role, 'CUSTOMER');
    assert.equal(row.email, email.toLowerCase());
    assert.match(row.password_hash, /^scrypt\$/);
    assert.ok(!response.text.includes(row.password_hash));
    assert.ok(!response.text.includes('password'));

    // The session it set is live and belongs to the new account.
    const me = await client.get('/api/v1/users/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.data.public_id, user.public_id);
    assert.equal(me.body.data.role, 'CUSTOMER');
  });

  test('phone number is optional and null when absent', async () => {
    const user = await expectAccepted(registration());
    assert.equal(user.phone_number, null);
  });

  test('sets the session cookie HttpOnly, SameSite=Lax, Path=/, not Secure by default, for 30 days; clears the pre-session', async () => {
    const client = t.client();
    await client.csrf();
    assert.ok(client.cookies.has('presession'));
    const response = await client.post(REGISTER, registration());
    assert.equal(response.status, 201);
    const cookie = setCookie(response, 'session');
    assert.ok(cookie, 'a session cookie is set');
    assert.ok(cookie.value.length >= 32, 'an opaque random token');
    assert.equal(cookie.attributes.get('httponly'), true);
    assert.equal(cookie.attributes.get('samesite'), 'Lax');
    assert.equal(cookie.attributes.get('path'), '/');
    assert.equal(cookie.attributes.has('secure'), false);
    const expires = new Date(String(cookie.attributes.get('expires'))).getTime();
    const thirtyDays = 30 * 86_400_000;
    assert.ok(Math.abs(expires - (Date.now() + thirtyDays)) < 60_000, `expires ${cookie.attributes.get('expires')}`);
    assert.ok(isCleared(setCookie(response, 'presession')), 'the pre-session cookie is cleared');

    // The server keeps only the token's SHA-256, on the new account's session.
    const stored = await t.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.public_id', 's.token_hash'])
      .where('s.token_hash', '=', createHash('sha256').update(cookie.value).digest())
      .executeTakeFirst();
    assert.equal(stored?.public_id, response.body.data.public_id);
  });

  test('with COOKIE_SECURE=true the cookie is Secure', async () => {
    const secure = await startTestApp({ COOKIE_SECURE: 'true' });
    try {
      const response = await secure.client().post(REGISTER, registration());
      assert.equal(response.status, 201);
      const cookie = setCookie(response, 'session');
      assert.equal(cookie?.attributes.get('secure'), true);
      assert.equal(cookie?.attributes.get('httponly'), true);
    } finally {
      await secure.close();
    }
  });

  test('a taken email, in any letter case, is 409 EMAIL_TAKEN and creates nothing', async () => {
    const email = uniqueEmail('dup');
    await expectAccepted(registration({ email }));
    for (const variant of [email, email.toUpperCase()]) {
      const response = await t.client().post(REGISTER, registration({ email: variant, first_name: 'Other' }));
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'EMAIL_TAKEN');
      assert.equal(setCookie(response, 'session'), undefined);
    }
    assert.equal(await countUsers(email), 1);
    const row = await t.db.selectFrom('users').select('first_name').where('email', '=', email).executeTakeFirstOrThrow();
    assert.equal(row.first_name, 'Ada');
  });

  test('password length: 7 is refused, 8 accepted, 128 accepted, 129 refused', async () => {
    await expectRejected(registration({ password: 'Abcdef1' }), 'password');
    await expectAccepted(registration({ password: 'Abcdef12' }));
    await expectAccepted(registration({ password: 'Ab1' + 'x'.repeat(125) }));
    await expectRejected(registration({ password: 'Ab1' + 'x'.repeat(126) }), 'password');
  });

  test('a password of one character class only is refused; two classes are enough', async () => {
    for (const password of ['abcdefghij', 'ABCDEFGHIJ', '1234567890', '!@#$%^&*()']) {
      await expectRejected(registration({ password }), 'password');
    }
    await expectAccepted(registration({ password: 'abcdefgh1' }));
    await expectAccepted(registration({ password: 'abcd-efgh' }));
  });

  test('a weak password is reported with every other problem of the form in one answer', async () => {
    const response = await t.client().post(REGISTER, registration({ password: 'abcdefgh', phone_number: '555' }));
    assert.equal(response.status, 400, response.text);
    const details = errorOf(response).details as { field: string; message: string }[];
    assert.deepEqual(details.map((d) => d.field).sort(), ['password', 'phone_number']);
    assert.equal(
      details.find((d) => d.field === 'password')!.message,
      'must mix at least two of lower case, upper case, digits and symbols',
    );
  });

  test('first and last name: 0 and 101 characters refused, 1 and 100 accepted', async () => {
    for (const field of ['first_name', 'last_name']) {
      await expectRejected(registration({ [field]: '' }), field);
      await expectRejected(registration({ [field]: 'n'.repeat(101) }), field);
      const one = await expectAccepted(registration({ [field]: 'N' }));
      assert.equal(one[field], 'N');
      const hundred = await expectAccepted(registration({ [field]: 'n'.repeat(100) }));
      assert.equal(hundred[field], 'n'.repeat(100));
    }
  });

  test('phone number must be E.164', async () => {
    for (const phone_number of ['+14155550100', '+12', '+442079460000', '+123456789012345']) {
      const user = await expectAccepted(registration({ phone_number }));
      assert.equal(user.phone_number, phone_number);
    }
    for (const phone_number of [
      '4155550100',
      '+0123456789',
      '+1',
      '+1234567890123456',
      '+1 415 555 0100',
      '+1-415-555-0100',
      '',
      14155550100,
    ]) {
      await expectRejected(registration({ phone_number }), 'phone_number');
    }
  });

  test('a malformed email is refused', async () => {
    for (const email of ['not-an-email', 'a@', '@example.test', `${'x'.repeat(250)}@example.test`]) {
      await expectRejected(registration({ email }), 'email');
    }
  });

  test('every missing required field is reported', async () => {
    const response = await t.client().post(REGISTER, {});
    assert.equal(response.status, 400);
    const fields = (errorOf(response).details ?? []).map((d) => d.field).sort();
    assert.deepEqual(fields, ['email', 'first_name', 'last_name', 'password']);
  });

  test('an unknown field is 400 and creates nothing', async () => {
    const body = registration({ nickname: 'ada' });
    const response = await t.client().post(REGISTER, body);
    assert.equal(response.status, 400);
    const error = errorOf(response);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.deepEqual(error.details, [{ field: 'nickname', message: 'is not a known field' }]);
    assert.equal(await countUsers(body.email), 0);
  });

  test('writes one auth.register audit entry naming the new account and the request', async () => {
    const response = await t.client().post(REGISTER, registration(), { headers: { 'user-agent': 'audit-test/1.0' } });
    assert.equal(response.status, 201);
    const user = response.body.data;
    const rows = await auditRows(t, 'auth.register', user.public_id);
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.match(row!.public_id, /^aud_[0-9A-Za-z]{16,}$/);
    assert.equal(row!.entity_type, 'user');
    assert.equal(row!.actor_public_id, user.public_id);
    assert.equal(row!.actor_email, user.email);
    assert.equal(row!.actor_role, 'CUSTOMER');
    assert.equal(row!.ip, '127.0.0.1');
    assert.equal(row!.user_agent, 'audit-test/1.0');
    assert.equal(row!.request_id, response.headers.get('x-request-id'));
  });

  test('a refused registration writes no audit entry', async () => {
    const before = (await auditRows(t, 'auth.register')).length;
    await expectRejected(registration({ password: 'short' }), 'password');
    assert.equal((await auditRows(t, 'auth.register')).length, before);
  });

  test('registering while signed in rotates the session: the old one stops working', async () => {
    const { client } = await signUp(t);
    const oldToken = client.cookies.get('session')!;
    const response = await client.post(REGISTER, registration());
    assert.equal(response.status, 201);
    assert.notEqual(client.cookies.get('session'), oldToken);
    const replay = t.client();
    replay.cookies.set('session', oldToken);
    assert.equal((await replay.get('/api/v1/users/me')).status, 401);
  });
});

/**
 * Issue 24, item 5: registration and email change both say whether an address has an account (409
 * EMAIL_TAKEN), so both draw on one per-IP budget (RATE_LIMIT_REGISTER); past it both answer 429
 * whatever the address, and accounts made for probing cannot multiply it.
 */
describe('account enumeration: one budget for both doors', () => {
  const e = useApp({ env: { RATE_LIMIT_REGISTER: '3/1h', RATE_LIMIT_EMAIL_CHANGE: '0' } });
  const CHANGE = '/api/v1/users/me/email';

  test('past the budget, registration and email change answer 429 for taken and free addresses alike, and change nothing', async () => {
    const owner = await signUp(e);
    const prober = await signUp(e);
    const taken = await prober.client.post(CHANGE, { new_email: owner.email, password: PASSWORD });
    assert.equal(taken.status, 409, taken.text);
    assert.equal(errorOf(taken).code, 'EMAIL_TAKEN');

    const free = uniqueEmail('free');
    for (const email of [owner.email, free]) {
      const change = await prober.client.post(CHANGE, { new_email: email, password: PASSWORD });
      assert.equal(change.status, 429, `email change to ${email}: ${change.text}`);
      assert.equal(errorOf(change).code, 'RATE_LIMITED');
      const register = await e.client().post(REGISTER, registration({ email }));
      assert.equal(register.status, 429, `registration of ${email}: ${register.text}`);
    }
    const pending = await e.db.selectFrom('account_tokens').select('id').where('new_email', '=', free).execute();
    assert.equal(pending.length, 0);
    assert.equal((await e.db.selectFrom('users').select('id').where('email', '=', free).execute()).length, 0);
  });
});
