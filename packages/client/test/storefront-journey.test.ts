import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.js';
import { PASSWORD, addressInput, uniqueEmail } from '../../../test/helpers/factories.js';
import { ApiError, createCookieJar, NetworkError } from '../src/index.js';
import { clientOf, staffClient, verificationTokenFromMailFile } from './helpers.js';

/**
 * A storefront's whole journey through the client alone, against the real
 * service: sign up, verify the email from the mail file, browse with
 * filters, fill the cart, check out with a coupon (once through a network
 * failure, which must still make one order), cancel.
 */
const t = await startTestApp({ EMAIL_POLL_INTERVAL_MS: '50' });
after(() => t.close());

const admin = await staffClient(t);
const category = await admin.POST('/api/v1/admin/categories', { body: { name: 'Teapots' } }).then((r) => r.data);
const product = await admin
  .POST('/api/v1/admin/products', { body: { name: 'Brown Betty teapot', status: 'ACTIVE', category_public_ids: [category.public_id] } })
  .then((r) => r.data);
const small = await admin
  .POST('/api/v1/admin/products/{product_public_id}/variants', {
    params: { path: { product_public_id: product.public_id } },
    body: { sku: 'BETTY-2', name: '2 cups', price: '20.00', options: { size: '2 cups' } },
  })
  .then((r) => r.data);
const large = await admin
  .POST('/api/v1/admin/products/{product_public_id}/variants', {
    params: { path: { product_public_id: product.public_id } },
    body: { sku: 'BETTY-6', name: '6 cups', price: '35.00', options: { size: '6 cups' } },
  })
  .then((r) => r.data);
for (const variant of [small, large])
  await admin.POST('/api/v1/admin/inventory', { body: { variant_public_id: variant.public_id, quantity_on_hand: 10 } });
await admin.POST('/api/v1/admin/products', { body: { name: 'Glass teapot', status: 'ACTIVE' } });
await admin.POST('/api/v1/admin/coupons', { body: { code: 'TEATIME', discount_type: 'PERCENTAGE', discount_value: '10' } });

test('a shopper signs up, verifies, browses, checks out with a coupon through a network failure, and cancels', async () => {
  // Lose the answer to the first checkout attempt after the service has placed the order.
  let dropped = 0;
  const flaky: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'POST' && String(input).endsWith('/api/v1/orders') && dropped === 0) {
      dropped += 1;
      throw new TypeError('fetch failed: the connection was reset');
    }
    return response;
  };
  const shop = clientOf(t, { fetch: flaky });
  const email = uniqueEmail('shopper');

  const user = await shop.auth.register({ email, password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace' });
  assert.equal(user.email, email);
  assert.equal(user.email_verified, false);
  const verified = await shop.auth.verifyEmail(await verificationTokenFromMailFile(t, email));
  assert.equal(verified.email_verified, true);
  const session = await shop.auth.session();
  assert.equal(session.authenticated, true);

  const found = await shop.products.list({ search: 'betty', category: category.public_id, in_stock: 'true', sort: 'price', limit: 10 });
  assert.deepEqual(
    found.data.map((p) => p.public_id),
    [product.public_id],
  );
  assert.equal(found.meta.total, 1);
  const cheap = await shop.products.list({ max_price: '25.00' });
  assert.ok(cheap.data.some((p) => p.public_id === product.public_id));
  const detail = await shop.products.bySlug(product.slug);
  assert.deepEqual(detail.variants.map((v) => v.sku).sort(), ['BETTY-2', 'BETTY-6']);

  await shop.cart.add({ variant_public_id: small.public_id, quantity: 1 });
  const cart = await shop.cart.add({ variant_public_id: large.public_id, quantity: 2 });
  assert.equal(cart.items.length, 2);
  const address = await shop.addresses.create(addressInput());

  const order = await shop.orders.place({ address_public_id: address.public_id, payment_method: 'mock', coupon_code: 'teatime' });
  assert.equal(dropped, 1, 'the first attempt lost its answer');
  assert.equal(order.status, 'PLACED');
  assert.equal(order.discount_total, '9.00');
  const mine = await shop.orders.list();
  assert.equal(mine.meta.total, 1, 'the retried checkout made one order');
  assert.equal(mine.data[0]!.public_id, order.public_id);
  const stock = await admin.GET('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: large.public_id } },
  });
  assert.equal(stock.data.quantity_reserved, 2, 'reserved once');
  assert.equal((await shop.cart.get()).items.length, 0);

  const cancelled = await shop.orders.cancel(order.public_id);
  assert.equal(cancelled.status, 'CANCELLED');
  const again = await shop.orders.cancel(order.public_id).catch((error: unknown) => error);
  assert.ok(ApiError.is(again, 'INVALID_TRANSITION'), String(again));
  assert.equal(again.status, 409);
  assert.match(again.request_id ?? '', /^[0-9a-f-]{36}$/);
});

test('a refusal is an ApiError with the envelope; no answer is a NetworkError', async () => {
  const shop = clientOf(t);
  const refused = await shop.orders.get('ord_nope').catch((error: unknown) => error);
  assert.ok(refused instanceof ApiError);
  assert.equal(refused.status, 401);
  assert.equal(refused.code, 'UNAUTHENTICATED');

  await shop.auth.register({ email: uniqueEmail('v'), password: PASSWORD, first_name: 'V', last_name: 'W' });
  const invalid = await shop.addresses.create({ ...addressInput(), country: '' }).catch((error: unknown) => error);
  assert.ok(ApiError.is(invalid, 'VALIDATION_ERROR'));
  assert.ok(invalid.details.some((d) => d.field === 'country'));
  const empty = await shop.orders.place({ address_public_id: 'adr_x', payment_method: 'mock' }).catch((error: unknown) => error);
  assert.ok(ApiError.is(empty, 'NOT_FOUND', 'CART_EMPTY'), String(empty));

  const offline = clientOf(t, { fetch: async () => Promise.reject(new TypeError('fetch failed')), retries: 1 });
  const failure = await offline.products.list().catch((error: unknown) => error);
  assert.ok(failure instanceof NetworkError, String(failure));
  assert.ok(!(failure instanceof ApiError));
});

test('CSRF is handled: fetched before the first write, reused, renewed after register, login and logout', async () => {
  const requests: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  const shop = clientOf(t, { fetch: recording });
  await shop.products.list();
  assert.deepEqual(requests, ['GET /api/v1/products'], 'reads need no token');
  const email = uniqueEmail('csrf');
  await shop.auth.register({ email, password: PASSWORD, first_name: 'C', last_name: 'S' });
  assert.deepEqual(requests.slice(1), ['GET /api/v1/auth/csrf-token', 'POST /api/v1/auth/register']);
  await shop.cart.clear();
  assert.deepEqual(requests.slice(3), ['GET /api/v1/auth/csrf-token', 'DELETE /api/v1/cart'], 'a new token for the new session');
  await shop.cart.clear();
  assert.deepEqual(requests.slice(5), ['DELETE /api/v1/cart'], 'then reused');

  await shop.auth.logout();
  await shop.auth.login({ email, password: PASSWORD });
  requests.length = 0;
  await shop.cart.clear();
  assert.deepEqual(requests, ['GET /api/v1/auth/csrf-token', 'DELETE /api/v1/cart'], 'renewed after logout and login');
});

test('a write refused for a stale CSRF token is retried once with a fresh one', async () => {
  // Two clients share one cookie jar, like two tabs of one browser: when one signs in again, the other's token goes stale unseen.
  const jar = createCookieJar();
  const requests: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${response.status}`);
    return response;
  };
  const tab = clientOf(t, { cookies: jar, fetch: recording });
  const otherTab = clientOf(t, { cookies: jar });
  const email = uniqueEmail('tabs');
  await tab.auth.register({ email, password: PASSWORD, first_name: 'T', last_name: 'B' });
  await tab.cart.clear();
  await otherTab.auth.login({ email, password: PASSWORD });
  requests.length = 0;
  const cart = await tab.cart.add({ variant_public_id: small.public_id, quantity: 1 });
  assert.equal(cart.items.length, 1);
  assert.deepEqual(requests, ['POST /api/v1/cart/items 403', 'GET /api/v1/auth/csrf-token 200', 'POST /api/v1/cart/items 200']);

  // Only once: a token refused twice is the caller's problem, not a loop.
  requests.length = 0;
  const forced = await tab
    .POST('/api/v1/cart/items', { body: { variant_public_id: small.public_id, quantity: 1 }, headers: { 'x-csrf-token': 'forged' } })
    .catch((e: unknown) => e);
  assert.ok(ApiError.is(forced, 'CSRF_TOKEN_INVALID'));
  assert.deepEqual(requests, ['POST /api/v1/cart/items 403'], 'a token the caller set is not replaced');
});
