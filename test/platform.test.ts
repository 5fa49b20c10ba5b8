import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestApp } from './helpers/app.js';
import { errorOf, signUp } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

const t = useApp();

describe('health', () => {
  test('liveness and readiness answer 200', async () => {
    const client = t.client();
    assert.deepEqual((await client.get('/health')).body, { success: true, data: { status: 'ok' } });
    assert.deepEqual((await client.get('/health/ready')).body, { success: true, data: { status: 'ready' } });
  });
});

describe('the API base path', () => {
  test('GET /api/v1 (with or without the slash) says where the reference, the document and the probes are, and each answers', async () => {
    for (const base of ['/api/v1', '/api/v1/']) {
      const index = await t.client().get(base);
      assert.equal(index.status, 200, base);
      assert.equal(index.body.data.reference, '/docs');
      for (const path of [index.body.data.reference, index.body.data.openapi, index.body.data.health]) {
        const response = await fetch(`${t.baseUrl}${path}`, { redirect: 'manual' });
        // Read to the end: an answer left unread keeps its connection busy, and the app's close waits for it.
        await response.arrayBuffer();
        assert.equal(response.status, 200, path);
      }
    }
  });
});

describe('error envelope', () => {
  test('unknown route is 404 in the envelope with a request id matching the header', async () => {
    const response = await t.client().get('/api/v1/nothing-here');
    assert.equal(response.status, 404);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal(response.body.request_id, response.headers.get('x-request-id'));
  });

  test('known path with another method is 405 with Allow', async () => {
    const response = await t.client().put('/health', undefined, { csrf: false });
    assert.equal(response.status, 405);
    assert.equal(errorOf(response).code, 'METHOD_NOT_ALLOWED');
    assert.match(response.headers.get('allow') ?? '', /GET/);
  });

  test('malformed JSON is 400 INVALID_JSON', async () => {
    const { client } = await signUp(t);
    const response = await client.post('/api/v1/users/me/addresses', undefined, { raw: '{"recipient_name": ' });
    assert.equal(response.status, 400);
    assert.equal(errorOf(response).code, 'INVALID_JSON');
  });

  test('wrong content type is 415', async () => {
    const { client } = await signUp(t);
    const response = await client.post('/api/v1/users/me/addresses', undefined, {
      raw: 'recipient_name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.status, 415);
    assert.equal(errorOf(response).code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('body over 1 MB is 413', async () => {
    const { client } = await signUp(t);
    const response = await client.post('/api/v1/users/me/addresses', { address_1: 'x'.repeat(1024 * 1024 + 10) });
    assert.equal(response.status, 413);
    assert.equal(errorOf(response).code, 'PAYLOAD_TOO_LARGE');
  });

  test("the request id is always the service's own; a caller's is only a correlation id in the log", async () => {
    const response = await t.client().get('/health', { headers: { 'x-request-id': 'trace-abc.123' } });
    assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('an unexpected failure is a 500 without stack or SQL', async () => {
    const boom = await startTestApp(
      {},
      {
        setup: (app) =>
          app.get('/__boom', { config: { access: 'public' } }, async () => {
            throw new Error('SELECT password_hash FROM users failed at /src/x.ts:1');
          }),
      },
    );
    try {
      const response = await boom.client().get('/__boom');
      assert.equal(response.status, 500);
      assert.equal(errorOf(response).code, 'INTERNAL_ERROR');
      assert.doesNotMatch(response.text, /SELECT|password_hash|\.ts/);
    } finally {
      await boom.close();
    }
  });
});

describe('security headers and docs', () => {
  test('helmet headers are set', async () => {
    const response = await t.client().get('/health');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(response.headers.get('strict-transport-security'));
  });

  test('OpenAPI 3.1 document and the reference UI are served', async () => {
    const spec = await t.client().get('/openapi.json');
    assert.equal(spec.status, 200);
    assert.equal(spec.body.openapi, '3.1.0');
    assert.ok(spec.body.paths['/api/v1/users/me/addresses']);
    const docs = await fetch(`${t.baseUrl}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});
