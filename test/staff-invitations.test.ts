import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PASSWORD, errorOf, signUp, uniqueEmail } from './helpers/factories.js';
import { auditRows, setCookie } from './helpers/inspect.js';
import { linkFrom, tokenFrom } from './helpers/mail.js';
import { useApp, type AppFixture } from './helpers/use-app.js';

/** Staff invitations: a SUPER_ADMIN invites by email; the link creates a verified staff account and signs it in. */

const t: AppFixture<'CUSTOMER' | 'ADMIN' | 'SUPER_ADMIN'> = useApp({
  env: (): Record<string, string> => ({
    SMTP_URL: t.mail.url,
    EMAIL_POLL_INTERVAL_MS: '50',
    RATE_LIMIT_REGISTER: '0',
    STAFF_INVITATION_TTL: '1h',
  }),
  as: ['CUSTOMER', 'ADMIN', 'SUPER_ADMIN'],
  mail: true,
});

const SUBJECT = 'You are invited to run the store';
const INVITATIONS = '/api/v1/admin/staff-invitations';
const TTL = 3600_000;

async function invite(role: 'ADMIN' | 'SUPER_ADMIN' = 'ADMIN', email = uniqueEmail('staff')) {
  const response = await t.superAdmin.post(INVITATIONS, { email, role });
  assert.equal(response.status, 201, response.text);
  const message = await t.mail.waitForMail(email, SUBJECT);
  return { invitation: response.body.data, email, token: tokenFrom(message.raw), link: linkFrom(message.raw) };
}

const accept = (token: string, client = t.client(), body: Record<string, unknown> = {}) =>
  client.post('/api/v1/auth/staff-invitations/accept', { token, first_name: 'Ada', last_name: 'Clerk', password: PASSWORD, ...body });

describe('inviting', () => {
  test('the email links to the console; accepting creates a verified account with the role, signed in', async () => {
    const { invitation, email, token, link } = await invite('ADMIN');
    assert.equal(invitation.state, 'PENDING');
    assert.equal(invitation.invited_by_email, t.superAdmin.email);
    assert.ok(link.startsWith(`${t.config.publicBaseUrl}/admin/accept-invitation?token=`), link);

    const preview = await t.client().post('/api/v1/auth/staff-invitations/preview', { token });
    assert.deepEqual(preview.body.data, { email, role: 'ADMIN', expires_at: invitation.expires_at });

    const browser = t.client();
    const accepted = await accept(token, browser);
    assert.equal(accepted.status, 201, accepted.text);
    assert.deepEqual([accepted.body.data.email, accepted.body.data.role, accepted.body.data.email_verified], [email, 'ADMIN', true]);
    assert.ok(setCookie(accepted, 'session')?.value, 'signed in');
    const session = await browser.get('/api/v1/auth/session');
    assert.equal(session.body.data.user.role, 'ADMIN');
    assert.equal((await browser.get('/api/v1/admin/orders')).status, 200, 'the new staff member can use the console');

    const list = await t.superAdmin.get(`${INVITATIONS}?state=ACCEPTED`);
    assert.ok(list.body.data.some((i: { public_id: string }) => i.public_id === invitation.public_id));
    assert.equal((await auditRows(t, 'staff.invite', invitation.public_id)).length, 1);
    assert.equal((await auditRows(t, 'staff.invitation_accept', invitation.public_id)).length, 1);
  });

  test('a link works once; racing acceptances create one account', async () => {
    const { token } = await invite('SUPER_ADMIN');
    const answers = await Promise.all(Array.from({ length: 6 }, () => accept(token)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 410, 410, 410, 410, 410]);
    assert.equal(errorOf(await accept(token)).code, 'TOKEN_EXPIRED');
    assert.equal(errorOf(await accept('not-a-token')).code, 'NOT_FOUND');
  });

  test('a second invitation replaces the first; a revoked or expired link is 410 and creates nothing', async () => {
    const email = uniqueEmail('twice');
    const first = await invite('ADMIN', email);
    const second = await t.superAdmin.post(INVITATIONS, { email, role: 'SUPER_ADMIN' });
    assert.equal(second.status, 201);
    assert.equal(errorOf(await accept(first.token)).code, 'TOKEN_EXPIRED');

    const revoked = await invite();
    assert.equal((await t.superAdmin.delete(`${INVITATIONS}/${revoked.invitation.public_id}`)).status, 204);
    assert.equal(errorOf(await accept(revoked.token)).code, 'TOKEN_EXPIRED');
    assert.equal(errorOf(await t.superAdmin.delete(`${INVITATIONS}/${revoked.invitation.public_id}`)).code, 'CONFLICT');

    const expired = await invite();
    t.clock.advance(TTL + 1000);
    try {
      assert.equal(errorOf(await accept(expired.token)).code, 'TOKEN_EXPIRED');
      const list = await t.superAdmin.get(`${INVITATIONS}?state=EXPIRED&limit=100`);
      assert.equal(list.status, 200, list.text);
      assert.ok(list.body.data.some((i: { public_id: string }) => i.public_id === expired.invitation.public_id));
    } finally {
      t.clock.advance(-(TTL + 1000));
    }
    const made = await t.db.selectFrom('users').select('id').where('email', 'in', [revoked.email, expired.email]).execute();
    assert.deepEqual(made, []);
  });

  test('an email that has an account is 409 EMAIL_TAKEN: its role is changed on the staff screen instead', async () => {
    const { email, user } = await signUp(t);
    const refused = await t.superAdmin.post(INVITATIONS, { email: email.toUpperCase(), role: 'ADMIN' });
    assert.equal(errorOf(refused).code, 'EMAIL_TAKEN');
    // The super admin is told which account, so the console opens it.
    assert.deepEqual(errorOf(refused).details, [{ field: 'email', message: 'already has an account', user_public_id: user.public_id }]);
    // Someone registering with an invited email before the link is used takes it; the link then refuses.
    const { email: invited, token } = await invite();
    await signUp(t, { email: invited });
    assert.equal(errorOf(await accept(token)).code, 'EMAIL_TAKEN');
  });
});

describe('who may', () => {
  test('only a SUPER_ADMIN invites, lists and revokes', async () => {
    for (const client of [t.admin, t.customer]) {
      assert.equal(errorOf(await client.post(INVITATIONS, { email: uniqueEmail(), role: 'ADMIN' })).code, 'FORBIDDEN');
      assert.equal(errorOf(await client.get(INVITATIONS)).code, 'FORBIDDEN');
    }
    assert.equal(errorOf(await t.superAdmin.post(INVITATIONS, { email: uniqueEmail(), role: 'CUSTOMER' })).code, 'VALIDATION_ERROR');
    assert.equal(errorOf(await t.superAdmin.delete(`${INVITATIONS}/inv_unknown0000000000000`)).code, 'NOT_FOUND');
  });

  test('a weak password is refused before the link is spent', async () => {
    const { token } = await invite();
    assert.equal(errorOf(await accept(token, t.client(), { password: 'aaaaaaaa' })).code, 'VALIDATION_ERROR');
    assert.equal((await accept(token)).status, 201);
  });
});
