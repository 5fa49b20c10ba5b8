import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RouteEntry } from '../src/app.js';
import { newPublicId, type IdPrefix } from '../src/lib/ids.js';
import type { Client } from './helpers/client.js';
import { useApp } from './helpers/use-app.js';

/**
 * The role matrix of spec "Authentication" rules 5-6, generated from the
 * app's own route table: every route under /api/v1/admin is tried by an
 * anonymous caller, a CUSTOMER, an ADMIN and a SUPER_ADMIN. A route added
 * later is covered without touching this file.
 */

const ADMIN_PREFIX = '/api/v1/admin';

/** Parameter name fragment -> ID prefix; anything else gets 'x'. */
const PARAM_PREFIXES: readonly [string, IdPrefix][] = [
  ['product', 'prd'],
  ['variant', 'var'],
  ['category', 'cat'],
  ['order', 'ord'],
  ['coupon', 'cpn'],
  ['user', 'usr'],
  ['expense', 'exp'],
  ['review', 'rev'],
];

/** The URL with every `:param` replaced by a well-formed public ID nobody owns. */
function concrete(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const hit = PARAM_PREFIXES.find(([fragment]) => name.includes(fragment));
    return hit ? newPublicId(hit[1]) : 'x';
  });
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let adminRoutes: RouteEntry[];
const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0' },
  as: ['CUSTOMER', 'ADMIN', 'SUPER_ADMIN'],
  async seed(t) {
    adminRoutes = t.app.routeTable.filter((r) => r.url.startsWith(ADMIN_PREFIX));
  },
});

/** Calls every admin route as `client`; returns one line per route whose answer `expect` rejects. */
async function sweep(client: Client, expect: (route: RouteEntry, status: number, code: string | undefined) => string | null) {
  const failures: string[] = [];
  for (const route of adminRoutes) {
    const url = concrete(route.url);
    const response = await client.request(route.method, url, WRITES.has(route.method) ? { body: {} } : {});
    const problem = expect(route, response.status, response.body?.error?.code);
    if (problem)
      failures.push(`${route.method} ${route.url} (${route.access}) -> ${response.status} ${response.body?.error?.code ?? ''}: ${problem}`);
  }
  return failures;
}

describe('the route table', () => {
  test('is large enough to mean something and has no duplicates', () => {
    assert.ok(adminRoutes.length >= 30, `only ${adminRoutes.length} admin routes recorded`);
    const keys = adminRoutes.map((r) => `${r.method} ${r.url}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  test('no admin route is public, optional or merely user: each needs at least ADMIN', () => {
    const open = adminRoutes.filter((r) => r.access !== 'admin' && r.access !== 'super_admin');
    assert.deepEqual(open, [], 'admin routes open to anyone below ADMIN');
  });

  test('the routes the contract names exist with the access it gives them', () => {
    const expected: [string, string, RouteEntry['access']][] = [
      ['GET', '/admin/users', 'admin'],
      ['GET', '/admin/users/:user_public_id', 'admin'],
      ['POST', '/admin/users/:user_public_id/suspend', 'admin'],
      ['POST', '/admin/users/:user_public_id/activate', 'admin'],
      ['PATCH', '/admin/users/:user_public_id/role', 'super_admin'],
      ['GET', '/admin/stats', 'admin'],
      ['GET', '/admin/analytics/pnl', 'super_admin'],
      ['GET', '/admin/analytics/coupons', 'super_admin'],
      ['GET', '/admin/expenses', 'super_admin'],
      ['POST', '/admin/expenses', 'super_admin'],
      ['PATCH', '/admin/expenses/:expense_public_id', 'super_admin'],
      ['DELETE', '/admin/expenses/:expense_public_id', 'super_admin'],
      ['GET', '/admin/audit', 'super_admin'],
      ['GET', '/admin/orders', 'admin'],
      ['PATCH', '/admin/orders/:order_public_id', 'admin'],
      ['GET', '/admin/coupons', 'admin'],
      ['POST', '/admin/coupons', 'admin'],
      ['GET', '/admin/inventory', 'admin'],
      ['PATCH', '/admin/inventory/:variant_public_id', 'admin'],
      ['POST', '/admin/products', 'admin'],
      ['PATCH', '/admin/variants/:variant_public_id', 'admin'],
      ['POST', '/admin/categories', 'admin'],
      ['GET', '/admin/reviews', 'admin'],
    ];
    const missing: string[] = [];
    for (const [method, path, access] of expected) {
      const found = adminRoutes.find((r) => r.method === method && r.url === `/api/v1${path}`);
      if (!found) missing.push(`${method} ${path}: not registered`);
      else if (found.access !== access) missing.push(`${method} ${path}: ${found.access}, expected ${access}`);
    }
    assert.deepEqual(missing, []);
  });

  test("every other admin route is only ADMIN or SUPER_ADMIN, and the SUPER_ADMIN-only set is exactly the contract's", () => {
    const superOnly = adminRoutes
      .filter((r) => r.access === 'super_admin')
      .map((r) => `${r.method} ${r.url.slice(ADMIN_PREFIX.length)}`)
      .sort();
    // Role assignment (and staff invitations, which assign a role), P&L, coupon analytics, operating expenses
    // and the audit log (spec roles table); webhooks (issue 29).
    assert.deepEqual(superOnly, [
      'DELETE /expenses/:expense_public_id',
      'DELETE /staff-invitations/:invitation_public_id',
      'DELETE /webhooks/endpoints/:endpoint_public_id',
      'GET /analytics/coupons',
      'GET /analytics/pnl',
      'GET /audit',
      'GET /expenses',
      'GET /staff-invitations',
      'GET /webhooks/endpoints',
      'GET /webhooks/endpoints/:endpoint_public_id',
      'GET /webhooks/endpoints/:endpoint_public_id/deliveries',
      'GET /webhooks/endpoints/:endpoint_public_id/deliveries/:delivery_public_id',
      'GET /webhooks/event-types',
      'PATCH /expenses/:expense_public_id',
      'PATCH /users/:user_public_id/role',
      'PATCH /webhooks/endpoints/:endpoint_public_id',
      'POST /expenses',
      'POST /staff-invitations',
      'POST /webhooks/endpoints',
      'POST /webhooks/endpoints/:endpoint_public_id/deliveries/:delivery_public_id/redeliver',
      'POST /webhooks/endpoints/:endpoint_public_id/redeliver',
      'POST /webhooks/endpoints/:endpoint_public_id/rotate-secret',
      'POST /webhooks/endpoints/:endpoint_public_id/test',
    ]);
  });

  test('the placeholder IDs have the right prefix for the parameter', () => {
    assert.match(concrete('/a/:user_public_id/:expense_public_id'), /^\/a\/usr_[0-9A-Za-z]{20}\/exp_[0-9A-Za-z]{20}$/);
    assert.equal(concrete('/a/:thing'), '/a/x');
  });
});

describe('who may call admin routes', () => {
  test('anonymous: 401 UNAUTHENTICATED on every admin route', async () => {
    const failures = await sweep(t.anonymous, (_route, status, code) =>
      status === 401 && code === 'UNAUTHENTICATED' ? null : 'expected 401 UNAUTHENTICATED',
    );
    assert.deepEqual(failures, []);
  });

  test('CUSTOMER: 403 FORBIDDEN on every admin route', async () => {
    const failures = await sweep(t.customer, (_route, status, code) =>
      status === 403 && code === 'FORBIDDEN' ? null : 'expected 403 FORBIDDEN',
    );
    assert.deepEqual(failures, []);
  });

  test('ADMIN: 403 exactly on the SUPER_ADMIN routes; elsewhere past the guard and no server error', async () => {
    const failures = await sweep(t.admin, (route, status, code) => {
      if (route.access === 'super_admin') return status === 403 && code === 'FORBIDDEN' ? null : 'expected 403 FORBIDDEN';
      if (status === 401 || status === 403) return 'an ADMIN was refused';
      return status >= 500 ? 'server error' : null;
    });
    assert.deepEqual(failures, []);
  });

  test('SUPER_ADMIN: never 401 or 403, and no server error', async () => {
    const failures = await sweep(t.superAdmin, (_route, status) => {
      if (status === 401 || status === 403) return 'a SUPER_ADMIN was refused';
      return status >= 500 ? 'server error' : null;
    });
    assert.deepEqual(failures, []);
  });

  test('the callers are still signed in after the sweep (no write above touched them)', async () => {
    for (const client of [t.customer, t.admin, t.superAdmin]) {
      assert.equal((await client.get('/api/v1/users/me')).status, 200);
    }
  });
});
