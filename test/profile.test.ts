import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PASSWORD, errorOf, signUp, type Client } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const ME = '/api/v1/users/me';
const PASSWORD_PATH = '/api/v1/users/me/password';
const NEW_PASSWORD = 'Brand-New-Secret-7';

const userRow = (publicId: string) => t.db.selectFrom('users').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow();

async function login(email: string, password: string) {
  const client = t.client();
  const response = await client.post('/api/v1/auth/login', { email, password });
  return { client, response };
}

async function expectInvalid(client: Client, body: unknown, field: string) {
  const response = await client.patch(ME, body);
  assert.equal(response.status, 400, JSON.stringify(body));
  const error = errorOf(response);
  assert.equal(error.code, 'VALIDATION_ERROR');
  assert.ok(
    error.details?.some((d) => d.field === field),
    `expected a detail for ${field}: ${response.text}`,
  );
}

describe('GET /users/me', () => {
  test('returns my profile', async () => {
    const { client, user } = await signUp(t, { phone_number: '+33142685300' });
    const response = await client.get(ME);
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    assert.deepEqual(response.body.data, user);
    assert.equal(response.body.data.phone_number, '+33142685300');
    assert.equal(response.body.data.role, 'CUSTOMER');
  });

  test('anonymous is 401 UNAUTHENTICATED', async () => {
    const response = await t.client().get(ME);
    assert.equal(response.status, 401);
    assert.equal(errorOf(response).code, 'UNAUTHENTICATED');
  });
});

describe('PATCH /users/me', () => {
  test('changes only the fields sent, persists them and audits before and after', async () => {
    const { client, user } = await signUp(t, { phone_number: '+14155550100' });
    const response = await client.patch(ME, { first_name: 'Augusta' });
    assert.equal(response.status, 200, response.text);
    const data = response.body.data;
    assert.equal(data.first_name, 'Augusta');
    assert.equal(data.last_name, 'Lovelace');
    assert.equal(data.phone_number, '+14155550100');
    assert.equal(data.public_id, user.public_id);
    assert.ok(new Date(data.updated_at).getTime() >= new Date(user.updated_at).getTime());

    const row = await userRow(user.public_id);
    assert.equal(row.first_name, 'Augusta');
    assert.equal(row.last_name, 'Lovelace');
    assert.deepEqual((await client.get(ME)).body.data, data);

    const audit = await auditRows(t, 'user.profile_update', user.public_id);
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor_public_id, user.public_id);
    assert.deepEqual(audit[0]!.changes, {
      before: { first_name: 'Ada', last_name: 'Lovelace', phone_number: '+14155550100' },
      after: { first_name: 'Augusta', last_name: 'Lovelace', phone_number: '+14155550100' },
    });
  });

  test('phone_number null clears it; a valid one sets it', async () => {
    const { client, user } = await signUp(t, { phone_number: '+14155550100' });
    const cleared = await client.patch(ME, { phone_number: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.data.phone_number, null);
    assert.equal((await userRow(user.public_id)).phone_number, null);
    const set = await client.patch(ME, { phone_number: '+442079460000' });
    assert.equal(set.body.data.phone_number, '+442079460000');
  });

  test('an empty body is 400 and changes nothing', async () => {
    const { client, user } = await signUp(t);
    const response = await client.patch(ME, {});
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    assert.equal((await auditRows(t, 'user.profile_update', user.public_id)).length, 0);
  });

  test('unknown fields and fields edited elsewhere (email, role, status) are 400 and change nothing', async () => {
    const { client, user } = await signUp(t);
    await expectInvalid(client, { first_name: 'Eve', nickname: 'eve' }, 'nickname');
    await expectInvalid(client, { role: 'SUPER_ADMIN' }, 'role');
    await expectInvalid(client, { email: 'other@example.test' }, 'email');
    await expectInvalid(client, { status: 'ACTIVE' }, 'status');
    const row = await userRow(user.public_id);
    assert.equal(row.first_name, 'Ada');
    assert.equal(row.role, 'CUSTOMER');
    assert.equal(row.email, user.email);
  });

  test('field bounds and types', async () => {
    const { client } = await signUp(t);
    await expectInvalid(client, { first_name: '' }, 'first_name');
    await expectInvalid(client, { last_name: 'x'.repeat(101) }, 'last_name');
    await expectInvalid(client, { first_name: 42 }, 'first_name');
    await expectInvalid(client, { first_name: null }, 'first_name');
    await expectInvalid(client, { phone_number: '0207 946 0000' }, 'phone_number');
    await expectInvalid(client, { phone_number: '' }, 'phone_number');
    const longest = await client.patch(ME, { first_name: 'f'.repeat(100), last_name: 'L' });
    assert.equal(longest.status, 200);
    assert.equal(longest.body.data.first_name, 'f'.repeat(100));
    assert.equal(longest.body.data.last_name, 'L');
  });
});

describe('PATCH /users/me/password', () => {
  test('a wrong current password is 400 INVALID_PASSWORD and changes nothing', async () => {
    const { client, email, user } = await signUp(t);
    const other = await login(email, PASSWORD);
    const hashBefore = (await userRow(user.public_id)).password_hash;
    const response = await client.patch(PASSWORD_PATH, { current_password: 'Not-My-Password-1', new_password: NEW_PASSWORD });
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'INVALID_PASSWORD');
    assert.equal((await userRow(user.public_id)).password_hash, hashBefore);
    assert.equal((await other.client.get(ME)).status, 200);
    assert.equal((await auditRows(t, 'auth.password_change', user.public_id)).length, 0);
  });

  test('the new password follows the registration rules', async () => {
    const { client, user } = await signUp(t);
    const hashBefore = (await userRow(user.public_id)).password_hash;
    for (const new_password of ['Short-1', 'alllowercaseletters', 'x'.repeat(129)]) {
      const response = await client.patch(PASSWORD_PATH, { current_password: PASSWORD, new_password });
      assert.equal(response.status, 400, new_password);
      const error = errorOf(response);
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.ok(
        error.details?.some((d) => d.field === 'new_password'),
        response.text,
      );
    }
    const unknown = await client.patch(PASSWORD_PATH, { current_password: PASSWORD, new_password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    assert.equal(unknown.status, 400);
    const missing = await client.patch(PASSWORD_PATH, { new_password: NEW_PASSWORD });
    assert.equal(missing.status, 400);
    assert.equal(errorOf(missing).details?.[0]?.field, 'current_password');
    assert.equal((await userRow(user.public_id)).password_hash, hashBefore);
  });

  test('success: 204, other sessions end, this one lives, only the new password logs in, audited', async () => {
    const { client, email, user } = await signUp(t);
    const laptop = await login(email, PASSWORD);
    const phone = await login(email, PASSWORD);
    const laptopSession = (await laptop.client.get('/api/v1/auth/sessions')).body.data.find((s: any) => s.current).public_id;
    const hashBefore = (await userRow(user.public_id)).password_hash;

    const response = await client.patch(PASSWORD_PATH, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');

    for (const other of [laptop.client, phone.client]) {
      const stale = await other.get(ME);
      assert.equal(stale.status, 401);
      assert.equal(errorOf(stale).code, 'UNAUTHENTICATED');
    }
    assert.equal((await client.get(ME)).status, 200);
    assert.equal((await client.patch(ME, { first_name: 'Still-Here' })).status, 200);

    const row = await userRow(user.public_id);
    assert.notEqual(row.password_hash, hashBefore);
    assert.match(row.password_hash, /^scrypt\$/);

    const withOld = await login(email, PASSWORD);
    assert.equal(withOld.response.status, 401);
    assert.equal(errorOf(withOld.response).code, 'INVALID_CREDENTIALS');
    const withNew = await login(email, NEW_PASSWORD);
    assert.equal(withNew.response.status, 200);

    const audit = await auditRows(t, 'auth.password_change', user.public_id);
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.actor_public_id, user.public_id);
    const revoked = (audit[0]!.changes as any).after.revoked_sessions as string[];
    assert.equal(revoked.length, 2);
    assert.ok(revoked.includes(laptopSession));
  });

  test('anonymous is 401', async () => {
    const response = await t.client().patch(PASSWORD_PATH, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    assert.equal(response.status, 401);
  });
});

describe('secrets never leave the server', () => {
  test('no response and no audit entry carries a password or its hash', async () => {
    const { client, email, user } = await signUp(t);
    const texts: string[] = [];
    const keep = async (p: Promise<{ status: number; text: string }>) => {
      const response = await p;
      assert.ok(response.status < 400, response.text);
      texts.push(response.text);
    };
    await keep(client.get(ME));
    await keep(client.patch(ME, { last_name: 'Byron' }));
    await keep(client.get('/api/v1/auth/session'));
    await keep(client.get('/api/v1/auth/sessions'));
    await keep(client.patch(PASSWORD_PATH, { current_password: PASSWORD, new_password: NEW_PASSWORD }));
    await keep(t.client().post('/api/v1/auth/login', { email, password: NEW_PASSWORD }));
    texts.push((await t.client().post('/api/v1/auth/login', { email, password: PASSWORD })).text);

    const hash = (await userRow(user.public_id)).password_hash;
    for (const text of texts) {
      assert.ok(!text.includes(hash), text);
      assert.ok(!/scrypt\$|password_hash/.test(text), text);
      assert.ok(!text.includes(PASSWORD) && !text.includes(NEW_PASSWORD), text);
    }

    const audit = await t.db.selectFrom('audit_log').selectAll().execute();
    assert.ok(audit.length > 0);
    for (const row of audit) {
      const serialized = JSON.stringify(row);
      assert.ok(!/scrypt\$|password_hash/.test(serialized), serialized);
      assert.ok(!serialized.includes(PASSWORD) && !serialized.includes(NEW_PASSWORD), serialized);
    }
  });
});
