import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { startTestApp } from './helpers/app.js';
import type { Response } from './helpers/client.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { PASSWORD, errorOf, signInAs, signUp, verifyEmail } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/** Contract section 11, accounts: listing, detail, suspension, role changes and their audit trail. */

const USERS = '/api/v1/admin/users';
const tag = () => randomBytes(4).toString('hex');

const LIMITS_OFF = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', RATE_LIMIT_LOGIN_IP: '0' };

const t = useApp({ env: LIMITS_OFF, as: ['ADMIN', 'SUPER_ADMIN'] });

function ok(response: Response, status = 200) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  return response.body.data;
}

function fails(response: Response, status: number, code: string) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  const error = errorOf(response);
  assert.equal(error.code, code);
  return error;
}

const login = (email: string, password = PASSWORD) => t.client().post('/api/v1/auth/login', { email, password });

async function userRow(publicId: string) {
  return t.db.selectFrom('users').select(['role', 'status']).where('public_id', '=', publicId).executeTakeFirstOrThrow();
}

const ids = (response: Response): string[] => response.body.data.map((u: { public_id: string }) => u.public_id);

describe('GET /admin/users', () => {
  test('search matches a substring of the name or the email, case-insensitively', async () => {
    const surname = `Hopper${tag()}`;
    const named = [];
    for (let i = 0; i < 3; i++) named.push((await signUp(t, { first_name: 'Grace', last_name: surname })).user.public_id);
    const mailTag = `findme-${tag()}`;
    const byMail = (await signUp(t, { email: `${mailTag}@example.test`, first_name: 'Zed', last_name: 'Other' })).user.public_id;

    assert.deepEqual(ids(await t.admin.get(`${USERS}?search=${surname.toUpperCase()}&limit=100`)).sort(), [...named].sort());
    assert.deepEqual(
      ids(await t.admin.get(`${USERS}?search=${encodeURIComponent(`Grace ${surname}`)}`)).sort(),
      [...named].sort(),
      'full name',
    );
    assert.deepEqual(ids(await t.admin.get(`${USERS}?search=${mailTag.toUpperCase()}`)), [byMail]);
    // LIKE wildcards in the term are literal characters, not "anything".
    const wild = await t.admin.get(`${USERS}?search=${encodeURIComponent('%')}`);
    assert.deepEqual(ok(wild), []);
    assert.equal(wild.body.meta.total, 0);
    assert.deepEqual(ok(await t.admin.get(`${USERS}?search=Hopp_r${surname.slice(6)}`)), [], '_ is not a one-character wildcard');
  });

  test('role and status filters', async () => {
    const staff = await signInAs(t, 'ADMIN');
    const admins = ok(await t.admin.get(`${USERS}?role=ADMIN&limit=100`)) as any[];
    assert.ok(admins.length >= 2);
    assert.ok(admins.every((u) => u.role === 'ADMIN'));
    assert.ok(admins.some((u) => u.public_id === staff.user.public_id));
    const supers = ok(await t.admin.get(`${USERS}?role=SUPER_ADMIN&limit=100`)) as any[];
    assert.ok(supers.some((u) => u.public_id === t.superAdmin.user.public_id));
    assert.ok(supers.every((u) => u.role === 'SUPER_ADMIN'));
    // STAFF: both staff roles, as the console's Staff list shows them.
    const everyStaff = ok(await t.admin.get(`${USERS}?role=STAFF&limit=100`)) as any[];
    assert.deepEqual(new Set(everyStaff.map((u) => u.role)), new Set(['ADMIN', 'SUPER_ADMIN']));
    assert.ok(everyStaff.some((u) => u.public_id === t.superAdmin.user.public_id));
    assert.ok(everyStaff.some((u) => u.public_id === staff.user.public_id));

    const victim = await signUp(t);
    ok(await t.admin.post(`${USERS}/${victim.user.public_id}/suspend`));
    const suspended = ok(await t.admin.get(`${USERS}?status=SUSPENDED&limit=100`)) as any[];
    assert.ok(suspended.some((u) => u.public_id === victim.user.public_id));
    assert.ok(suspended.every((u) => u.status === 'SUSPENDED'));
    const active = ok(await t.admin.get(`${USERS}?status=ACTIVE&role=CUSTOMER&limit=100`)) as any[];
    assert.ok(active.length > 0 && active.every((u) => u.status === 'ACTIVE' && u.role === 'CUSTOMER'));
    assert.ok(!active.some((u) => u.public_id === victim.user.public_id));
    for (const field of ['password_hash', 'password']) assert.ok(!(field in active[0]), `${field} leaked`);

    fails(await t.admin.get(`${USERS}?role=ROOT`), 400, 'VALIDATION_ERROR');
    fails(await t.admin.get(`${USERS}?status=GONE`), 400, 'VALIDATION_ERROR');
    fails(await t.admin.get(`${USERS}?limit=101`), 400, 'VALIDATION_ERROR');
  });

  test('pagination: newest first, pages neither repeat nor skip, accurate meta', async () => {
    const surname = `Page${tag()}`;
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await signUp(t, { last_name: surname })).user.public_id);
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const response = await t.admin.get(`${USERS}?search=${surname}&limit=2&page=${page}`);
      ok(response);
      assert.deepEqual(response.body.meta, { page, limit: 2, total: 5, totalPages: 3, hasNext: page < 3, hasPrev: page > 1 });
      seen.push(...ids(response));
    }
    assert.deepEqual(seen, [...created].reverse(), 'newest first, each once');
    const past = await t.admin.get(`${USERS}?search=${surname}&limit=2&page=4`);
    assert.deepEqual(ok(past), []);
    assert.equal(past.body.meta.total, 5);
  });
});

describe('GET /admin/users/{usr}', () => {
  test('order_count counts every order; lifetime_spend sums those not cancelled', async () => {
    const { variantId } = await sellableVariant(t.admin, { price: '12.34', stock: 20 });
    const buyer = await shopper(t, [{ variantId, quantity: 2 }]);
    const first = ok(await checkout(buyer.client, buyer.addressId), 201);
    ok(await buyer.client.post('/api/v1/cart/items', { variant_public_id: variantId, quantity: 3 }));
    const second = ok(await checkout(buyer.client, buyer.addressId), 201);
    ok(await t.admin.patch(`/api/v1/admin/orders/${first.public_id}`, { status: 'CANCELLED' }));

    const detail = ok(await t.admin.get(`${USERS}/${buyer.user.public_id}`));
    assert.equal(detail.order_count, 2);
    assert.equal(detail.lifetime_spend, second.total);
    assert.notEqual(second.total, '0.00');
    assert.equal(detail.email, buyer.email);

    const none = ok(await t.admin.get(`${USERS}/${(await signUp(t)).user.public_id}`));
    assert.equal(none.order_count, 0);
    assert.equal(none.lifetime_spend, '0.00');
  });

  test('an unknown or malformed ID is 404', async () => {
    fails(await t.admin.get(`${USERS}/usr_${'A'.repeat(20)}`), 404, 'NOT_FOUND');
    fails(await t.admin.get(`${USERS}/ord_${'A'.repeat(20)}`), 404, 'NOT_FOUND');
    fails(await t.admin.get(`${USERS}/nope`), 404, 'NOT_FOUND');
  });
});

describe('suspend and activate', () => {
  test('suspension ends the sessions at once and blocks login (403); activation lets it back in', async () => {
    const target = await signUp(t);
    ok(await target.client.get('/api/v1/users/me'));
    const suspended = ok(await t.admin.post(`${USERS}/${target.user.public_id}/suspend`));
    assert.equal(suspended.status, 'SUSPENDED');

    fails(await target.client.get('/api/v1/users/me'), 401, 'UNAUTHENTICATED');
    fails(await login(target.email), 403, 'FORBIDDEN');
    assert.equal((await userRow(target.user.public_id)).status, 'SUSPENDED');

    const activated = ok(await t.admin.post(`${USERS}/${target.user.public_id}/activate`));
    assert.equal(activated.status, 'ACTIVE');
    fails(await target.client.get('/api/v1/users/me'), 401, 'UNAUTHENTICATED'); // revoked stays revoked
    assert.equal(ok(await login(target.email)).status, 'ACTIVE');

    const [suspend] = await auditRows(t, 'user.suspend', target.user.public_id);
    assert.deepEqual(suspend!.changes && (suspend!.changes as any).before, { status: 'ACTIVE' });
    assert.equal((suspend!.changes as any).after.status, 'SUSPENDED');
    assert.equal((suspend!.changes as any).after.revoked_sessions.length, 1);
    assert.equal(suspend!.actor_public_id, t.admin.user.public_id);
    const [activate] = await auditRows(t, 'user.activate', target.user.public_id);
    assert.deepEqual(activate!.changes, { before: { status: 'SUSPENDED' }, after: { status: 'ACTIVE' } });
  });

  test('an ADMIN acts on customers only, never on itself; a SUPER_ADMIN may suspend an ADMIN', async () => {
    const other = await signInAs(t, 'ADMIN');
    fails(await t.admin.post(`${USERS}/${other.user.public_id}/suspend`), 403, 'FORBIDDEN');
    fails(await t.admin.post(`${USERS}/${t.superAdmin.user.public_id}/suspend`), 403, 'FORBIDDEN');
    fails(await t.admin.post(`${USERS}/${t.admin.user.public_id}/suspend`), 400, 'VALIDATION_ERROR');
    fails(await t.superAdmin.post(`${USERS}/${t.superAdmin.user.public_id}/suspend`), 400, 'VALIDATION_ERROR');
    assert.equal((await userRow(other.user.public_id)).status, 'ACTIVE');
    assert.equal((await userRow(t.admin.user.public_id)).status, 'ACTIVE');
    assert.equal((await auditRows(t, 'user.suspend', other.user.public_id)).length, 0, 'a refused write leaves no audit entry');

    ok(await t.superAdmin.post(`${USERS}/${other.user.public_id}/suspend`));
    fails(await other.client.get('/api/v1/admin/stats'), 401, 'UNAUTHENTICATED');
    fails(await t.admin.post(`${USERS}/${other.user.public_id}/activate`), 403, 'FORBIDDEN');
    ok(await t.superAdmin.post(`${USERS}/${other.user.public_id}/activate`));
    fails(await t.admin.post(`${USERS}/usr_${'B'.repeat(20)}/suspend`), 404, 'NOT_FOUND');
  });
});

describe('PATCH /admin/users/{usr}/role', () => {
  test('SUPER_ADMIN raises a customer to ADMIN: old sessions end, the new role applies on next login', async () => {
    const target = await signUp(t);
    fails(await target.client.get('/api/v1/admin/stats'), 403, 'FORBIDDEN');
    // Only once the address is proven: anyone can register one they do not own.
    const refused = fails(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ADMIN' }), 409, 'EMAIL_NOT_VERIFIED');
    assert.equal(refused.details?.[0]?.field, 'role');
    ok(await target.client.get('/api/v1/users/me')); // nothing changed: the session lives on
    await verifyEmail(t, target.email);
    const changed = ok(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ADMIN' }));
    assert.equal(changed.role, 'ADMIN');
    fails(await target.client.get('/api/v1/users/me'), 401, 'UNAUTHENTICATED');

    const again = t.client();
    assert.equal(ok(await again.post('/api/v1/auth/login', { email: target.email, password: PASSWORD })).role, 'ADMIN');
    ok(await again.get('/api/v1/admin/stats'));

    const [entry] = await auditRows(t, 'user.role_change', target.user.public_id);
    assert.deepEqual((entry!.changes as any).before, { role: 'CUSTOMER' });
    assert.equal((entry!.changes as any).after.role, 'ADMIN');
    assert.equal(entry!.actor_public_id, t.superAdmin.user.public_id);
    assert.equal(entry!.actor_role, 'SUPER_ADMIN');
  });

  test('an ADMIN cannot change roles; nobody changes their own; the body is validated', async () => {
    const target = await signUp(t);
    fails(await t.admin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ADMIN' }), 403, 'FORBIDDEN');
    fails(await t.admin.patch(`${USERS}/${t.admin.user.public_id}/role`, { role: 'SUPER_ADMIN' }), 403, 'FORBIDDEN');
    fails(await t.superAdmin.patch(`${USERS}/${t.superAdmin.user.public_id}/role`, { role: 'CUSTOMER' }), 400, 'VALIDATION_ERROR');
    fails(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ROOT' }), 400, 'VALIDATION_ERROR');
    fails(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ADMIN', reason: 'x' }), 400, 'VALIDATION_ERROR');
    fails(await t.superAdmin.patch(`${USERS}/usr_${'C'.repeat(20)}/role`, { role: 'ADMIN' }), 404, 'NOT_FOUND');
    assert.equal((await userRow(target.user.public_id)).role, 'CUSTOMER');
    assert.equal((await userRow(t.superAdmin.user.public_id)).role, 'SUPER_ADMIN');
    assert.equal((await auditRows(t, 'user.role_change', target.user.public_id)).length, 0);
    ok(await target.client.get('/api/v1/users/me')); // refused changes revoke nothing
  });

  test('a SUPER_ADMIN demotes another SUPER_ADMIN, whose admin session ends', async () => {
    const second = await signInAs(t, 'SUPER_ADMIN');
    assert.equal(ok(await t.superAdmin.patch(`${USERS}/${second.user.public_id}/role`, { role: 'CUSTOMER' })).role, 'CUSTOMER');
    fails(await second.client.get('/api/v1/admin/audit'), 401, 'UNAUTHENTICATED');
    const back = t.client();
    ok(await back.post('/api/v1/auth/login', { email: second.email, password: PASSWORD }));
    fails(await back.get('/api/v1/admin/stats'), 403, 'FORBIDDEN');
  });

  test('a suspended account raised to SUPER_ADMIN can be reactivated as it is, or demoted; never suspended again without demotion', async () => {
    const target = await signInAs(t, 'ADMIN');
    ok(await t.superAdmin.post(`${USERS}/${target.user.public_id}/suspend`));
    ok(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'SUPER_ADMIN' }));
    // The suspension stops it acting, so demoting it leaves the actor in place: it is not "the last SUPER_ADMIN".
    assert.equal(ok(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ADMIN' })).role, 'ADMIN');
    ok(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'SUPER_ADMIN' }));
    assert.equal(ok(await t.superAdmin.post(`${USERS}/${target.user.public_id}/activate`)).status, 'ACTIVE');
    fails(await t.superAdmin.post(`${USERS}/${target.user.public_id}/suspend`), 403, 'FORBIDDEN');
    ok(await t.superAdmin.patch(`${USERS}/${target.user.public_id}/role`, { role: 'ADMIN' }));
  });
});

describe('the last SUPER_ADMIN', () => {
  test('two SUPER_ADMINs demoting each other at once: exactly one wins, one SUPER_ADMIN remains', async () => {
    const race = await startTestApp(LIMITS_OFF);
    try {
      for (let round = 0; round < 3; round++) {
        // Only the two racers hold the role.
        await race.db.updateTable('users').set({ role: 'ADMIN' }).where('role', '=', 'SUPER_ADMIN').execute();
        const a = await signInAs(race, 'SUPER_ADMIN');
        const b = await signInAs(race, 'SUPER_ADMIN');
        const [ab, ba] = await Promise.all([
          a.client.patch(`${USERS}/${b.user.public_id}/role`, { role: 'ADMIN' }),
          b.client.patch(`${USERS}/${a.user.public_id}/role`, { role: 'ADMIN' }),
        ]);
        const statuses = [ab.status, ba.status].sort();
        assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${ab.status} ${ab.text} / ${ba.status} ${ba.text}`);
        const loser = ab.status === 200 ? ba : ab;
        // The loser was demoted first: refused in the transaction (403, or 409 LAST_SUPER_ADMIN), or, when the
        // winner committed before the loser's request was even read, its revoked session is 401.
        const code = `${loser.status} ${errorOf(loser).code}`;
        assert.ok(
          ['409 LAST_SUPER_ADMIN', '403 FORBIDDEN', '401 UNAUTHENTICATED'].includes(code),
          `round ${round}: loser answered ${loser.text}`,
        );
        const supers = await race.db.selectFrom('users').select('public_id').where('role', '=', 'SUPER_ADMIN').execute();
        assert.equal(supers.length, 1);
        assert.equal(supers[0]!.public_id, ab.status === 200 ? a.user.public_id : b.user.public_id);
        const changes = await race.db.selectFrom('audit_log').select('entity_public_id').where('action', '=', 'user.role_change').execute();
        assert.equal(changes.filter((c) => c.entity_public_id === a.user.public_id || c.entity_public_id === b.user.public_id).length, 1);
      }
    } finally {
      await race.close();
    }
  });
});
