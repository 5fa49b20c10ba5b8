import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;

before(async () => {
  t = await startTestApp();
});
after(async () => t?.close());

describe('the service serves the console at /admin', () => {
  test('the shell: HTML, never cached, with the console CSP; deep links get the same shell', async () => {
    const client = t.client();
    for (const url of ['/admin', '/admin/', '/admin/orders/ord_abc?status=PLACED', '/admin/sign-in']) {
      const response = await client.get(url);
      assert.equal(response.status, 200, url);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'(;|$)/);
      assert.match(response.text, /<div id="root">/);
    }
  });

  test('hashed assets are immutable; a missing asset is a 404 envelope, not the shell', async () => {
    const client = t.client();
    const asset = readdirSync(path.join(t.config.consoleDir, 'assets')).find((name) => name.endsWith('.js'));
    assert.ok(asset, 'the build has JavaScript assets');
    const found = await client.get(`/admin/assets/${asset}`);
    assert.equal(found.status, 200);
    assert.match(found.headers.get('cache-control') ?? '', /immutable/);
    assert.match(found.headers.get('content-type') ?? '', /javascript/);

    // The compressed copies beside each asset are how it is sent, not addresses of their own.
    for (const url of [
      '/admin/assets/index-missing.js',
      '/admin/favicon.ico',
      '/admin/assets/',
      `/admin/assets/${asset}.br`,
      `/admin/assets/${asset}.gz`,
    ]) {
      const missing = await client.get(url);
      assert.equal(missing.status, 404, url);
      assert.equal(missing.body.error.code, 'NOT_FOUND');
      assert.equal(typeof missing.body.request_id, 'string');
    }
  });

  test('without a build, /admin says how to make one (503), and the API still works', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'console-'));
    const bare = await startTestApp({ CONSOLE_DIR: empty });
    try {
      const response = await bare.client().get('/admin/orders');
      assert.equal(response.status, 503);
      assert.equal(response.body.error.code, 'CONSOLE_NOT_BUILT');
      assert.match(response.body.error.message, /npm run build:console/);
      assert.equal((await bare.client().get('/health')).status, 200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
