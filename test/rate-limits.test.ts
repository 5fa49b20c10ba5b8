import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.js';
import { PASSWORD, errorOf, signUp, uniqueEmail } from './helpers/factories.js';
import { auditRows, setCookie } from './helpers/inspect.js';

const LOGIN = '/api/v1/auth/login';
const REGISTER = '/api/v1/auth/register';
const MINUTE = 60_000;
const WRONG = 'Wrong-Password-1';

/** Each test gets its own app: the counters and the clock are per database. */
async function withApp(env: Record<string, string>, run: (t: TestApp) => Promise<void>) {
  const t = await startTestApp(env);
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const login = (t: TestApp, email: string, password: string) => t.client().post(LOGIN, { email, password });

function expectRateLimited(response: { status: number; headers: Headers; body: any; text: string }, maxSeconds: number) {
  assert.equal(response.status, 429, response.text);
  assert.equal(errorOf(response).code, 'RATE_LIMITED');
  const retryAfter = response.headers.get('retry-after');
  assert.match(retryAfter ?? '', /^\d+$/, `Retry-After is whole seconds: ${retryAfter}`);
  const seconds = Number(retryAfter);
  assert.ok(seconds > 0 && seconds <= maxSeconds, `Retry-After ${seconds}`);
  assert.equal(setCookie(response, 'session'), undefined);
}

const limitRow = (t: TestApp, name: string, key: string) =>
  t.db.selectFrom('rate_limits').selectAll().where('name', '=', name).where('key', '=', key).executeTakeFirst();

describe('LOGIN: failures per account', () => {
  test('the 4th failure in the window is 429 with Retry-After, even with the right password', () =>
    withApp({ RATE_LIMIT_LOGIN: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      for (let i = 0; i < 3; i++) {
        const response = await login(t, email, WRONG);
        assert.equal(response.status, 401);
        assert.equal(errorOf(response).code, 'INVALID_CREDENTIALS');
      }
      const row = await limitRow(t, 'LOGIN', email);
      assert.equal(row?.hits, 3);

      expectRateLimited(await login(t, email, WRONG), 15 * 60);
      expectRateLimited(await login(t, email, PASSWORD), 15 * 60);
      // Refused attempts never reach the password check, so they are not audited as failures.
      const failures = (await auditRows(t, 'auth.login_failed')).filter((r) => (r.changes as any)?.after?.email === email);
      assert.equal(failures.length, 3);

      // Counted per account: another account from the same IP is not affected.
      const other = await signUp(t);
      assert.equal((await login(t, other.email, PASSWORD)).status, 200);
    }));

  test('parallel guesses cannot slip past the limit: exactly 3 are checked, the rest are 429', () =>
    withApp({ RATE_LIMIT_LOGIN: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      const clients = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const client = t.client();
          await client.csrf();
          return client;
        }),
      );
      const responses = await Promise.all(clients.map((client) => client.post(LOGIN, { email, password: WRONG })));
      const statuses = responses.map((r) => r.status).sort();
      assert.deepEqual(statuses, [401, 401, 401, ...Array(9).fill(429)]);
      const failures = (await auditRows(t, 'auth.login_failed')).filter((r) => (r.changes as any)?.after?.email === email);
      assert.equal(failures.length, 3);
      expectRateLimited(await login(t, email, PASSWORD), 15 * 60);
    }));

  test("the account's counter uses the normalised email", () =>
    withApp({ RATE_LIMIT_LOGIN: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      for (const variant of [email.toUpperCase(), ` ${email}`, email]) {
        assert.equal((await login(t, variant, WRONG)).status, 401);
      }
      expectRateLimited(await login(t, email.toUpperCase(), PASSWORD), 15 * 60);
    }));

  test('after the window (15 minutes) the right password works again', () =>
    withApp({ RATE_LIMIT_LOGIN: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      for (let i = 0; i < 3; i++) assert.equal((await login(t, email, WRONG)).status, 401);
      t.clock.advance(14 * MINUTE);
      expectRateLimited(await login(t, email, PASSWORD), 60);
      t.clock.advance(MINUTE + 1_000);
      const response = await login(t, email, PASSWORD);
      assert.equal(response.status, 200, response.text);
      assert.ok(setCookie(response, 'session'));
    }));

  test("a successful login resets the account's counter", () =>
    withApp({ RATE_LIMIT_LOGIN: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      assert.equal((await login(t, email, WRONG)).status, 401);
      assert.equal((await login(t, email, WRONG)).status, 401);
      assert.equal((await limitRow(t, 'LOGIN', email))?.hits, 2);
      assert.equal((await login(t, email, PASSWORD)).status, 200);
      assert.equal(await limitRow(t, 'LOGIN', email), undefined);
      // A full new allowance: three failures, then the limit.
      for (let i = 0; i < 3; i++) assert.equal((await login(t, email, WRONG)).status, 401);
      expectRateLimited(await login(t, email, WRONG), 15 * 60);
    }));

  test('0 switches the limit off', () =>
    withApp({ RATE_LIMIT_LOGIN: '0' }, async (t) => {
      const { email } = await signUp(t);
      for (let i = 0; i < 12; i++) assert.equal((await login(t, email, WRONG)).status, 401);
      assert.equal((await login(t, email, PASSWORD)).status, 200);
      assert.equal(await limitRow(t, 'LOGIN', email), undefined);
    }));
});

describe('LOGIN_IP: failures per address', () => {
  test('many successful logins from one IP stay under a small limit', () =>
    withApp({ RATE_LIMIT_LOGIN_IP: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      for (let i = 0; i < 6; i++) assert.equal((await login(t, email, PASSWORD)).status, 200);
      const row = await limitRow(t, 'LOGIN_IP', '127.0.0.1');
      assert.equal(row?.hits ?? 0, 0);
      // Failures still count from where they stand.
      for (let i = 0; i < 3; i++) assert.equal((await login(t, email, WRONG)).status, 401);
      expectRateLimited(await login(t, email, PASSWORD), 15 * 60);
    }));

  test('failures for different emails from one IP add up', () =>
    withApp({ RATE_LIMIT_LOGIN_IP: '3/15m' }, async (t) => {
      const { email } = await signUp(t);
      for (let i = 0; i < 3; i++) assert.equal((await login(t, uniqueEmail('probe'), WRONG)).status, 401);
      assert.equal((await limitRow(t, 'LOGIN_IP', '127.0.0.1'))?.hits, 3);
      expectRateLimited(await login(t, email, PASSWORD), 15 * 60);
    }));
});

describe('REGISTER: per IP', () => {
  test('the third registration in an hour from one IP is 429 and creates nothing', () =>
    withApp({ RATE_LIMIT_REGISTER: '2/1h' }, async (t) => {
      await signUp(t);
      await signUp(t);
      const email = uniqueEmail('third');
      const body = { email, password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace' };
      expectRateLimited(await t.client().post(REGISTER, body), 3600);
      const users = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
      assert.equal(users.length, 0);
      assert.equal((await limitRow(t, 'REGISTER', '127.0.0.1'))?.hits, 3);

      t.clock.advance(60 * MINUTE + 1_000);
      const later = await t.client().post(REGISTER, body);
      assert.equal(later.status, 201, later.text);
      assert.equal((await limitRow(t, 'REGISTER', '127.0.0.1'))?.hits, 1);
    }));
});
