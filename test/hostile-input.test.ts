import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sellableVariant, shopper, checkout } from './helpers/commerce.js';
import { addressInput, errorOf, PASSWORD, signUp, uniqueEmail } from './helpers/factories.js';
import { credentials, local, tinyPng, upload, uploadedReviewImage } from './helpers/media.js';
import { useApp } from './helpers/use-app.js';

/** Issue 12, part 1: no input reaches a 500, and every refusal wears the error envelope. */
const t = useApp({
  env: { RATE_LIMIT_LOGIN: '0', RATE_LIMIT_LOGIN_IP: '0', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_PASSWORD_RESET: '0' },
  as: ['SUPER_ADMIN'],
});

const API = '/api/v1';

/** Asserts a 400 VALIDATION_ERROR whose details name `field`. */
function refused(response: { status: number; body: any; text: string }, field: string) {
  assert.equal(response.status, 400, response.text);
  const error = errorOf(response);
  assert.equal(error.code, 'VALIDATION_ERROR', response.text);
  assert.ok(
    error.details?.some((d) => d.field === field),
    `expected a detail for ${field}: ${response.text}`,
  );
}

describe('control characters and broken Unicode', () => {
  test('a NUL in a JSON body is 400 naming the field, on anonymous and signed-in routes alike', async () => {
    const anonymous = t.client();
    refused(await anonymous.post(`${API}/auth/login`, { email: 'a\u0000@example.test', password: 'x' }), 'email');
    refused(await anonymous.post(`${API}/auth/login`, { email: 'a@example.test', password: 'pass\u0000word' }), 'password');
    refused(await anonymous.post(`${API}/auth/password-reset`, { email: 'a\u0000b@example.test' }), 'email');
    refused(await anonymous.post(`${API}/auth/password-reset/verify`, { token: 'abc\u0000', new_password: 'Another-Pass-2' }), 'token');
    refused(
      await anonymous.post(`${API}/auth/register`, {
        email: uniqueEmail(),
        password: PASSWORD,
        first_name: 'A\u0000da',
        last_name: 'Lovelace',
      }),
      'first_name',
    );
    const { client } = await signUp(t);
    refused(await client.post(`${API}/users/me/addresses`, addressInput({ city: 'Lon\u0000don' })), 'city');
    refused(await client.post(`${API}/auth/email-verification/verify`, { token: '\u0000' }), 'token');
    refused(
      await t.superAdmin.post(`${API}/admin/coupons`, { code: 'NUL\u0000', discount_type: 'PERCENTAGE', discount_value: '10' }),
      'code',
    );
  });

  test('a NUL in a query parameter or a path parameter is 400 naming it', async () => {
    refused(await t.client().get(`${API}/products?search=a%00b`), 'search');
    refused(await t.client().get(`${API}/products/by-slug/a%00b`), 'slug');
    refused(await t.client().get(`${API}/products/prd_%00x`), 'product_public_id');
    refused(await t.superAdmin.get(`${API}/admin/users?search=%00`), 'search');
    refused(await t.superAdmin.get(`${API}/admin/inventory?search=x%00`), 'search');
  });

  test('names refuse line breaks, other controls, lone surrogates and invisible-only values', async () => {
    const { client } = await signUp(t);
    for (const name of [
      'Ada\nLovelace',
      'Ada\rX',
      'Ada\tX',
      'A\u0007',
      'A\u2028B',
      'A\u0085B',
      '\u200b\u200b',
      '\u200d',
      '\u2060 \u00a0',
    ]) {
      refused(await client.patch(`${API}/users/me`, { first_name: name }), 'first_name');
      refused(await client.post(`${API}/users/me/addresses`, addressInput({ recipient_name: name })), 'recipient_name');
    }
    refused(await client.request('PATCH', `${API}/users/me`, { raw: '{"last_name":"Love\\ud800lace"}' }), 'last_name');
    // Real names in any script still pass.
    const ok = await client.patch(`${API}/users/me`, { first_name: 'Zoë', last_name: 'Ångström-李' });
    assert.equal(ok.status, 200, ok.text);
  });

  test('multi-line fields take tabs and line breaks but no other control characters', async () => {
    const { variantId, productId } = await sellableVariant(t.superAdmin);
    const s = await shopper(t, [{ variantId, quantity: 1 }]);
    const placed = await checkout(s.client, s.addressId, { notes: 'Ring twice.\n\tLeave at the door.\r\n' });
    assert.equal(placed.status, 201, placed.text);
    refused(await s.client.post(`${API}/orders`, { address_public_id: s.addressId, payment_method: 'mock', notes: 'bell\u0007' }), 'notes');

    const review = (comment: string) => ({ product_public_id: productId, rating: 4, title: 'Fine', comment });
    refused(await s.client.post(`${API}/reviews`, review('good\u0000bad')), 'comment');
    refused(await s.client.post(`${API}/reviews`, { ...review('ok'), title: 'two\nlines' }), 'title');
    const created = await s.client.post(`${API}/reviews`, review('First line.\nSecond line.'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.data.comment, 'First line.\nSecond line.');
  });

  test('keys of open maps are checked too: a variant option name with a NUL or over 50 characters is 400', async () => {
    const product = (await t.superAdmin.post(`${API}/admin/products`, { name: 'Options' })).body.data.public_id;
    const variant = (options: Record<string, string>) =>
      t.superAdmin.post(`${API}/admin/products/${product}/variants`, { sku: `OPT-${Date.now()}`, name: 'V', price: '1.00', options });
    assert.equal((await variant({ 'si\u0000ze': 'M' })).status, 400);
    assert.equal((await variant({ ['x'.repeat(51)]: 'M' })).status, 400);
    assert.equal((await variant({ size: 'M\u0000' })).status, 400);
    assert.equal((await variant({ size: 'M' })).status, 201);
  });
});

describe('dates the database cannot store', () => {
  test('a leap second or year 0000 is 400 naming the field, in queries and bodies', async () => {
    refused(await t.superAdmin.get(`${API}/admin/audit?from=2026-12-31T23:59:60Z`), 'from');
    refused(await t.superAdmin.get(`${API}/admin/orders?placed_from=2026-12-31T23:59:60Z`), 'placed_from');
    refused(await t.superAdmin.get(`${API}/admin/expenses?from=0000-01-01`), 'from');
    refused(await t.superAdmin.get(`${API}/admin/analytics/pnl?from=0000-01-01&to=0001-01-01`), 'from');
    refused(await t.superAdmin.post(`${API}/admin/expenses`, { category: 'RENT', amount: '10.00', spent_at: '0000-01-01' }), 'spent_at');
    refused(
      await t.superAdmin.post(`${API}/admin/coupons`, {
        code: `LEAP${Date.now()}`,
        discount_type: 'PERCENTAGE',
        discount_value: '10',
        expires_at: '2026-12-31T23:59:60Z',
      }),
      'expires_at',
    );
    // The earliest and latest storable values still pass.
    assert.equal((await t.superAdmin.get(`${API}/admin/expenses?from=0001-01-01&to=9999-12-31`)).status, 200);
    assert.equal((await t.superAdmin.get(`${API}/admin/audit?from=0001-01-01T00:00:00Z`)).status, 200);
  });
});

describe('framework errors wear the envelope', () => {
  test('a malformed percent-encoding in the path is 400 with request_id', async () => {
    const response = await t.client().get(`${API}/products/by-slug/%E0%A4%A`);
    assert.equal(response.status, 400);
    const error = errorOf(response);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(response.body.request_id, response.headers.get('x-request-id'));
  });

  test("headers past Node's limit and malformed HTTP get the envelope too, written before any route runs", async () => {
    const huge = await fetch(`${t.baseUrl}${API}/products?search=${'x'.repeat(20_000)}`);
    assert.equal(huge.status, 431);
    const body = (await huge.json()) as any;
    assert.equal(body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(body.request_id, huge.headers.get('x-request-id'));

    const { connect } = await import('node:net');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () =>
        socket.write('GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /"code":"VALIDATION_ERROR"/);
  });

  test('an ID longer than any ID could be, in a body or a query, is 400 naming it and changes nothing', async () => {
    const long = (prefix: string) => `${prefix}_${'a'.repeat(100)}`;
    const { client } = await shopper(t, []);
    refused(await client.post(`${API}/cart/items`, { variant_public_id: long('var'), quantity: 1 }), 'variant_public_id');
    refused(await client.post(`${API}/orders`, { address_public_id: long('adr'), payment_method: 'mock' }), 'address_public_id');
    refused(await client.post(`${API}/reviews`, { product_public_id: long('prd'), rating: 5, title: 'T', body: 'B' }), 'product_public_id');
    refused(await t.client().get(`${API}/products?category=${long('cat')}`), 'category');
    refused(await t.client().get(`${API}/categories?parent=${long('cat')}`), 'parent');
    refused(await t.superAdmin.post(`${API}/admin/categories`, { name: 'Long parent', parent_public_id: long('cat') }), 'parent_public_id');
    assert.deepEqual((await client.get(`${API}/cart`)).body.data.items, [], 'the cart is as it was');
    assert.equal((await client.get(`${API}/orders`)).body.meta.total, 0, 'no order');
    // One of the longest length is simply not found, as any unknown ID.
    const unknown = await client.post(`${API}/cart/items`, { variant_public_id: `var_${'a'.repeat(96)}`, quantity: 1 });
    assert.equal(unknown.status, 404, unknown.text);
  });

  test('an over-long path parameter is a plain 404 in the envelope', async () => {
    const response = await t.client().get(`${API}/products/prd_${'a'.repeat(5000)}`);
    assert.equal(response.status, 404);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    for (const length of [301, 1500, 5000]) {
      const media = await t.client().get(`/media/reviews/${'a'.repeat(length)}.png`);
      assert.equal(media.status, 404, `media path of ${length}: ${media.text}`);
      assert.equal(errorOf(media).code, 'NOT_FOUND');
    }
  });

  test('a malformed or truncated multipart body to the upload endpoint is 400 in the envelope', async () => {
    const { client } = await signUp(t);
    const creds = await credentials(client);
    const url = local(t, creds.uploadEndpoint);
    const boundary = 'XyZ';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${creds.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`;
    const fields = ['fileName', 'token', 'expire', 'signature', 'publicKey', 'folder']
      .map(
        (name) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${name === 'fileName' ? 'x.png' : String(creds[name as keyof typeof creds])}\r\n`,
      )
      .join('');
    // Credentials that pass, then a file cut off after its image header, while the host is reading it.
    const cutInFile = Buffer.concat([
      Buffer.from(
        `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      tinyPng().subarray(0, 40),
    ]);
    const bodies = [
      truncated,
      `--${boundary}\r\nthis is not a part header\r\n\r\nx\r\n--${boundary}--\r\n`,
      'no boundary at all',
      cutInFile,
    ];
    for (const body of bodies) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
      const parsed = (await response.json()) as any;
      assert.ok(response.status >= 400 && response.status < 500, `${response.status} for ${JSON.stringify(String(body)).slice(0, 40)}`);
      assert.equal(parsed.success, false);
      assert.equal(typeof parsed.request_id, 'string');
      assert.equal(typeof parsed.message, 'string');
    }
    // The token was never consumed by the broken forms.
    assert.equal((await upload(t, creds, tinyPng())).status, 200);
  });

  test('the media host: a missing file and a directory are 404; 405 only for a method the path does not take', async () => {
    const { client } = await signUp(t);
    const url = local(t, await uploadedReviewImage(t, client));
    const served = await fetch(url);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    // The picture as the host keeps it (encoded again, clean-image.ts): the same pixel.
    const { default: sharp } = await import('sharp');
    assert.deepEqual(
      await sharp(Buffer.from(await served.arrayBuffer()))
        .raw()
        .toBuffer(),
      await sharp(tinyPng()).raw().toBuffer(),
    );
    for (const path of ['/media/ecommerce/reviews/missing.png', '/media/ecommerce/reviews/', '/media/ecommerce/', '/media/']) {
      const response = await t.client().get(path);
      assert.equal(response.status, 404, path);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
    const deleted = await fetch(url, { method: 'DELETE' });
    assert.equal(deleted.status, 405);
    assert.equal(deleted.headers.get('allow'), 'GET');
  });
});

describe('stock arithmetic and stuck orders', () => {
  test('an adjustment whose result leaves the integer range is 400 STOCK_RULE_VIOLATION and changes nothing', async () => {
    const { variantId } = await sellableVariant(t.superAdmin, { stock: 1_000_000_000 });
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}`, { quantity_change: 1_000_000_000 })).status, 200);
    const over = await t.superAdmin.patch(`${API}/admin/inventory/${variantId}`, { quantity_change: 1_000_000_000 });
    assert.equal(over.status, 400, over.text);
    assert.equal(errorOf(over).code, 'STOCK_RULE_VIOLATION');
    const record = await t.superAdmin.get(`${API}/admin/inventory/${variantId}`);
    assert.equal(record.body.data.quantity_on_hand, 2_000_000_000);
  });

  test('a manual release cannot take reserved below what open orders hold: 409 RESERVATION_HELD; the order still cancels', async () => {
    const { variantId } = await sellableVariant(t.superAdmin, { stock: 10 });
    const s = await shopper(t, [{ variantId, quantity: 3 }]);
    const order = (await checkout(s.client, s.addressId)).body.data;
    assert.equal(
      (await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: 2, reason: 'photo shoot' })).status,
      200,
    );

    const held = await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: -4 });
    assert.equal(held.status, 409, held.text);
    const error = errorOf(held) as { code: string; details?: { held?: number; releasable?: number }[] };
    assert.equal(error.code, 'RESERVATION_HELD');
    assert.equal(error.details?.[0]?.held, 3);
    assert.equal(error.details?.[0]?.releasable, 2);
    // The manual hold itself can go.
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: -2 })).status, 200);
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: -1 })).status, 409);

    const cancelled = await s.client.post(`${API}/orders/${order.public_id}/cancel`);
    assert.equal(cancelled.status, 200, cancelled.text);
    const record = (await t.superAdmin.get(`${API}/admin/inventory/${variantId}`)).body.data;
    assert.equal(record.quantity_reserved, 0);
  });

  test('every order transition answers 2xx or a clean 409 even after on-hand was cut below what the order ships', async () => {
    const { variantId } = await sellableVariant(t.superAdmin, { stock: 5 });
    const s = await shopper(t, [{ variantId, quantity: 4 }]);
    const order = (await checkout(s.client, s.addressId)).body.data;
    const move = (status: string, extra: Record<string, unknown> = {}) =>
      t.superAdmin.patch(`${API}/admin/orders/${order.public_id}`, { status, ...extra });
    assert.equal((await move('CONFIRMED')).status, 200);
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}`, { quantity_on_hand: 1 })).status, 200);
    const short = await move('SHIPPED', { carrier: 'UPS' });
    assert.equal(short.status, 409);
    assert.equal(errorOf(short).code, 'INSUFFICIENT_STOCK');
    assert.equal((await move('FULFILLED')).status, 409);
    // A release would cut into what the order holds.
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: -1 })).status, 409);
    assert.equal((await move('CANCELLED')).status, 200);
  });

  test('a release that improves an oversold record is allowed even when availability stays below zero', async () => {
    const { variantId } = await sellableVariant(t.superAdmin, { stock: 10 });
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: 8 })).status, 200);
    assert.equal((await t.superAdmin.patch(`${API}/admin/inventory/${variantId}`, { quantity_on_hand: 2 })).status, 200);
    const release = await t.superAdmin.patch(`${API}/admin/inventory/${variantId}/reservation`, { change: -3 });
    assert.equal(release.status, 200, release.text);
    assert.equal(release.body.data.quantity_available, -3);
  });
});
