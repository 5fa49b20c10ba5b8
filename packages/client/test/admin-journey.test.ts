import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.js';
import { PASSWORD, addressInput, uniqueEmail } from '../../../test/helpers/factories.js';
import { tinyPng } from '../../../test/helpers/media.js';
import { ApiError, createCookieJar } from '../src/index.js';
import { clientOf, staffClient } from './helpers.js';

/**
 * An administrator's journey through the client's typed calls, against the
 * real service: a product with variants and stock, an order moved through
 * its lifecycle, a review (with an uploaded photo) moderated, the P&L read.
 */
const t = await startTestApp();
after(() => t.close());

test('an admin builds a product, runs an order to fulfilment, moderates a review and reads the P&L', async () => {
  const admin = await staffClient(t, 'SUPER_ADMIN'); // the P&L is for SUPER_ADMINs

  // A product with two variants and stock for each; stock writes go with a generated Idempotency-Key.
  const { data: product } = await admin.POST('/api/v1/admin/products', { body: { name: 'Enamel mug', status: 'ACTIVE', brand: 'Falcon' } });
  const variants = [];
  for (const [sku, colour] of [
    ['MUG-W', 'White'],
    ['MUG-B', 'Blue'],
  ] as const) {
    const { data: variant } = await admin.POST('/api/v1/admin/products/{product_public_id}/variants', {
      params: { path: { product_public_id: product.public_id } },
      body: { sku, name: colour, price: '12.00', cost_price: '4.00', options: { colour } },
    });
    await admin.POST('/api/v1/admin/inventory', { body: { variant_public_id: variant.public_id, quantity_on_hand: 5 } });
    variants.push(variant);
  }
  const { data: adjusted } = await admin.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: variants[0]!.public_id } },
    body: { quantity_change: 3, reason: 'Delivery' },
  });
  assert.equal(adjusted.quantity_on_hand, 8);
  const { data: full } = await admin.GET('/api/v1/admin/products/{product_public_id}', {
    params: { path: { product_public_id: product.public_id } },
  });
  assert.deepEqual(
    full.variants.map((v) => v.inventory?.quantity_on_hand),
    [8, 5],
  );

  // A customer orders; the admin confirms, ships and fulfils it.
  const shopper = clientOf(t);
  await shopper.auth.register({ email: uniqueEmail('buyer'), password: PASSWORD, first_name: 'Grace', last_name: 'Hopper' });
  await shopper.cart.add({ variant_public_id: variants[1]!.public_id, quantity: 2 });
  const address = await shopper.addresses.create(addressInput());
  const placed = await shopper.orders.place({ address_public_id: address.public_id, payment_method: 'mock' });

  const path = { order_public_id: placed.public_id };
  const waiting = await admin.page('/api/v1/admin/orders', { params: { query: { status: 'PLACED' } } });
  assert.ok(waiting.data.some((o) => o.public_id === placed.public_id));
  const early = await admin
    .PATCH('/api/v1/admin/orders/{order_public_id}', { params: { path }, body: { status: 'FULFILLED' } })
    .catch((e: unknown) => e);
  assert.ok(ApiError.is(early, 'INVALID_TRANSITION'), String(early));
  await admin.PATCH('/api/v1/admin/orders/{order_public_id}', { params: { path }, body: { status: 'CONFIRMED' } });
  await admin.PATCH('/api/v1/admin/orders/{order_public_id}', {
    params: { path },
    body: { status: 'SHIPPED', carrier: 'Royal Mail', tracking_number: 'RM123' },
  });
  const { data: fulfilled } = await admin.PATCH('/api/v1/admin/orders/{order_public_id}', {
    params: { path },
    body: { status: 'FULFILLED' },
  });
  assert.equal(fulfilled.status, 'FULFILLED');
  assert.deepEqual(
    fulfilled.status_history.map((h) => h.status),
    ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED'],
  );
  const { data: stock } = await admin.GET('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: variants[1]!.public_id } },
  });
  assert.equal(stock.quantity_on_hand, 3);

  // The customer reviews the mug with a photo uploaded to the image host the service names; the admin approves it.
  const photo = await shopper.upload(new Blob([new Uint8Array(tinyPng())], { type: 'image/png' }), { fileName: 'mug.png' });
  assert.match(photo.url, /\/media\//);
  const review = await shopper.reviews.create({
    product_public_id: product.public_id,
    rating: 5,
    title: 'Lovely',
    comment: 'Keeps tea hot.',
    images: [{ image_url: photo.url }],
  });
  assert.equal(review.status, 'PENDING');
  const pending = await admin.page('/api/v1/admin/reviews', { params: { query: { status: 'PENDING', product: product.public_id } } });
  assert.deepEqual(
    pending.data.map((r) => r.public_id),
    [review.public_id],
  );
  const { data: approved } = await admin.PATCH('/api/v1/admin/reviews/{review_public_id}', {
    params: { path: { review_public_id: review.public_id } },
    body: { status: 'APPROVED', moderation_note: 'Fine' },
  });
  assert.equal(approved.status, 'APPROVED');
  const published = await shopper.products.reviews(product.public_id);
  assert.deepEqual(
    published.data.map((r) => r.public_id),
    [review.public_id],
  );
  assert.equal(published.meta.total, 1);
  assert.deepEqual(
    Object.keys(published).sort(),
    ['data', 'meta', 'summary'],
    'a list like the others (plus its rating summary), not the envelope',
  );

  // The P&L counts the fulfilled order: revenue 24.00, cost of goods 8.00.
  const { data: pnl } = await admin.GET('/api/v1/admin/analytics/pnl');
  assert.equal(pnl.total.revenue, '24.00');
  assert.equal(pnl.total.cost_of_goods_sold, '8.00');
  assert.equal(pnl.total.gross_profit, '16.00');

  // Walking every page of a list.
  const seen = [];
  for await (const page of admin.pages('/api/v1/admin/inventory', { params: { query: { limit: 1 } } }))
    seen.push(...page.data.map((r) => r.sku));
  assert.deepEqual(seen.sort(), ['MUG-B', 'MUG-W']);
});

test('a customer may not use admin routes: 403 FORBIDDEN as an ApiError', async () => {
  const shopper = clientOf(t);
  await shopper.auth.register({ email: uniqueEmail('nosy'), password: PASSWORD, first_name: 'N', last_name: 'O' });
  const refused = await shopper.GET('/api/v1/admin/orders').catch((e: unknown) => e);
  assert.ok(ApiError.is(refused, 'FORBIDDEN'));
  assert.equal(refused.status, 403);
});

test('outside the browser a cookie store keeps the session; an incoming Cookie header can be forwarded', async () => {
  const email = uniqueEmail('ssr');
  const browserSide = clientOf(t); // stands for the visitor's browser
  await browserSide.auth.register({ email, password: PASSWORD, first_name: 'S', last_name: 'R' });
  await browserSide.cart.add({ variant_public_id: (await someVariant()).public_id, quantity: 1 });

  // A server rendering the visitor's page forwards their Cookie header and sees their cart.
  const jar = createCookieJar();
  const signedIn = clientOf(t, { cookies: jar });
  await signedIn.auth.login({ email, password: PASSWORD });
  assert.ok(jar.cookies.has('session'));
  const forwarded = clientOf(t, { cookies: createCookieJar(jar.header()) });
  assert.equal((await forwarded.auth.session()).authenticated, true);
  assert.equal((await forwarded.cart.get()).items.length, 1);
  // It can write too: the CSRF token is fetched for the forwarded session.
  await forwarded.cart.clear();
  assert.equal((await signedIn.cart.get()).items.length, 0);

  // Logging out clears the jar's session cookie; without a store nothing is kept.
  await signedIn.auth.logout();
  assert.equal(jar.cookies.has('session'), false);
  const cookieless = clientOf(t, { cookies: null });
  assert.equal((await cookieless.auth.session()).authenticated, false);
});

async function someVariant() {
  const admin = await staffClient(t, 'SUPER_ADMIN');
  const { data: product } = await admin.POST('/api/v1/admin/products', { body: { name: 'Saucer', status: 'ACTIVE' } });
  const { data: variant } = await admin.POST('/api/v1/admin/products/{product_public_id}/variants', {
    params: { path: { product_public_id: product.public_id } },
    body: { sku: `SAUCER-${Date.now()}`, name: 'Saucer', price: '3.00' },
  });
  await admin.POST('/api/v1/admin/inventory', { body: { variant_public_id: variant.public_id, quantity_on_hand: 10 } });
  return variant;
}
