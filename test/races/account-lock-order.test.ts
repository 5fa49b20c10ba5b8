import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transactionRetries } from '../../src/db/transaction.js';
import { hashPassword } from '../../src/lib/password.js';
import { startChange, VERIFY } from '../helpers/email-change.js';
import { PASSWORD, signUp, uniqueEmail } from '../helpers/factories.js';
import { sleep } from '../helpers/mail.js';
import { resetToken } from '../helpers/recovery.js';
import { useApp } from '../helpers/use-app.js';

/**
 * The account's row before its tokens (src/db/LOCKING.md, steps 16-20): a
 * password change holds the account, then ends its reset and email-change
 * links; a reset or an email-change confirmation acts on a link and then on
 * the account. Taken the other way round (the link first), the two deadlock
 * and PostgreSQL aborts one. Each race below starts the second request at
 * several offsets across the other's password hashing (a costlier hash here
 * widens the window) and asserts both answer as they would alone, the
 * account ends in the state the later commit gives, and no transaction was
 * a deadlock victim.
 */
const t = useApp({
  mail: true,
  env: {
    EMAIL_POLL_INTERVAL_MS: '50',
    RATE_LIMIT_REGISTER: '0',
    RATE_LIMIT_PASSWORD_RESET: '0',
    RATE_LIMIT_LOGIN: '0',
    PASSWORD_HASH_COST: '12',
  },
});

const CHANGED = 'Changed-Pass-2024';
const RESET = 'Reset-Pass-2024';
const ROUNDS = 10;

/** How long one password hash takes here: the unit the offsets are drawn in. */
async function hashMs(): Promise<number> {
  const started = performance.now();
  await hashPassword(PASSWORD, t.config.passwordHashCost);
  return performance.now() - started;
}

/** Offsets (ms) spread from half a hash to three hashes, one per round. */
const offsets = (unit: number) => Array.from({ length: ROUNDS }, (_, i) => Math.round(unit * (0.5 + (2.5 * i) / (ROUNDS - 1))));

const changePassword = (client: ReturnType<typeof t.client>) =>
  client.patch('/api/v1/users/me/password', { current_password: PASSWORD, new_password: CHANGED });

const loginStatus = async (email: string, password: string) => (await t.client().post('/api/v1/auth/login', { email, password })).status;

test('a password change raced with a reset of the same account: both answer as alone, the later commit wins, no deadlock', async () => {
  const before = { ...transactionRetries(t.db) };
  let changeWon = 0;
  for (const offset of offsets(await hashMs())) {
    const { client, email } = await signUp(t);
    const token = await resetToken(t, email);
    const change = changePassword(client);
    await sleep(offset);
    const reset = await t.client().post('/api/v1/auth/password-reset/verify', { token, new_password: RESET });
    const changed = await change;
    if (changed.status === 400 || changed.status === 401) {
      // On a loaded machine the reset can commit before the change has even read the account: the
      // change then meets the new password (or its session ended by the reset), as it would alone
      // after the reset, and the reset holds.
      assert.ok(['INVALID_PASSWORD', 'UNAUTHENTICATED'].includes(changed.body.error.code), changed.text);
      assert.equal(reset.status, 204, reset.text);
      assert.equal(await loginStatus(email, RESET), 200, `offset ${offset} ms: the reset came first and holds`);
      continue;
    }
    assert.equal(changed.status, 204, changed.text);
    changeWon += 1;
    // A reset that committed first is overwritten by the change; one that came second found its link ended.
    assert.ok(reset.status === 204 || (reset.status === 410 && reset.body.error.code === 'TOKEN_EXPIRED'), `${reset.status} ${reset.text}`);
    assert.equal(await loginStatus(email, CHANGED), 200, `offset ${offset} ms: the change is the password that holds`);
  }
  assert.ok(changeWon > 0, 'in no round did the change read the account before the reset committed: the race was never run');
  assert.deepEqual(transactionRetries(t.db), before, 'no transaction was aborted as a deadlock victim');
});

test('a password change raced with an email-change confirmation: both answer as alone, no deadlock', async () => {
  const before = { ...transactionRetries(t.db) };
  for (const offset of offsets(await hashMs())) {
    const { client, email, user } = await signUp(t);
    const newEmail = uniqueEmail('moved');
    const token = await startChange(t, client, newEmail);
    const change = changePassword(client);
    await sleep(offset);
    const confirm = await client.post(VERIFY, { token });
    const changed = await change;
    assert.equal(changed.status, 204, changed.text);
    assert.ok(
      confirm.status === 200 || (confirm.status === 410 && confirm.body.error.code === 'TOKEN_EXPIRED'),
      `${confirm.status} ${confirm.text}`,
    );
    const address = confirm.status === 200 ? newEmail : email;
    const stored = await t.db.selectFrom('users').select('email').where('public_id', '=', user.public_id).executeTakeFirstOrThrow();
    assert.equal(stored.email, address);
    assert.equal(await loginStatus(address, CHANGED), 200);
  }
  assert.deepEqual(transactionRetries(t.db), before, 'no transaction was aborted as a deadlock victim');
});
