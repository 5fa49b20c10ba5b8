import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '../helpers/client.js';
import { fileDatabase, startService } from '../helpers/service.js';

/**
 * The operator's path: `npm start` (its prestart builds what is stale, then
 * the compiled service runs) serves the console's production build at
 * /admin, deep links included, with every script and stylesheet the shell
 * names. The browser tests drive the same build through an app started in
 * the test process; this proves the command the README gives serves it too.
 */
const file = fileDatabase();

test('`npm start` serves the console at /admin: the shell, a deep link, and every asset the shell loads', async () => {
  const service = await startService({ databaseUrl: file.database.url, viaNpm: true });
  try {
    const client = new Client(service.baseUrl);
    const shell = await client.get('/admin');
    assert.equal(shell.status, 200);
    assert.match(shell.headers.get('content-type') ?? '', /^text\/html/);
    const assets = [...shell.text.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(
      assets.some((asset) => asset.endsWith('.js')),
      shell.text.slice(0, 500),
    );
    for (const asset of assets) {
      const response = await client.get(asset);
      assert.equal(response.status, 200, asset);
      assert.match(response.headers.get('content-type') ?? '', asset.endsWith('.css') ? /text\/css/ : /javascript/, asset);
    }
    const deep = await client.get('/admin/orders?status=PLACED');
    assert.equal(deep.status, 200);
    assert.equal(deep.text, shell.text, 'a deep link gets the same shell');
  } finally {
    assert.equal((await service.stop()).code, 0, service.output().slice(-2000));
  }
});
