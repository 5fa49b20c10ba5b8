import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestApp } from './helpers/app.js';
import { addressInput, PASSWORD, signInAs, signUp } from './helpers/factories.js';
import { Client } from './helpers/client.js';
import { requestAsWritten } from './helpers/raw-http.js';
import { uploadedReviewImage } from './helpers/media.js';
import type { Known } from './fuzz/arbitraries.js';
import { FUZZ_ENV, RUNS, SEED, assertPassed, tableFingerprints, statusTally } from './fuzz/judge.js';
import { baseRequest, build, disguisesSingleLine, mutation, operationsOf, type Built, type Operation } from './fuzz/requests.js';

/**
 * Property-based fuzzing of every operation in the OpenAPI document (issue
 * 12, part 4). Each run builds a valid request from the route's schemas over
 * a small store, spoils it one way (a hostile value somewhere, a missing or
 * unknown field, a duplicate key, deep nesting, a wrong content type,
 * malformed JSON, a broken path) and sends it as the store's SUPER_ADMIN (or
 * anonymously, for public routes). It holds when the answer is never a 5xx,
 * every 4xx is the error envelope, a bidirectional control or zero-width
 * character put into a single-line field is refused, and a refused request wrote nothing: every
 * table's rows are unchanged, count and content (rate-limit counters, the
 * audit entries of security events and sliding session expiry excepted:
 * refusals are meant to move those).
 *
 * Seeded and bounded: FUZZ_SEED and FUZZ_RUNS (runs per operation) override
 * the defaults; a failure prints the seed, the path to replay it and the request.
 * The requests are made in test/fuzz/requests.ts; the image host's multipart
 * upload is fuzzed in fuzz-upload.test.ts.
 */
const t = await startTestApp(FUZZ_ENV);
after(() => t.close());

// ---- the store the requests act on -------------------------------------------------------------
const { client: admin, email: adminEmail } = await signInAs(t, 'SUPER_ADMIN');
const ok = async (response: Promise<{ status: number; body: any; text: string }>, status = 201) => {
  const r = await response;
  if (r.status !== status) throw new Error(`fixture: ${r.status} ${r.text}`);
  return r.body?.data;
};
const customer = await signUp(t);
const category = await ok(admin.post('/api/v1/admin/categories', { name: 'Fuzz category' }));
const product = await ok(
  admin.post('/api/v1/admin/products', { name: 'Fuzz product', status: 'ACTIVE', category_public_ids: [category.public_id] }),
);
const variant = await ok(
  admin.post(`/api/v1/admin/products/${product.public_id}/variants`, { sku: 'FUZZ-1', name: 'Default', price: '10.00' }),
);
await ok(admin.post('/api/v1/admin/inventory', { variant_public_id: variant.public_id, quantity_on_hand: 100_000 }));
const coupon = await ok(admin.post('/api/v1/admin/coupons', { code: 'FUZZ10', discount_type: 'PERCENTAGE', discount_value: '10' }));
const expense = await ok(
  admin.post('/api/v1/admin/expenses', { description: 'Rent', category: 'RENT', amount: '100.00', spent_at: '2026-01-01' }),
);
const address = await ok(admin.post('/api/v1/users/me/addresses', addressInput()));
await ok(admin.post('/api/v1/cart/items', { variant_public_id: variant.public_id, quantity: 1 }), 200);
const order = await ok(admin.post('/api/v1/orders', { address_public_id: address.public_id, payment_method: 'mock' }));
await ok(admin.post('/api/v1/cart/items', { variant_public_id: variant.public_id, quantity: 1 }), 200);
const imageUrl = await uploadedReviewImage(t, admin);
const review = await ok(
  admin.post('/api/v1/reviews', {
    product_public_id: product.public_id,
    rating: 5,
    title: 'Fine',
    comment: 'Fine.',
    images: [{ image_url: imageUrl }],
  }),
);
const endpoint = await ok(
  admin.post('/api/v1/admin/webhooks/endpoints', { url: 'https://203.0.113.10/hooks', event_types: ['order.placed'] }),
);
const delivery = await ok(admin.post(`/api/v1/admin/webhooks/endpoints/${endpoint.public_id}/test`, {}), 202);
const otherSession = new Client(t.baseUrl);
await ok(otherSession.post('/api/v1/auth/login', { email: adminEmail, password: PASSWORD }), 200);
const sessions = await ok(admin.get('/api/v1/auth/sessions'), 200);
const session = (sessions as { public_id: string; current: boolean }[]).find((s) => !s.current)!;

const known: Known = {
  session_public_id: session.public_id,
  address_public_id: address.public_id,
  product_public_id: product.public_id,
  slug: product.slug,
  category_public_id: category.public_id,
  category_public_ids: [category.public_id],
  parent_public_id: category.public_id,
  category: category.public_id,
  product: product.public_id,
  variant_public_id: variant.public_id,
  coupon_public_id: coupon.public_id,
  coupon_code: 'FUZZ10',
  order_public_id: order.public_id,
  user_public_id: customer.user.public_id,
  expense_public_id: expense.public_id,
  review_public_id: review.public_id,
  endpoint_public_id: endpoint.public_id,
  delivery_public_id: delivery.public_id,
  image_url: imageUrl,
  '*': new URL(imageUrl).pathname.replace(/^\/media\//, ''),
};

// ---- the document, and sending and judging ---------------------------------------------------------
const operations = operationsOf((await t.client().get('/openapi.json')).body);
const fingerprints = await tableFingerprints(t.db);
const tally = statusTally();

let adminJar = admin;
const anonymous = new Client(t.baseUrl);

async function send(op: Operation, request: Built) {
  const jar = op.needsSession ? adminJar : anonymous;
  const headers: Record<string, string> = { ...request.headers };
  if (op.method !== 'GET') headers['x-csrf-token'] = await jar.csrf();
  if (jar.cookies.size > 0) headers.cookie = [...jar.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  // The path as written (fetch would resolve a `%2e%2e` segment before sending it).
  const response = await requestAsWritten(t.baseUrl, request.url, {
    method: request.method,
    headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  // A pre-session cookie replaced by a login, or a session ended by the fuzz itself: start over.
  if (response.setCookies.length > 0 || response.status === 401) {
    if (!op.needsSession) anonymous.cookies.clear();
    else {
      adminJar = new Client(t.baseUrl);
      await adminJar.post('/api/v1/auth/login', { email: adminEmail, password: PASSWORD });
    }
  }
  return { status: response.status, text: response.text };
}

const show = (request: Built) =>
  `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers)} ${(request.body ?? '').slice(0, 300)}`;

test('the oracle sees a write that leaves every row count as it was, and only that', async () => {
  const before = await fingerprints();
  const { id } = await t.db.selectFrom('users').select('id').where('public_id', '=', customer.user.public_id).executeTakeFirstOrThrow();
  await t.db.updateTable('users').set({ first_name: 'Changed' }).where('id', '=', id).execute();
  const after = await fingerprints();
  await t.db.updateTable('users').set({ first_name: customer.user.first_name }).where('id', '=', id).execute();
  assert.deepEqual(
    Object.keys(before).filter((table) => before[table] !== after[table]),
    ['users'],
  );
  assert.deepEqual(await fingerprints(), before, 'and the same content again gives the same fingerprint');
});

/** The store's fingerprint after the last refused request, which the next request starts from (taken anew after a success). */
let lastSeen: Record<string, string> | null = null;

describe('fuzzing every operation of the OpenAPI document', () => {
  for (const op of operations) {
    test(`${op.method} ${op.path}`, async () => {
      const details = await fc.check(
        fc.asyncProperty(baseRequest(op, known), mutation, async (base, m) => {
          const request = build(op, base, m);
          const before = (lastSeen ??= await fingerprints());
          lastSeen = null; // unless the request is refused, it may have written
          const response = await send(op, request);
          tally(response.status);
          assert.ok(response.status < 500, `${response.status} for ${show(request)}: ${response.text.slice(0, 300)}`);
          if (m.kind === 'leaf' && disguisesSingleLine(op, request, m.value)) {
            assert.ok(response.status >= 400, `a disguising character accepted on a single line (${response.status}): ${show(request)}`);
          }
          if (response.status >= 400) {
            let body: any;
            try {
              body = JSON.parse(response.text);
            } catch {
              assert.fail(`a ${response.status} that is not JSON for ${show(request)}: ${response.text.slice(0, 200)}`);
            }
            assert.ok(
              body.success === false && typeof body.error?.code === 'string' && typeof body.request_id === 'string',
              `not the envelope for ${show(request)}: ${response.text.slice(0, 300)}`,
            );
            lastSeen = await fingerprints(); // as it was, or the assertion fails the run
            assert.deepEqual(lastSeen, before, `a refused request (${response.status} ${body.error.code}) changed rows: ${show(request)}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      assertPassed(details);
    });
  }
});
