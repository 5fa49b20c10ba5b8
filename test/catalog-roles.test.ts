import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { API, createCategory, makeProduct, uniqueSku } from './helpers/catalog.js';
import { errorOf, type Client } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Every admin catalog endpoint: anonymous 401, customer 403, ADMIN and SUPER_ADMIN allowed. */

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: () => string;
  body?: () => unknown;
  /** What an admin gets. */
  ok: number;
}

// Fixtures, one per endpoint that changes something, so the order of the calls does not matter.
const f: Record<string, string> = {};

const endpoints: Endpoint[] = [
  { name: 'list products', method: 'GET', path: () => `/admin/products`, ok: 200 },
  { name: 'get product', method: 'GET', path: () => `/admin/products/${f.product}`, ok: 200 },
  { name: 'create product', method: 'POST', path: () => `/admin/products`, body: () => ({ name: `Role Product ${uniqueSku()}` }), ok: 201 },
  { name: 'edit product', method: 'PATCH', path: () => `/admin/products/${f.product}`, body: () => ({ brand: 'Acme' }), ok: 200 },
  { name: 'delete product', method: 'DELETE', path: () => `/admin/products/${f.doomedProduct}`, ok: 204 },
  {
    name: 'add variant',
    method: 'POST',
    path: () => `/admin/products/${f.product}/variants`,
    body: () => ({ sku: uniqueSku('ROLE'), name: 'V', price: '1.00' }),
    ok: 201,
  },
  { name: 'edit variant', method: 'PATCH', path: () => `/admin/variants/${f.variant}`, body: () => ({ price: '2.00' }), ok: 200 },
  { name: 'delete variant', method: 'DELETE', path: () => `/admin/variants/${f.doomedVariant}`, ok: 204 },
  {
    name: 'create category',
    method: 'POST',
    path: () => `/admin/categories`,
    body: () => ({ name: `Role Category ${uniqueSku()}` }),
    ok: 201,
  },
  {
    name: 'edit category',
    method: 'PATCH',
    path: () => `/admin/categories/${f.category}`,
    body: () => ({ description: 'edited' }),
    ok: 200,
  },
  { name: 'delete category', method: 'DELETE', path: () => `/admin/categories/${f.doomedCategory}`, ok: 204 },
  { name: 'link product', method: 'PUT', path: () => `/admin/categories/${f.category}/products/${f.product}`, ok: 204 },
  { name: 'unlink product', method: 'DELETE', path: () => `/admin/categories/${f.category}/products/${f.product}`, ok: 204 },
];

function call(client: Client, endpoint: Endpoint) {
  return client.request(endpoint.method, API + endpoint.path(), endpoint.body ? { body: endpoint.body() } : {});
}

/** A snapshot of the catalog tables, to prove a refused request changed nothing. */
async function catalogState() {
  const [products, variants, categories, links, audits] = await Promise.all([
    t.db.selectFrom('products').select(['public_id', 'brand', 'deleted_at', 'updated_at']).orderBy('id').execute(),
    t.db.selectFrom('variants').select(['public_id', 'price', 'deleted_at']).orderBy('id').execute(),
    t.db.selectFrom('categories').select(['public_id', 'description', 'deleted_at']).orderBy('id').execute(),
    t.db.selectFrom('product_categories').selectAll().orderBy('product_id').orderBy('category_id').execute(),
    t.db.selectFrom('audit_log').select('id').where('entity_type', 'in', ['product', 'variant', 'category']).execute(),
  ]);
  return { products, variants, categories, links, audits: audits.length };
}

const t = useApp({ as: ['ADMIN', 'SUPER_ADMIN', 'CUSTOMER'] });

async function freshFixtures() {
  const product = await makeProduct(t.admin, { variants: [{}, {}] });
  f.product = product.id;
  f.variant = product.variants[0].public_id;
  f.doomedVariant = product.variants[1].public_id;
  f.doomedProduct = (await makeProduct(t.admin)).id;
  f.category = (await createCategory(t.admin, { name: `Cat ${uniqueSku()}` })).public_id;
  f.doomedCategory = (await createCategory(t.admin, { name: `Cat ${uniqueSku()}` })).public_id;
}

describe('admin catalog endpoints refuse callers without the role', () => {
  before(freshFixtures);

  for (const endpoint of endpoints) {
    test(`${endpoint.method} ${endpoint.name}: anonymous 401, customer 403, nothing changes`, async () => {
      const state = await catalogState();

      const anonymous = await call(t.client(), endpoint);
      assert.equal(anonymous.status, 401, anonymous.text);
      assert.equal(errorOf(anonymous).code, 'UNAUTHENTICATED');

      const refused = await call(t.customer, endpoint);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(errorOf(refused).code, 'FORBIDDEN');

      assert.deepEqual(await catalogState(), state);
    });
  }
});

describe('admin catalog endpoints answer ADMIN and SUPER_ADMIN', () => {
  for (const [role, client] of [
    ['ADMIN', () => t.admin],
    ['SUPER_ADMIN', () => t.superAdmin],
  ] as const) {
    test(`${role} is allowed on every endpoint`, async () => {
      await freshFixtures();
      for (const endpoint of endpoints) {
        const response = await call(client(), endpoint);
        assert.equal(response.status, endpoint.ok, `${endpoint.method} ${endpoint.name}: ${response.text}`);
        if (endpoint.ok === 204) assert.equal(response.text, '');
        else assert.equal(response.body.success, true);
      }
      // The writes really happened.
      const deleted = await t.db
        .selectFrom('products')
        .select('deleted_at')
        .where('public_id', '=', f.doomedProduct!)
        .executeTakeFirstOrThrow();
      assert.ok(deleted.deleted_at instanceof Date);
      const edited = await t.db.selectFrom('products').select('brand').where('public_id', '=', f.product!).executeTakeFirstOrThrow();
      assert.equal(edited.brand, 'Acme');
      const variant = await t.db.selectFrom('variants').select('price').where('public_id', '=', f.variant!).executeTakeFirstOrThrow();
      assert.equal(variant.price, '2.00');
    });
  }
});
