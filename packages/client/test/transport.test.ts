import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.js';
import { PASSWORD, uniqueEmail } from '../../../test/helpers/factories.js';
import { ApiError, NetworkError, ResponseError } from '../src/index.js';
import { clientOf, staffClient } from './helpers.js';

/**
 * What the transport does below the typed calls, against the real service:
 * how refusals and odd answers surface, how few CSRF tokens it fetches, and
 * the Idempotency-Key that makes a retried stock write apply once.
 */

// While `outage` is on, the token route fails as it does when the database connection is lost (the service's own 503).
let outage = false;
const t = await startTestApp(
  {},
  {
    setup: (app) =>
      app.addHook('onRequest', async (request) => {
        if (outage && request.url === '/api/v1/auth/csrf-token')
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      }),
  },
);
after(() => t.close());

const admin = await staffClient(t);

/** A fetch that records `METHOD /path` of each request, and lets a test answer some requests itself (a proxy in between). */
function recorder(answer: (method: string, path: string) => Response | undefined = () => undefined) {
  const requests: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    const path = new URL(String(input)).pathname;
    requests.push(`${method} ${path}`);
    return answer(method, path) ?? globalThis.fetch(input, init);
  };
  return { requests, fetch };
}

test('a refused CSRF-token fetch is an ApiError with the service code, not a NetworkError; the next write asks again', async () => {
  const { requests, fetch } = recorder();
  const shop = clientOf(t, { fetch });
  outage = true;
  const refused = await shop.auth.login({ email: uniqueEmail('outage'), password: PASSWORD }).catch((error: unknown) => error);
  outage = false;
  assert.ok(ApiError.is(refused, 'SERVICE_UNAVAILABLE'), String(refused));
  assert.equal(refused.status, 503);
  assert.equal(refused.retryAfter, 2);
  assert.match(refused.request_id ?? '', /^[0-9a-f-]{36}$/);
  assert.deepEqual(requests, ['GET /api/v1/auth/csrf-token'], 'the write was not sent without a token');

  await shop.auth.register({ email: uniqueEmail('after-outage'), password: PASSWORD, first_name: 'O', last_name: 'U' });
  assert.deepEqual(
    requests.slice(1),
    ['GET /api/v1/auth/csrf-token', 'POST /api/v1/auth/register'],
    'the refusal was not kept as the token',
  );

  // A gateway in front of the service rate-limits the token route with a bare 429: the code comes from the status.
  const limited = clientOf(t, {
    fetch: recorder((_method, path) =>
      path === '/api/v1/auth/csrf-token' ? new Response('Too Many Requests', { status: 429, headers: { 'retry-after': '30' } }) : undefined,
    ).fetch,
  });
  const tooMany = await limited.auth.requestPasswordReset('someone@example.com').catch((error: unknown) => error);
  assert.ok(ApiError.is(tooMany, 'RATE_LIMITED'), String(tooMany));
  assert.equal(tooMany.retryAfter, 30);
  assert.equal(tooMany.message, 'Too Many Requests');
});

test('a 2xx answer that is not JSON (a proxy page) is a ResponseError, neither an ApiError nor a NetworkError', async () => {
  const portal = () =>
    new Response('<html><body>Sign in to the Wi-Fi</body></html>', { status: 200, headers: { 'content-type': 'text/html' } });
  const shop = clientOf(t, {
    fetch: recorder((method, path) => (path === '/api/v1/products' || path === '/api/v1/auth/csrf-token' ? portal() : undefined)).fetch,
  });

  const list = await shop.products.list().catch((error: unknown) => error);
  assert.ok(list instanceof ResponseError, String(list));
  assert.ok(!(list instanceof NetworkError) && !(list instanceof ApiError));
  assert.equal(list.status, 200);
  assert.equal(list.contentType, 'text/html');
  assert.match(list.message, /GET \/api\/v1\/products: HTTP 200 with a body that is not JSON/);
  assert.ok(list.cause instanceof SyntaxError);

  const write = await shop.auth.login({ email: uniqueEmail('portal'), password: PASSWORD }).catch((error: unknown) => error);
  assert.ok(write instanceof ResponseError, `the token fetch too: ${String(write)}`);
});

test('a 503 without a body (a load balancer) is SERVICE_UNAVAILABLE, the code the document declares', async () => {
  const shop = clientOf(t, { fetch: recorder(() => new Response(null, { status: 503 })).fetch, retries: 0 });
  const unavailable = await shop.products.list().catch((error: unknown) => error);
  assert.ok(ApiError.is(unavailable, 'SERVICE_UNAVAILABLE'), String(unavailable));
  assert.equal(unavailable.status, 503);
});

test('a new anonymous client fetches one CSRF token for its first writes (the pre-session cookie it sets does not spend it)', async () => {
  const { requests, fetch } = recorder();
  const shop = clientOf(t, { fetch });
  const email = uniqueEmail('anon');
  for (let i = 0; i < 2; i++) {
    const wrong = await shop.auth.login({ email, password: 'not the password' }).catch((error: unknown) => error);
    assert.ok(ApiError.is(wrong, 'INVALID_CREDENTIALS'), String(wrong));
  }
  await shop.auth.requestPasswordReset(email);
  await shop.auth.register({ email, password: PASSWORD, first_name: 'A', last_name: 'N' });
  assert.deepEqual(requests, [
    'GET /api/v1/auth/csrf-token',
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/login',
    'POST /api/v1/auth/password-reset',
    'POST /api/v1/auth/register',
  ]);
});

test('writes that keep the session keep the token: revoking the other sessions, changing the password', async () => {
  const { requests, fetch } = recorder();
  const shop = clientOf(t, { fetch });
  const email = uniqueEmail('keep');
  await shop.auth.register({ email, password: PASSWORD, first_name: 'K', last_name: 'S' });
  await shop.cart.clear();
  requests.length = 0;
  await shop.DELETE('/api/v1/auth/sessions');
  await shop.account.changePassword({ current_password: PASSWORD, new_password: `${PASSWORD}-2` });
  await shop.cart.clear();
  assert.deepEqual(requests, ['DELETE /api/v1/auth/sessions', 'PATCH /api/v1/users/me/password', 'DELETE /api/v1/cart']);
});

test('a stock write keeps its Idempotency-Key across a network-failure retry, and applies once', async () => {
  const { data: product } = await admin.POST('/api/v1/admin/products', { body: { name: 'Stockpot', status: 'ACTIVE' } });
  const { data: variant } = await admin.POST('/api/v1/admin/products/{product_public_id}/variants', {
    params: { path: { product_public_id: product.public_id } },
    body: { sku: 'POT-1', name: 'Stockpot', price: '30.00' },
  });
  await admin.POST('/api/v1/admin/inventory', { body: { variant_public_id: variant.public_id, quantity_on_hand: 10 } });

  // Lose the answer to the first attempt after the service has applied it, as the checkout journey does.
  const keys: (string | null)[] = [];
  const flaky: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'PATCH' && new URL(String(input)).pathname.startsWith('/api/v1/admin/inventory/')) {
      keys.push(new Headers(init.headers).get('idempotency-key'));
      if (keys.length === 1) throw new TypeError('fetch failed: the connection was reset');
    }
    return response;
  };
  const stock = await staffClient(t, 'ADMIN', { fetch: flaky });
  const { data: adjusted } = await stock.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: variant.public_id } },
    body: { quantity_change: 3, reason: 'Delivery' },
  });
  assert.equal(keys.length, 2, 'retried once');
  assert.match(keys[0] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(keys[1], keys[0], 'the retry sent the same key');
  assert.equal(adjusted.quantity_on_hand, 13, 'the replayed answer');
  const { data: record } = await admin.GET('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: variant.public_id } },
  });
  assert.equal(record.quantity_on_hand, 13, 'applied once');
  const { data: movements } = await admin.GET('/api/v1/admin/inventory/{variant_public_id}/movements', {
    params: { path: { variant_public_id: variant.public_id } },
  });
  assert.equal(movements.filter((m) => m.reason === 'Delivery').length, 1);
});
