import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileDatabase, startService } from '../helpers/service.js';

/**
 * The README's two commands: `npm start` (its prestart builds what is stale, the storefront too)
 * serves the shop at `/`, with every script a page names, beside the API and its JSON 404s.
 */
const file = fileDatabase();

test('`npm start` serves the storefront at /, its assets, and the API beside it', async () => {
  const service = await startService({ databaseUrl: file.database.url, viaNpm: true });
  try {
    const home = await fetch(`${service.baseUrl}/`);
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await home.text(), /<title>Northwind Supply<\/title>/);
    const cart = await fetch(`${service.baseUrl}/cart`);
    const scripts = [...(cart.headers.get('link') ?? '').matchAll(/<([^>]+\.js)>; rel="modulepreload"/g)].map(
      (m) => new URL(m[1]!, `${service.baseUrl}/cart`).href,
    );
    assert.ok(scripts.length > 0);
    for (const script of scripts) assert.equal((await fetch(script)).status, 200, script);
    const unknown = await fetch(`${service.baseUrl}/api/v1/nope`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
    assert.equal((await fetch(`${service.baseUrl}/robots.txt`)).status, 200);
  } finally {
    assert.equal((await service.stop()).code, 0, service.output().slice(-2000));
  }
});
