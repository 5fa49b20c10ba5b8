import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { addressInput, errorOf, login, PASSWORD, signInAs, signUp, uniqueEmail } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Behaviours added after review: each test fails without its fix. */
const t = useApp({ env: { RATE_LIMIT_LOGIN: '2/15m', RATE_LIMIT_REGISTER: '0' } });

describe('review hardening', () => {
  test('names of only spaces are refused on register and on profile edit', async () => {
    const blank = await t
      .client()
      .post('/api/v1/auth/register', { email: uniqueEmail(), password: PASSWORD, first_name: '   ', last_name: 'Lovelace' });
    assert.equal(blank.status, 400);
    assert.deepEqual(
      errorOf(blank).details?.map((d) => d.field),
      ['first_name'],
    );
    const { client } = await signUp(t);
    const edit = await client.patch('/api/v1/users/me', { last_name: ' ' });
    assert.equal(edit.status, 400);
    assert.equal(errorOf(edit).details?.[0]?.field, 'last_name');
  });

  test('wrong current passwords on password change count as login failures and end in 429', async () => {
    const { client, email } = await signUp(t);
    const wrong = () => client.patch('/api/v1/users/me/password', { current_password: 'not-it-1', new_password: 'Another-Pass-2' });
    assert.equal(errorOf(await wrong()).code, 'INVALID_PASSWORD');
    assert.equal(errorOf(await wrong()).code, 'INVALID_PASSWORD');
    const third = await wrong();
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) > 0);
    // The same window guards the login door of that account.
    const login = await t.client().post('/api/v1/auth/login', { email, password: PASSWORD });
    assert.equal(login.status, 429);
  });

  test('a P&L over more than ten years is 400', async () => {
    const { client } = await signInAs(t, 'SUPER_ADMIN');
    const response = await client.get('/api/v1/admin/analytics/pnl?from=1900-01-01&to=2026-01-01');
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    assert.equal((await client.get('/api/v1/admin/analytics/pnl?from=2016-01-01&to=2026-01-01')).status, 200);
  });

  test('category link and unlink audit entries carry before and after', async () => {
    const { client } = await signInAs(t, 'ADMIN');
    const category = (await client.post('/api/v1/admin/categories', { name: 'Linked' })).body.data.public_id;
    const product = (await client.post('/api/v1/admin/products', { name: 'Linkable' })).body.data.public_id;
    assert.equal((await client.put(`/api/v1/admin/categories/${category}/products/${product}`)).status, 204);
    assert.equal((await client.delete(`/api/v1/admin/categories/${category}/products/${product}`)).status, 204);
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('entity_public_id', '=', category)
      .where('action', 'in', ['category.link_product', 'category.unlink_product'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.action, (r.changes as any).before.linked, (r.changes as any).after.linked]),
      [
        ['category.link_product', false, true],
        ['category.unlink_product', true, false],
      ],
    );
  });
});

/** Issue 24, item 2: a single line of text cannot reorder or hide what it shows. */
describe('bidirectional controls and zero-width characters', () => {
  const API = '/api/v1';
  /** Each override, embedding, isolate and zero-width or invisible character the rule names. */
  const DISGUISES = [
    ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'],
    ...['\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff'],
    // Other characters shown as nothing: soft hyphen, grapheme joiner, Mongolian vowel separator, Hangul fillers, blank Braille, a tag.
    ...['\u00ad', '\u034f', '\u180e', '\u115f', '\u3164', '\uffa0', '\u2800', '\u{e0041}'],
  ];
  const hex = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

  /**
   * A 400 VALIDATION_ERROR whose details name `field`, with this rule's message unless the field's own
   * pattern (SKUs and coupon codes are ASCII) refused it first.
   */
  function refusedOn(response: { status: number; body: any; text: string }, field: string, what: string, patterned = false) {
    assert.equal(response.status, 400, `${what}: ${response.text}`);
    const error = errorOf(response);
    assert.equal(error.code, 'VALIDATION_ERROR');
    const detail = error.details?.find((d) => d.field === field);
    assert.ok(detail, `${what}: expected a detail for ${field}: ${response.text}`);
    if (!patterned) assert.match(detail.message, /bidirectional|zero-width/, what);
  }

  test('the reported city abc\u202Etxt.exe is refused naming the field, and nothing is stored', async () => {
    const { client } = await signUp(t);
    refusedOn(await client.post(`${API}/users/me/addresses`, addressInput({ city: 'abc\u202etxt.exe' })), 'city', 'city');
    assert.equal((await client.get(`${API}/users/me/addresses`)).body.meta.total, 0);
  });

  test('every one of them is refused in names, addresses, SKUs, codes, titles and search terms', async () => {
    const { client } = await signUp(t);
    const { client: admin } = await signInAs(t, 'ADMIN');
    const product = (await admin.post(`${API}/admin/products`, { name: 'Plain', status: 'ACTIVE' })).body.data.public_id;
    for (const c of DISGUISES) {
      const text = `ab${c}cd`;
      const what = hex(c);
      refusedOn(await client.patch(`${API}/users/me`, { first_name: text }), 'first_name', what);
      refusedOn(
        await t.client().post(`${API}/auth/register`, { email: uniqueEmail(), password: PASSWORD, first_name: 'Ada', last_name: text }),
        'last_name',
        what,
      );
      for (const field of ['recipient_name', 'label', 'state', 'address_1', 'address_2', 'zip_code']) {
        refusedOn(await client.post(`${API}/users/me/addresses`, addressInput({ [field]: text })), field, `${field} ${what}`);
      }
      refusedOn(await admin.post(`${API}/admin/products`, { name: text }), 'name', what);
      refusedOn(await admin.post(`${API}/admin/categories`, { name: text }), 'name', what);
      const variant = { sku: `SKU-${what}`, name: 'V', price: '1.00' };
      refusedOn(await admin.post(`${API}/admin/products/${product}/variants`, { ...variant, sku: text }), 'sku', what, true);
      refusedOn(
        await admin.post(`${API}/admin/products/${product}/variants`, { ...variant, options: { size: text } }),
        'options.size',
        what,
      );
      refusedOn(
        await admin.post(`${API}/admin/coupons`, { code: text, discount_type: 'PERCENTAGE', discount_value: '10' }),
        'code',
        what,
        true,
      );
      refusedOn(await t.client().get(`${API}/products?search=${encodeURIComponent(text)}`), 'search', what);
    }
    assert.equal((await client.get(`${API}/users/me`)).body.data.first_name, 'Ada');
  });

  test('right-to-left text, its implicit marks, needed joiners and multi-line text keep working; passwords may hold any of them', async () => {
    const { client } = await signUp(t);
    const names = await client.patch(`${API}/users/me`, { first_name: 'מרים\u200f', last_name: 'الخوارزمي' });
    assert.equal(names.status, 200, names.text);
    const address = await client.post(`${API}/users/me/addresses`, addressInput({ city: 'תל אביב', address_1: 'شارع 12\u200e' }));
    assert.equal(address.status, 201, address.text);

    // Joiners a spelling or an emoji needs: a Persian name, a Hindi conjunct, an emoji sequence.
    const joined = await client.patch(`${API}/users/me`, { first_name: 'می\u200cنا', last_name: 'क्\u200dषमा 👨\u200d👩\u200d👧' });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.body.data.first_name, 'می\u200cنا');
    const persian = await client.post(`${API}/users/me/addresses`, addressInput({ recipient_name: 'سارا می\u200cخواهد' }));
    assert.equal(persian.status, 201, persian.text);

    const { client: admin } = await signInAs(t, 'ADMIN');
    const description = 'English \u2067עברית\u2069 text, a joiner in 👩\u200d💻.';
    const product = await admin.post(`${API}/admin/products`, { name: 'Notebook', description });
    assert.equal(product.status, 201, product.text);
    assert.equal(product.body.data.description, description);

    const password = 'Family-\u200d-9\u202e';
    const { email } = await signUp(t, { password });
    assert.equal((await login(t, email, password)).status, 200);
  });
});

/** Issue 24, item 4: what Node's HTTP layer would answer bare is answered in the envelope. */
describe('requests the HTTP layer used to answer itself', () => {
  /** Sends `request` as written on a new connection and reads until the server closes it. */
  const exchange = (request: string) =>
    new Promise<{ status: number; headers: Record<string, string>; body: any; interim: boolean }>((resolve, reject) => {
      const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => socket.write(request));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        const interim = text.startsWith('HTTP/1.1 100 Continue\r\n\r\n');
        if (interim) text = text.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
        const [head = '', body = ''] = text.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : null, interim });
      });
    });

  /** The envelope with the service's request ID and its security headers. */
  function inEnvelope(answer: Awaited<ReturnType<typeof exchange>>, status: number, code: string) {
    assert.equal(answer.status, status, JSON.stringify(answer));
    assert.equal(answer.body?.success, false);
    assert.equal(answer.body.error.code, code);
    assert.equal(answer.body.request_id, answer.headers['x-request-id']);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.ok(answer.headers['content-security-policy'], 'helmet ran');
  }

  test('an HTTP/1.1 request without Host is 400 in the envelope; HTTP/1.0 needs none', async () => {
    const missing = await exchange('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    inEnvelope(missing, 400, 'VALIDATION_ERROR');
    assert.deepEqual(missing.body.error.details, [{ field: 'host', message: 'is required' }]);
    assert.equal((await exchange('GET /health HTTP/1.0\r\n\r\n')).status, 200);
  });

  test('two Host headers are 400, not answered for the first one', async () => {
    const twice = await exchange('GET /health HTTP/1.1\r\nHost: shop.example\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    inEnvelope(twice, 400, 'VALIDATION_ERROR');
    assert.deepEqual(twice.body.error.details, [{ field: 'host', message: 'is repeated' }]);
    assert.equal((await exchange('GET /health HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n')).status, 200);
  });

  test('a Host that names no host (a path or query in it, a space, a port past 65535) is 400; host names and addresses are answered', async () => {
    for (const host of ['shop.example/search?q=moved&', 'shop.example?x', 'a b', '[::1', 'x:99999', 'a@b', 'shop.example#x', 'a..b']) {
      const answer = await exchange(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      inEnvelope(answer, 400, 'VALIDATION_ERROR');
    }
    for (const host of ['shop.example', 'shop.example.', 'Shop.Example:8080', 'my_host', '127.0.0.1:3000', '[::1]:3000', 'localhost']) {
      const answer = await exchange(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.equal(answer.status, 200, host);
    }
  });

  test('an Expect other than 100-continue is 417 EXPECTATION_FAILED in the envelope; 100-continue still works', async () => {
    inEnvelope(await exchange('GET /health HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n'), 417, 'EXPECTATION_FAILED');
    const body = '{"email":"a@example.test","password":"wrong-password"}';
    const login = await exchange(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    // Node's interim "100 Continue" comes first; then the app's answer (a CSRF refusal: the request reached the app).
    assert.ok(login.interim);
    inEnvelope(login, 403, 'CSRF_TOKEN_INVALID');
  });

  test('CONNECT is 400 in the envelope: this server is not a proxy', async () => {
    const answer = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    inEnvelope(answer, 400, 'VALIDATION_ERROR');
    await sameSecurityHeadersAsTheApp(answer);
  });

  test('what the parser refuses (not HTTP) is 400 in the envelope, with the security headers of every answer', async () => {
    const answer = await exchange('HELLO THERE\r\n\r\n');
    inEnvelope(answer, 400, 'VALIDATION_ERROR');
    await sameSecurityHeadersAsTheApp(answer);
  });

  /** Written straight to the socket, the answer carries helmet's headers as an answer of the app does. */
  async function sameSecurityHeadersAsTheApp(answer: Awaited<ReturnType<typeof exchange>>) {
    const app = await fetch(`${t.baseUrl}/health`);
    const names = [
      'content-security-policy',
      'strict-transport-security',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
    ];
    for (const name of names) assert.equal(answer.headers[name], app.headers.get(name) ?? undefined, name);
  }
});
