import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, test } from 'node:test';
import { freePort } from '../../src/lib/ports.js';
import { startTestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/mail.js';

/**
 * `npm run dev:console`: Vite serves the console from source with hot reload
 * and proxies /api and /media to a running service (CONSOLE_API_URL), so a
 * developer works on the console against a real API with no CORS.
 */
const t = await startTestApp();
after(() => t.close());

test(
  'dev mode serves the console from source with the hot-reload client and proxies the API to the service',
  { timeout: 60_000 },
  async () => {
    const port = await freePort();
    // Vite's command as `npm run dev` runs it (its bin, which the package's exports do not list).
    const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
    const server = spawn(process.execPath, [vite, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
      cwd: path.resolve('packages/console'),
      env: { ...process.env, CONSOLE_API_URL: t.baseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Settles on exit, or on a failure to start at all (then 'exit' may never come).
    const exited = new Promise((resolve) => {
      server.on('exit', resolve);
      server.on('error', resolve);
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const shell = await waitFor(async () => {
        const response = await fetch(`${base}/admin/`).catch(() => null);
        return response?.ok ? response.text() : null;
      }, 30_000).catch((error: Error) => assert.fail(`${error.message}\n${output}`));
      assert.match(shell, /\/admin\/@vite\/client/, 'the hot-reload client is in the page');
      assert.match(shell, /src\/main\.tsx/, 'the source, not a build');

      const main = await fetch(`${base}/admin/src/main.tsx`);
      assert.equal(main.status, 200);
      assert.match(main.headers.get('content-type') ?? '', /javascript/);

      // Through the proxy: the service answers, with its own envelope and its session cookie on the dev origin.
      const products = await fetch(`${base}/api/v1/products?limit=1`);
      assert.equal(products.status, 200);
      assert.equal(((await products.json()) as { success: boolean }).success, true);
      const csrf = await fetch(`${base}/api/v1/auth/csrf-token`);
      assert.equal(csrf.status, 200);
      assert.equal(typeof ((await csrf.json()) as { data: { csrf_token: string } }).data.csrf_token, 'string');
      assert.ok(csrf.headers.getSetCookie().length > 0, 'the pre-session cookie reaches the dev origin');
    } finally {
      server.kill('SIGTERM');
      const hard = setTimeout(() => server.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(hard);
    }
  },
);
