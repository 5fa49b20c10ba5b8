import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { safeNext } from '../../packages/storefront/src/lib/server/next.js';

/** Where sign-in sends a shopper next (packages/storefront/src/lib/server/next.ts): never off the site. */
const BASE = 'https://shop.example';

test('paths on the site are kept as they are', () => {
  for (const path of ['/account', '/checkout', '/orders/ord_abc12345?x=1', '/p/linen-shirt?size=M#reviews', '/c/shirts?q=a%20b']) {
    assert.equal(safeNext(path), path);
  }
});

test('anything that leaves the site, or is not a path, falls back', () => {
  const away = [
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\t\\evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    '\\/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'account',
    '',
    `/${'a'.repeat(1000)}`,
  ];
  for (const value of away) assert.equal(safeNext(value, '/fallback'), '/fallback', JSON.stringify(value));
  assert.equal(safeNext(null), '/account');
});

test('whatever it is given, the answer stays on the site and is a valid header value', () => {
  const pathish = fc.oneof(
    fc.string({ maxLength: 40 }).map((rest) => `/${rest}`),
    fc
      .array(fc.constantFrom('/', '\\', '\t', '\n', '\r', ' ', '%', '.', '@', ':', '?', '#', 'evil.example', 'a'), { maxLength: 12 })
      .map((parts) => parts.join('')),
  );
  fc.assert(
    fc.property(pathish, (value) => {
      const next = safeNext(value, '/fallback');
      assert.ok(next.startsWith('/') && !next.startsWith('//'), JSON.stringify([value, next]));
      assert.equal(new URL(next, BASE).origin, BASE, JSON.stringify([value, next]));
      assert.ok(![...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), JSON.stringify([value, next]));
    }),
    { numRuns: 5000 },
  );
});
