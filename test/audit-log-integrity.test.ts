import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { tag } from './helpers/commerce.js';
import { PASSWORD, signUp } from './helpers/factories.js';
import { auditCounter } from './helpers/inspect.js';
import { ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/**
 * Contract section 12: an entry exists exactly when its change does (also
 * when the change fails at commit), holds no secrets, and the log is
 * append-only. Each admin write's entry: audit-log-writes.
 */

const A = '/api/v1/admin';

// No email worker: the secrets test reads account tokens from queued emails, and delivering one removes its token.
const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_WORKER: 'off' }, as: ['ADMIN', 'SUPER_ADMIN'] });

const auditCount = auditCounter(t);

describe('an entry exists exactly when its change does', () => {
  test('a change that fails at commit leaves no entry behind', async () => {
    // Deferred checks that fail at COMMIT, after the service wrote its entry: a separate connection would keep it.
    await sql`CREATE FUNCTION test_fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'commit refused by test'; END $$`.execute(
      t.db,
    );
    const triggers = [
      sql`CREATE CONSTRAINT TRIGGER test_fail_expenses AFTER INSERT OR UPDATE ON expenses DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
          WHEN (NEW.description LIKE 'FAIL-AT-COMMIT%') EXECUTE FUNCTION test_fail_commit()`,
      sql`CREATE CONSTRAINT TRIGGER test_fail_products AFTER INSERT OR UPDATE ON products DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
          WHEN (NEW.name LIKE 'FAIL-AT-COMMIT%') EXECUTE FUNCTION test_fail_commit()`,
      sql`CREATE CONSTRAINT TRIGGER test_fail_users AFTER UPDATE ON users DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
          WHEN (NEW.last_name = 'FAIL-AT-COMMIT' AND NEW.status = 'SUSPENDED') EXECUTE FUNCTION test_fail_commit()`,
    ];
    for (const trigger of triggers) await trigger.execute(t.db);
    try {
      const customer = await signUp(t, { last_name: 'FAIL-AT-COMMIT' });
      const product = ok(await t.admin.post(`${A}/products`, { name: `Fine ${tag()}` }), 201);
      const before = await auditCount();
      const attempts = [
        await t.superAdmin.post(`${A}/expenses`, {
          description: `FAIL-AT-COMMIT ${tag()}`,
          category: 'OTHER',
          amount: '5.00',
          spent_at: '2026-01-01',
        }),
        await t.admin.post(`${A}/products`, { name: `FAIL-AT-COMMIT ${tag()}` }),
        await t.admin.patch(`${A}/products/${product.public_id}`, { name: `FAIL-AT-COMMIT ${tag()}` }),
        await t.admin.post(`${A}/users/${customer.user.public_id}/suspend`),
      ];
      for (const response of attempts) assert.equal(response.status, 500, response.text);
      assert.equal(await auditCount(), before, 'no entry survived its failed change');
      ok(await customer.client.get('/api/v1/users/me'));
    } finally {
      await sql`DROP TRIGGER test_fail_expenses ON expenses; DROP TRIGGER test_fail_products ON products; DROP TRIGGER test_fail_users ON users;
                DROP FUNCTION test_fail_commit()`.execute(t.db);
    }
  });
});

describe('secrets never reach the log', () => {
  test('no password, password hash, session token, CSRF token or account token in any entry', async () => {
    const person = await signUp(t);
    const newPassword = 'Another-Secret-77';
    const wrong = 'Wrong-Password-11';
    assert.equal((await t.client().post('/api/v1/auth/login', { email: person.email, password: wrong })).status, 401);
    const other = t.client();
    ok(await other.post('/api/v1/auth/login', { email: person.email, password: PASSWORD }));
    const csrf = await person.client.csrf();
    assert.equal(
      (await person.client.patch('/api/v1/users/me/password', { current_password: PASSWORD, new_password: newPassword })).status,
      204,
    );
    assert.equal(
      (
        await person.client.post('/api/v1/users/me/email', {
          new_email: `moved-${tag().toLowerCase()}@example.test`,
          password: newPassword,
        })
      ).status,
      202,
    );
    assert.equal((await t.client().post('/api/v1/auth/password-reset', { email: person.email })).status, 202);
    const mails = await t.db.selectFrom('outbox').select('payload').execute();
    const tokens = mails.map((m) => (m.payload as { token?: string }).token).filter((v): v is string => typeof v === 'string');
    assert.ok(tokens.length >= 2, 'reset and email-change tokens were issued');
    const resetMail = await t.db
      .selectFrom('outbox')
      .select('payload')
      .where('kind', '=', 'password_reset')
      .where('recipient', '=', person.email)
      .executeTakeFirstOrThrow();
    const finalPassword = 'Third-Secret-99';
    assert.equal(
      (
        await t
          .client()
          .post('/api/v1/auth/password-reset/verify', { token: (resetMail.payload as any).token, new_password: finalPassword })
      ).status,
      204,
    );

    const secrets = [PASSWORD, newPassword, wrong, finalPassword, csrf, ...tokens];
    for (const client of [person.client, other, t.admin, t.superAdmin]) secrets.push(...client.cookies.values());
    const users = await t.db.selectFrom('users').select('password_hash').execute();
    secrets.push(...users.map((u) => u.password_hash));
    const hashes = await sql<{
      h: string;
    }>`SELECT encode(token_hash, 'hex') AS h FROM sessions UNION ALL SELECT encode(token_hash, 'hex') FROM account_tokens`.execute(t.db);
    secrets.push(...hashes.rows.map((r) => r.h));

    const actions = (await t.db.selectFrom('audit_log').select('action').distinct().execute()).map((r) => r.action);
    for (const expected of [
      'auth.login',
      'auth.login_failed',
      'auth.password_change',
      'auth.password_reset',
      'user.email_change_request',
    ]) {
      assert.ok(actions.includes(expected), `${expected} was audited`);
    }
    const dump = (await sql<{ j: string }>`SELECT row_to_json(a)::text AS j FROM audit_log a`.execute(t.db)).rows
      .map((r) => r.j)
      .join('\n');
    for (const secret of secrets)
      assert.ok(secret.length >= 8 && !dump.includes(secret), `a secret appears in the audit log: ${secret.slice(0, 6)}...`);
    assert.doesNotMatch(dump, /scrypt\$|password_hash|"token"/);
  });
});

describe('append-only in the database', () => {
  test('UPDATE, DELETE and TRUNCATE on audit_log are refused', async () => {
    const before = await auditCount();
    await assert.rejects(sql`UPDATE audit_log SET action = 'tampered'`.execute(t.db), /append-only/);
    await assert.rejects(sql`DELETE FROM audit_log`.execute(t.db), /append-only/);
    await assert.rejects(sql`TRUNCATE audit_log`.execute(t.db), /append-only/);
    assert.equal(await auditCount(), before);
    assert.equal((await t.db.selectFrom('audit_log').select('id').where('action', '=', 'tampered').execute()).length, 0);
  });
});
