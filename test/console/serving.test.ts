import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  test('a build made while the service runs is served as it lands: the new shell and its new assets', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'console-'));
    cpSync(t.config.consoleDir, dir, { recursive: true });
    const live = await startTestApp({ CONSOLE_DIR: dir });
    try {
      const old = readdirSync(path.join(dir, 'assets')).find((name) => /^index-.*\.js$/.test(name))!;
      assert.match((await live.client().get('/admin/orders')).text, new RegExp(old.replace('.', '\\.')));
      // What a rebuild does: a new entry script under a new hash, the shell naming it, the old one gone.
      const fresh = 'index-Rebuilt0.js';
      writeFileSync(path.join(dir, 'assets', fresh), readFileSync(path.join(dir, 'assets', old)));
      for (const copy of [old, `${old}.br`, `${old}.gz`]) rmSync(path.join(dir, 'assets', copy), { force: true });
      const html = readFileSync(path.join(dir, 'index.html'), 'utf8').replaceAll(old, fresh);
      await new Promise((resolve) => setTimeout(resolve, 20)); // a later modification time
      writeFileSync(path.join(dir, 'index.html'), html);

      const shell = (await live.client().get('/admin/orders')).text;
      assert.match(shell, /index-Rebuilt0\.js/);
      assert.doesNotMatch(shell, new RegExp(old.replace('.', '\\.')));
      const asset = await live.client().get(`/admin/assets/${fresh}`);
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('content-type') ?? '', /javascript/);
      assert.equal((await live.client().get(`/admin/assets/${old}`)).status, 404);
    } finally {
      await live.close();
      rmSync(dir, { recursive: true, force: true });
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
