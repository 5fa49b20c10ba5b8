import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PASSWORD, errorOf, signUp, uniqueEmail, verifyEmail } from './helpers/factories.js';
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

  test('an email that has an account is 409 EMAIL_TAKEN: its role is changed on the staff screen instead, once the address is verified', async () => {
    const { email, user } = await signUp(t);
    const refused = await t.superAdmin.post(INVITATIONS, { email: email.toUpperCase(), role: 'ADMIN' });
    assert.equal(errorOf(refused).code, 'EMAIL_TAKEN');
    // The super admin is told which account, so the console opens it, and that it is not verified.
    assert.deepEqual(errorOf(refused).details, [
      { field: 'email', message: 'already has an account', user_public_id: user.public_id, email_verified: false },
    ]);
    assert.match(errorOf(refused).message, /has not verified it/);
    await verifyEmail(t, email);
    const verified = errorOf(await t.superAdmin.post(INVITATIONS, { email, role: 'ADMIN' }));
    assert.equal((verified.details?.[0] as { email_verified?: boolean } | undefined)?.email_verified, true);
    assert.match(verified.message, /give it the role on the staff screen instead/);
  });

  test('someone who registers an invited address first gets no staff role by it: the link refuses, and so does the staff screen until the address is proven', async () => {
    const { email: invited, token } = await invite('SUPER_ADMIN');
    const squatter = await signUp(t, { email: invited });
    assert.equal(errorOf(await accept(token)).code, 'EMAIL_TAKEN');
    const promoted = await t.superAdmin.patch(`/api/v1/admin/users/${squatter.user.public_id}/role`, { role: 'SUPER_ADMIN' });
    assert.equal(errorOf(promoted).code, 'EMAIL_NOT_VERIFIED');
    const row = await t.db.selectFrom('users').select('role').where('public_id', '=', squatter.user.public_id).executeTakeFirstOrThrow();
    assert.equal(row.role, 'CUSTOMER');
  });
});

describe('the authority behind a link', () => {
  /** A second SUPER_ADMIN, made through an invitation, and signed in. */
  async function secondSuperAdmin() {
    const { token } = await invite('SUPER_ADMIN');
    const client = t.client();
    const accepted = await accept(token, client);
    assert.equal(accepted.status, 201, accepted.text);
    return { client, user: accepted.body.data };
  }

  test('demoting a SUPER_ADMIN revokes the invitations they sent, audited; their links are 410 and make nobody staff', async () => {
    const sender = await secondSuperAdmin();
    const email = uniqueEmail('left-behind');
    const sent = await sender.client.post(INVITATIONS, { email, role: 'SUPER_ADMIN' });
    assert.equal(sent.status, 201, sent.text);
    const token = tokenFrom((await t.mail.waitForMail(email, SUBJECT)).raw);

    const demoted = await t.superAdmin.patch(`/api/v1/admin/users/${sender.user.public_id}/role`, { role: 'CUSTOMER' });
    assert.equal(demoted.status, 200, demoted.text);
    const listed = await t.superAdmin.get(`${INVITATIONS}?state=REVOKED`);
    assert.ok(listed.body.data.some((i: { public_id: string }) => i.public_id === sent.body.data.public_id));
    const [entry] = await auditRows(t, 'user.role_change', sender.user.public_id);
    assert.deepEqual((entry!.changes as any).after.revoked_invitations, [sent.body.data.public_id]);

    assert.equal(errorOf(await t.client().post('/api/v1/auth/staff-invitations/preview', { token })).code, 'TOKEN_EXPIRED');
    assert.equal(errorOf(await accept(token)).code, 'TOKEN_EXPIRED');
    assert.equal((await t.db.selectFrom('users').select('id').where('email', '=', email).execute()).length, 0, 'no account made');
  });

  test('a link whose sender lost the role another way (changed in the database, or suspended after demotion) is refused too', async () => {
    const sender = await secondSuperAdmin();
    const email = uniqueEmail('orphan');
    assert.equal((await sender.client.post(INVITATIONS, { email, role: 'ADMIN' })).status, 201);
    const token = tokenFrom((await t.mail.waitForMail(email, SUBJECT)).raw);
    await t.db.updateTable('users').set({ role: 'ADMIN' }).where('public_id', '=', sender.user.public_id).execute();
    assert.equal(errorOf(await accept(token)).code, 'TOKEN_EXPIRED');
    await t.db
      .updateTable('users')
      .set({ role: 'SUPER_ADMIN', status: 'SUSPENDED' })
      .where('public_id', '=', sender.user.public_id)
      .execute();
    assert.equal(errorOf(await accept(token)).code, 'TOKEN_EXPIRED');
    // The same link while its sender holds the role again works: the check is of the sender now.
    await t.db.updateTable('users').set({ status: 'ACTIVE' }).where('public_id', '=', sender.user.public_id).execute();
    assert.equal((await accept(token)).status, 201);
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
