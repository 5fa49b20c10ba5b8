import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { startTestApp } from './helpers/app.js';
import { addressInput, PASSWORD, signInAs, signUp } from './helpers/factories.js';
import { Client } from './helpers/client.js';
import { credentials, local, tinyPng, uploadedReviewImage } from './helpers/media.js';
import { deeplyNested, hostileValue, malformedJson, valid, wrongContentType, type Known, type Schema } from './fuzz/arbitraries.js';

/**
 * Property-based fuzzing of every operation in the OpenAPI document (issue
 * 12, part 4). Each run builds a valid request from the route's schemas over
 * a small store, spoils it one way (a hostile value somewhere, a missing or
 * unknown field, a duplicate key, deep nesting, a wrong content type,
 * malformed JSON, a broken path) and sends it as the store's SUPER_ADMIN (or
 * anonymously, for public routes). It holds when the answer is never a 5xx,
 * every 4xx is the error envelope, and a refused request wrote nothing: the
 * row count of every table is unchanged (rate-limit counters and the audit
 * entries of security events excepted: refusals are meant to leave those).
 *
 * Seeded and bounded: FUZZ_SEED and FUZZ_RUNS (runs per operation) override
 * the defaults; a failure prints the seed, the path to replay it and the request.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const REFUSAL_AUDITS = ['auth.login_failed', 'auth.login_refused', 'auth.password_check_failed'];

const t = await startTestApp({
  EMAIL_POLL_INTERVAL_MS: '600000',
  ...Object.fromEntries(['LOGIN', 'LOGIN_IP', 'REGISTER', 'PASSWORD_RESET', 'EMAIL_CHANGE', 'CHECKOUT', 'VERIFY_RESEND', 'UPLOAD'].map((name) => [`RATE_LIMIT_${name}`, '0'])),
});
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
const product = await ok(admin.post('/api/v1/admin/products', { name: 'Fuzz product', status: 'ACTIVE', category_public_ids: [category.public_id] }));
const variant = await ok(admin.post(`/api/v1/admin/products/${product.public_id}/variants`, { sku: 'FUZZ-1', name: 'Default', price: '10.00' }));
await ok(admin.post('/api/v1/admin/inventory', { variant_public_id: variant.public_id, quantity_on_hand: 100_000 }));
const coupon = await ok(admin.post('/api/v1/admin/coupons', { code: 'FUZZ10', discount_type: 'PERCENTAGE', discount_value: '10' }));
const expense = await ok(admin.post('/api/v1/admin/expenses', { description: 'Rent', category: 'RENT', amount: '100.00', spent_at: '2026-01-01' }));
const address = await ok(admin.post('/api/v1/users/me/addresses', addressInput()));
await ok(admin.post('/api/v1/cart/items', { variant_public_id: variant.public_id, quantity: 1 }), 200);
const order = await ok(admin.post('/api/v1/orders', { address_public_id: address.public_id, payment_method: 'mock' }));
await ok(admin.post('/api/v1/cart/items', { variant_public_id: variant.public_id, quantity: 1 }), 200);
const imageUrl = await uploadedReviewImage(t, admin);
const review = await ok(admin.post('/api/v1/reviews', { product_public_id: product.public_id, rating: 5, title: 'Fine', comment: 'Fine.', images: [{ image_url: imageUrl }] }));
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
  image_url: imageUrl,
  '*': new URL(imageUrl).pathname.replace(/^\/media\//, ''),
};

// ---- the document and what a request looks like ------------------------------------------------
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | null;
  needsSession: boolean;
}
const document = (await t.client().get('/openapi.json')).body as { paths: Record<string, Record<string, any>> };
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    parameters: (op.parameters ?? []) as Parameter[],
    body: (op.requestBody?.content?.['application/json']?.schema as Schema | undefined) ?? null,
    needsSession: ((op.security ?? []) as Record<string, unknown>[]).some((s) => 'session' in s),
  })),
);
// Writes that end the fuzzer's own session or delete the store's things go last.
const rank = (op: Operation) => (op.path === '/api/v1/auth/session' && op.method === 'DELETE' ? 2 : op.method === 'DELETE' ? 1 : 0);
operations.sort((a, b) => rank(a) - rank(b));

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

type Mutation =
  | { kind: 'leaf'; where: 'body' | 'query' | 'path' | 'header'; pick: number; value: unknown }
  | { kind: 'drop'; pick: number }
  | { kind: 'extra'; name: string; value: unknown }
  | { kind: 'duplicate'; pick: number; value: unknown }
  | { kind: 'nest'; pick: number; nested: string }
  | { kind: 'contentType'; type: string }
  | { kind: 'malformed'; text: string }
  | { kind: 'rawPath'; pick: number; raw: string }
  | { kind: 'repeatQuery'; pick: number; values: unknown[] };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('leaf' as const), where: fc.constantFrom('body' as const, 'query' as const, 'path' as const, 'header' as const), pick: fc.nat(), value: hostileValue }) },
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('extra' as const), name: fc.constantFrom('unknown_field', 'role', 'status', 'id', 'user_id', 'constructor'), value: hostileValue }),
  fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('nest' as const), pick: fc.nat(), nested: deeplyNested }),
  fc.record({ kind: fc.constant('contentType' as const), type: wrongContentType }),
  fc.record({ kind: fc.constant('malformed' as const), text: malformedJson }),
  fc.record({ kind: fc.constant('rawPath' as const), pick: fc.nat(), raw: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%ED%A0%80', 'x'.repeat(3000), '..%2f..', '%2e%2e', '%20', '%C0%AE') }),
  fc.record({ kind: fc.constant('repeatQuery' as const), pick: fc.nat(), values: fc.array(hostileValue, { minLength: 2, maxLength: 4 }) }),
);

function baseRequest(op: Operation) {
  const path = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema, known, p.name)]));
  const query = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.required ? valid(p.schema, known, p.name) : fc.option(valid(p.schema, known, p.name), { nil: undefined })]),
  );
  const header = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.required ? valid(p.schema, known, p.name) : fc.option(valid(p.schema, known, p.name), { nil: undefined })]),
  );
  return fc.record({ path: fc.record(path), query: fc.record(query), header: fc.record(header), body: op.body ? valid(op.body, known) : fc.constant(undefined) });
}

/** Paths (as key lists) to every value inside `value`, containers included. */
function slots(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return at.length > 0 ? [at] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [...(at.length > 0 ? [at] : []), ...entries.flatMap(([key, v]) => slots(v, [...at, key]))];
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(target) ? [...target] : { ...(target as object) };
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

function dropAt(target: unknown, path: (string | number)[]): unknown {
  const copy: any = Array.isArray(target) ? [...target] : { ...(target as object) };
  if (path.length === 1) {
    if (Array.isArray(copy)) copy.splice(Number(path[0]), 1);
    else delete copy[path[0]!];
    return copy;
  }
  copy[path[0]!] = dropAt(copy[path[0]!], path.slice(1));
  return copy;
}

// Past Node's 16 KB header limit every request is the same 431; keep most URLs under it so the checks behind run.
const queryText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)).slice(0, 1000);
const pathText = (value: unknown) => {
  try {
    return encodeURIComponent(queryText(value));
  } catch {
    return '%ED%A0%80'; // a lone surrogate has no UTF-8 form; send the bytes it would have had
  }
};

// Header values are bytes 0x20-0xFF (fetch refuses the rest, line breaks and NUL included).
const headerText = (value: unknown) => [...queryText(value)].map((c) => (c >= ' ' && c <= '\u00ff' && c !== '\u007f' ? c : '?')).join('');

/** The request as sent: a valid one, spoiled by `m`. */
function build(op: Operation, base: { path: Record<string, unknown>; query: Record<string, unknown>; header: Record<string, unknown>; body: unknown }, m: Mutation): Built {
  let { path, query, header, body } = base;
  const rawPath: Record<string, string> = {};
  let rawBody: string | undefined;
  let contentType = 'application/json';
  const repeated: [string, unknown][] = [];
  const pick = <T>(list: T[], n: number) => list[n % list.length];

  switch (m.kind) {
    case 'leaf': {
      if (m.where === 'body' && body !== undefined) body = setAt(body, pick(slots(body), m.pick) ?? [], m.value);
      else if (m.where === 'path' && Object.keys(path).length > 0) path = { ...path, [pick(Object.keys(path), m.pick)!]: m.value };
      else if (m.where === 'header' && Object.keys(header).length > 0) header = { ...header, [pick(Object.keys(header), m.pick)!]: m.value };
      else query = { ...query, [pick(Object.keys(query), m.pick) ?? 'q']: m.value };
      break;
    }
    case 'drop': {
      const bodySlots = body !== undefined ? slots(body) : [];
      if (bodySlots.length > 0) body = dropAt(body, pick(bodySlots, m.pick)!);
      else if (Object.keys(query).length > 0) query = { ...query, [pick(Object.keys(query), m.pick)!]: undefined };
      break;
    }
    case 'extra':
      if (body !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body)) body = { ...body, [m.name]: m.value };
      else query = { ...query, [m.name]: m.value };
      break;
    case 'duplicate':
      if (body !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length > 0) {
        const key = pick(Object.keys(body), m.pick)!;
        rawBody = `{${JSON.stringify(key)}:${JSON.stringify(m.value) ?? 'null'},${JSON.stringify(body).slice(1)}`;
      } else {
        const key = pick(Object.keys(query), m.pick) ?? 'page';
        repeated.push([key, m.value], [key, query[key] ?? 1]);
      }
      break;
    case 'nest': {
      const target = body !== undefined ? pick(slots(body), m.pick) : undefined;
      rawBody = target ? JSON.stringify(setAt(body, target, '\u0001NEST\u0001')).replace('"\\u0001NEST\\u0001"', m.nested) : m.nested;
      break;
    }
    case 'contentType':
      contentType = m.type;
      rawBody = JSON.stringify(body ?? {});
      break;
    case 'malformed':
      rawBody = m.text;
      break;
    case 'rawPath': {
      const names = Object.keys(path);
      if (names.length > 0) rawPath[pick(names, m.pick)!] = m.raw;
      break;
    }
    case 'repeatQuery': {
      const key = pick(Object.keys(query), m.pick) ?? 'page';
      for (const value of m.values) repeated.push([key, value]);
      query = { ...query, [key]: undefined };
      break;
    }
  }

  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => rawPath[name] ?? pathText(path[name] ?? 'x'));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, queryText(value));
  for (const [key, value] of repeated) search.append(key, queryText(value));
  const text = rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined);
  const sendsBody = !['GET', 'HEAD'].includes(op.method) && text !== undefined;
  const headers: Record<string, string> = {};
  // fetch refuses header values with line breaks or NUL, and values past Node's header limit only ever get 431.
  for (const [name, value] of Object.entries(header)) if (value !== undefined) headers[name] = headerText(value);
  if (sendsBody && contentType) headers['content-type'] = contentType;
  return {
    method: op.method,
    url: url + (search.size > 0 ? `?${search}` : ''),
    headers,
    ...(sendsBody ? { body: text } : {}),
  };
}

// ---- sending and judging ---------------------------------------------------------------------------
const tables = (
  await sql<{ tablename: string }>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('rate_limits', 'audit_log') AND tablename NOT LIKE 'kysely_%' ORDER BY 1`.execute(t.db)
).rows.map((row) => row.tablename);
const countsQuery = sql.raw(
  `SELECT ${tables.map((name) => `(SELECT count(*) FROM "${name}") AS "${name}"`).join(', ')},
   (SELECT count(*) FROM audit_log WHERE action NOT IN (${REFUSAL_AUDITS.map((a) => `'${a}'`).join(', ')})) AS audit_log`,
);
const counts = async () => (await countsQuery.execute(t.db)).rows[0] as Record<string, number>;

let adminJar = admin;
const anonymous = new Client(t.baseUrl);

async function send(op: Operation, request: Built) {
  const jar = op.needsSession ? adminJar : anonymous;
  const headers: Record<string, string> = { ...request.headers };
  if (op.method !== 'GET') headers['x-csrf-token'] = await jar.csrf();
  if (jar.cookies.size > 0) headers.cookie = [...jar.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(t.baseUrl + request.url, { method: request.method, headers, ...(request.body !== undefined ? { body: request.body } : {}) });
  // A pre-session cookie replaced by a login, or a session ended by the fuzz itself: start over.
  if (response.headers.getSetCookie().length > 0 || response.status === 401) {
    if (!op.needsSession) anonymous.cookies.clear();
    else {
      adminJar = new Client(t.baseUrl);
      await adminJar.post('/api/v1/auth/login', { email: adminEmail, password: PASSWORD });
    }
  }
  return { status: response.status, text: await response.text() };
}

const show = (request: Built) => `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers)} ${(request.body ?? '').slice(0, 300)}`;

/** How often each status came back, printed at the end: a fuzzer whose requests all stop at one check proves little. */
const statuses = new Map<number, number>();
after(() => console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`));

describe('fuzzing every operation of the OpenAPI document', () => {
  for (const op of operations) {
    test(`${op.method} ${op.path}`, async () => {
      const details = await fc.check(
        fc.asyncProperty(baseRequest(op), mutation, async (base, m) => {
          const request = build(op, base, m);
          const before = await counts();
          const response = await send(op, request);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          assert.ok(response.status < 500, `${response.status} for ${show(request)}: ${response.text.slice(0, 300)}`);
          if (response.status >= 400) {
            let body: any;
            try {
              body = JSON.parse(response.text);
            } catch {
              assert.fail(`a ${response.status} that is not JSON for ${show(request)}: ${response.text.slice(0, 200)}`);
            }
            assert.ok(body.success === false && typeof body.error?.code === 'string' && typeof body.request_id === 'string', `not the envelope for ${show(request)}: ${response.text.slice(0, 300)}`);
            const afterCounts = await counts();
            assert.deepEqual(afterCounts, before, `a refused request (${response.status} ${body.error.code}) wrote rows: ${show(request)}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // The counterexample itself can be megabytes; the message names the request in short, and the seed and path replay it.
      if (details.failed) {
        const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        assert.fail(`replay with FUZZ_SEED=${details.seed} (fc path "${details.counterexamplePath}"): ${reason}`);
      }
    });
  }
});

/**
 * The built-in image host's upload takes a multipart form, not JSON, so the
 * walk above sends it nothing useful. Here each run asks for fresh
 * credentials, builds the form an ImageKit client would send and spoils one
 * part of it: a hostile field value, a missing, repeated or unknown field, a
 * file that is not an image (or empty, or too large), a second file, or a
 * body that is not well-formed multipart.
 */
type FormMutation =
  | { kind: 'field'; pick: number; value: unknown }
  | { kind: 'drop'; pick: number }
  | { kind: 'repeat'; pick: number; value: unknown }
  | { kind: 'extra'; value: unknown }
  | { kind: 'file'; bytes: Uint8Array | 'empty' | 'huge' | 'truncated' | 'none' | 'twice' | 'as-text' }
  | { kind: 'raw'; body: string; contentType: string };

const FORM_FIELDS = ['fileName', 'token', 'expire', 'signature', 'publicKey', 'folder'];
const formMutation: fc.Arbitrary<FormMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('field' as const), pick: fc.nat(), value: hostileValue }) },
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), pick: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('extra' as const), value: hostileValue }),
  fc.record({
    kind: fc.constant('file' as const),
    bytes: fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('empty' as const, 'huge' as const, 'truncated' as const, 'none' as const, 'twice' as const, 'as-text' as const)),
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    body: fc.constantFrom('', '--x', '--x\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc', '--x\r\n\r\n--x--', '\u0000', 'not multipart at all'),
    contentType: fc.constantFrom('multipart/form-data; boundary=x', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=x'),
  }),
);

function uploadForm(creds: Awaited<ReturnType<typeof credentials>>, m: FormMutation): { body: FormData | string; headers: Record<string, string> } {
  if (m.kind === 'raw') return { body: m.body, headers: { 'content-type': m.contentType } };
  const fields: [string, string][] = FORM_FIELDS.map((name) => [name, name === 'fileName' ? 'x.png' : String(creds[name as keyof typeof creds])]);
  const pick = (n: number) => n % FORM_FIELDS.length;
  if (m.kind === 'field') fields[pick(m.pick)]![1] = queryText(m.value);
  if (m.kind === 'drop') fields.splice(pick(m.pick), 1);
  if (m.kind === 'repeat') fields.push([FORM_FIELDS[pick(m.pick)]!, queryText(m.value)]);
  if (m.kind === 'extra') fields.push(['unknown_field', queryText(m.value)]);
  const form = new FormData();
  const png = tinyPng();
  const file = m.kind !== 'file' ? png : m.bytes === 'empty' ? Buffer.alloc(0) : m.bytes === 'huge' ? Buffer.alloc(6 * 1024 * 1024, 1) : m.bytes === 'truncated' ? png.subarray(0, 20) : typeof m.bytes === 'string' ? png : Buffer.from(m.bytes);
  const sends = m.kind !== 'file' || m.bytes !== 'none';
  if (m.kind === 'file' && m.bytes === 'as-text') form.append('file', png.toString('base64'));
  else if (sends) form.append('file', new Blob([file]), 'x.png');
  if (m.kind === 'file' && m.bytes === 'twice') form.append('file', new Blob([png]), 'y.png');
  for (const [name, value] of fields) form.append(name, value);
  return { body: form, headers: {} };
}

describe('fuzzing the multipart upload of the built-in image host', () => {
  test('POST /media/api/v1/files/upload with spoiled forms', async () => {
    const details = await fc.check(
      fc.asyncProperty(formMutation, async (m) => {
        const creds = await credentials(adminJar);
        const { body, headers } = uploadForm(creds, m);
        const shown = `${JSON.stringify(m, (_, v) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}...` : v instanceof Uint8Array ? `${v.length} bytes` : v))}`;
        const before = await counts();
        const response = await fetch(local(t, creds.uploadEndpoint), { method: 'POST', body, headers });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        assert.ok(response.status < 500, `${response.status} for ${shown}: ${text.slice(0, 300)}`);
        if (response.status >= 400) {
          const parsed = JSON.parse(text);
          assert.ok(parsed.success === false && typeof parsed.error?.code === 'string' && typeof parsed.request_id === 'string', `not the envelope for ${shown}: ${text.slice(0, 300)}`);
          assert.deepEqual(await counts(), before, `a refused upload (${response.status} ${parsed.error.code}) wrote rows: ${shown}`);
        }
      }),
      { seed: SEED, numRuns: RUNS * 2, endOnFailure: true },
    );
    if (details.failed) {
      const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      assert.fail(`replay with FUZZ_SEED=${details.seed} (fc path "${details.counterexamplePath}"): ${reason}`);
    }
  });
});
