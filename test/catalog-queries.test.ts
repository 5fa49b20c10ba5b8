import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newPublicId } from '../src/lib/ids.js';
import { API, createCategory, expectStatus } from './helpers/catalog.js';
import { type Client } from './helpers/factories.js';
import { statementsOf } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/**
 * N+1 guard: a product page costs the same number of SQL statements whatever
 * its size. The data is inserted straight into the database to keep this fast.
 */

const PRODUCTS = 55;

let parent: string;
let child: string;

// The email outbox worker and the event dispatcher poll the same database; keep them quiet so only the request's statements are counted.
const t = useApp({
  env: { EMAIL_POLL_INTERVAL_MS: '600000', EVENT_POLL_INTERVAL_MS: '600000' },
  as: ['ADMIN'],
  async seed(t) {
    parent = (await createCategory(t.admin, { name: 'Bulk Parent' })).public_id;
    child = (await createCategory(t.admin, { name: 'Bulk Child', parent_public_id: parent })).public_id;
    const categoryIds = (await t.db.selectFrom('categories').select('id').where('public_id', 'in', [parent, child]).execute()).map(
      (r) => r.id,
    );

    const products = await t.db
      .insertInto('products')
      .values(
        Array.from({ length: PRODUCTS }, (_, i) => ({
          public_id: newPublicId('prd'),
          name: `Bulk ${String(i).padStart(2, '0')}`,
          slug: `bulk-${i}`,
          description: 'bulk item',
          status: 'ACTIVE' as const,
          price_min: '1.00',
          price_max: '3.00',
        })),
      )
      .returning('id')
      .execute();
    const variants = await t.db
      .insertInto('variants')
      .values(
        products.flatMap((p, i) =>
          [1, 2, 3].map((n) => ({
            public_id: newPublicId('var'),
            product_id: p.id,
            sku: `BULK-${i}-${n}`,
            name: `Size ${n}`,
            price: `${n}.00`,
            cost_price: '0.50',
            position: n,
          })),
        ),
      )
      .returning('id')
      .execute();
    await t.db
      .insertInto('inventory')
      .values(variants.map((v, i) => ({ variant_id: v.id, quantity_on_hand: i % 2 })))
      .execute();
    await t.db
      .insertInto('product_categories')
      .values(products.flatMap((p) => categoryIds.map((category_id) => ({ product_id: p.id, category_id }))))
      .execute();
  },
});

/** Runs a request and returns how many SQL statements the app executed for it. */
async function statementsFor(client: Client, path: string) {
  const { response, statements } = await statementsOf(t, () => client.get(path));
  return { response, count: statements.length, statements };
}

async function expectFlat(client: Client, path: (limit: number) => string) {
  const small = await statementsFor(client, path(5));
  const large = await statementsFor(client, path(50));
  const data = expectStatus(large.response, 200);
  assert.equal(expectStatus(small.response, 200).length, 5);
  assert.equal(data.length, 50);
  // The page really was hydrated: every product carries its variants and categories.
  for (const product of data) {
    assert.equal(product.variants.length, 3);
    assert.equal(product.categories.length, 2);
  }
  assert.equal(large.count, small.count, `limit=5 ran ${small.count}, limit=50 ran ${large.count}:\n${large.statements.join('\n')}`);
  assert.ok(small.count >= 1 && small.count <= 5, `unexpectedly many statements: ${small.count}`);
  return data;
}

describe('statement count does not grow with the page size', () => {
  test('GET /products', async () => {
    await expectFlat(t.client(), (limit) => `${API}/products?limit=${limit}`);
  });

  test('GET /products with every filter and a sort', async () => {
    const data = await expectFlat(
      t.client(),
      (limit) => `${API}/products?limit=${limit}&category=${parent}&search=bulk&min_price=1&max_price=3&in_stock=true&sort=-price`,
    );
    assert.ok(data.every((p: any) => p.variants.some((v: any) => v.in_stock)));
  });

  test('GET /categories/{cat}/products', async () => {
    await expectFlat(t.client(), (limit) => `${API}/categories/${child}/products?limit=${limit}&sort=name`);
  });

  test('GET /admin/products', async () => {
    const data = await expectFlat(t.admin, (limit) => `${API}/admin/products?limit=${limit}&sort=name`);
    assert.ok(data.every((p: any) => p.variants.every((v: any) => v.inventory !== null && v.cost_price === '0.50')));
  });
});
