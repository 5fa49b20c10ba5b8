import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signUp } from '../helpers/factories.js';
import { makeShop } from '../helpers/storefront.js';
import { useApp } from '../helpers/use-app.js';

/**
 * A page for a shopper with a cookie is rendered for them, but the public answers it shows are kept
 * in the process while the catalog's version stands (packages/storefront/src/lib/server/answer-cache.ts):
 * the next such page reads the version and its live data (the stock), not the product, its reviews
 * or a category's listing again, and a change a shopper can see shows on the very next page.
 */
const t = useApp();

/** The statements the service ran for one page. */
async function statementsFor(path: string, cookie: string): Promise<{ html: string; sql: string[] }> {
  const from = t.queries.length;
  const response = await fetch(t.baseUrl + path, { headers: { cookie } });
  assert.equal(response.status, 200, path);
  assert.equal(response.headers.get('cache-control'), 'private, no-store', path);
  const html = await response.text();
  return { html, sql: t.queries.slice(from) };
}

describe('storefront: public answers kept for pages rendered per shopper', () => {
  test('a second page reads the catalog version and the live stock, not the product, reviews or listing again', async () => {
    const { product, shirts } = await makeShop(t, { stock: 50 });
    const cookie = 'presession=abc123';
    for (const path of [`/p/${product.slug}`, `/c/${shirts.slug}`]) {
      const first = await statementsFor(path, cookie);
      assert.ok(
        first.sql.some((s) => /\bproduct_documents\b/.test(s)),
        `${path}: the first page reads the products`,
      );
      const second = await statementsFor(path, cookie);
      assert.equal(second.html.replace(/nonce-[\w+/=]+|nonce="[^"]+"/g, ''), first.html.replace(/nonce-[\w+/=]+|nonce="[^"]+"/g, ''));
      assert.ok(
        second.sql.some((s) => /\bcatalog_version\b/.test(s)),
        `${path}: the version is asked`,
      );
      const reread = second.sql.filter((s) => /\bproduct_documents\b|\breviews\b/.test(s));
      assert.deepEqual(reread, [], `${path}: nothing public read again`);
    }
  });

  test('a change a shopper can see is on the very next page, with no waiting', async () => {
    const { product, shirts, admin } = await makeShop(t, { stock: 50 });
    const cookie = 'presession=abc123';
    const page = `/p/${product.slug}`;
    assert.match((await statementsFor(page, cookie)).html, /\$49\.00/);
    assert.match((await statementsFor(`/c/${shirts.slug}`, cookie)).html, /\$49\.00/);
    for (const variant of product.variants) {
      const changed = await admin.patch(`/api/v1/admin/variants/${variant.id}`, { price: '47.25' });
      assert.equal(changed.status, 200, changed.text);
    }
    const after = await statementsFor(page, cookie);
    assert.match(after.html, /\$47\.25/);
    assert.doesNotMatch(after.html, /\$49\.00/);
    assert.match((await statementsFor(`/c/${shirts.slug}`, cookie)).html, /\$47\.25/);
  });

  test("a signed-in shopper's page reads their cart once: the header's count and the page's lines share the read", async () => {
    const { product } = await makeShop(t, { stock: 50 });
    const { client } = await signUp(t);
    assert.equal((await client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 2 })).status, 200);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    for (const path of [`/p/${product.slug}`, '/cart']) {
      const { html, sql } = await statementsFor(path, cookie);
      assert.match(html, /Cart, 2 items/, `${path}: the header counts the account's cart`);
      assert.equal(sql.filter((s) => /\bcart_items\b/.test(s)).length, 1, `${path}: one read of the cart`);
    }
  });
});
