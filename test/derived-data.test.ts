import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { checkout, shopper } from './helpers/commerce.js';
import { consistent, staleDerived } from './helpers/derived.js';
import { useApp } from './helpers/use-app.js';

/**
 * src/db/DERIVED.md, proven: after every kind of write that feeds a derived
 * store, each store recomputed from its sources equals what is stored, and a
 * writing statement rebuilds a product's document once at most (counted by a
 * statement trigger this test adds to product_documents: every refresh is one
 * INSERT ... ON CONFLICT statement there, whether or not it changes a row).
 */
let category: string;
let product: string;
let variants: string[];

const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' },
  as: ['ADMIN'],
  async seed(t) {
    await sql`
      CREATE TABLE document_refreshes (n int NOT NULL);
      INSERT INTO document_refreshes VALUES (0);
      CREATE FUNCTION count_document_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE document_refreshes SET n = n + 1; RETURN NULL; END $$;
      CREATE TRIGGER count_document_refresh AFTER INSERT ON product_documents FOR EACH STATEMENT EXECUTE FUNCTION count_document_refresh();
    `.execute(t.db);
    category = (await createCategory(t.admin, { name: `Derived ${uniqueSku()}` })).public_id;
    const made = await makeProduct(t.admin, {
      categories: [category],
      variants: [
        { price: '20.00', stock: 1 },
        { price: '30.00', stock: 5 },
      ],
    });
    product = made.id;
    variants = made.variants.map((v: any) => v.public_id);
  },
});

const refreshes = async () => (await sql<{ n: number }>`SELECT n FROM document_refreshes`.execute(t.db)).rows[0]!.n;

/** Runs `write`, then checks every store and how many document refreshes the write cost. */
async function step(write: () => Promise<unknown>, expectedRefreshes?: number) {
  const before = await refreshes();
  await write();
  assert.deepEqual(await staleDerived(t.db), consistent);
  if (expectedRefreshes !== undefined) assert.equal((await refreshes()) - before, expectedRefreshes, 'document refreshes');
}

describe('every derived store follows every write', () => {
  test('variant price, status and deletion: price range and document, one refresh each', async () => {
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/variants/${variants[0]}`, { price: '15.00' }), 200), 1);
    const range = await t.db
      .selectFrom('products')
      .select(['price_min', 'price_max'])
      .where('public_id', '=', product)
      .executeTakeFirstOrThrow();
    assert.deepEqual(range, { price_min: '15.00', price_max: '30.00' });
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/variants/${variants[1]}`, { status: 'INACTIVE' }), 200), 1);
    await step(
      async () =>
        expectStatus(await t.admin.patch(`${API}/admin/variants/${variants[1]}`, { status: 'ACTIVE', sku: uniqueSku('NEW') }), 200),
      1,
    );
    const extra = expectStatus(
      await t.admin.post(`${API}/admin/products/${product}/variants`, { sku: uniqueSku(), name: 'Extra', price: '99.00' }),
      201,
    );
    await step(
      async () =>
        expectStatus(await t.admin.post(`${API}/admin/inventory`, { variant_public_id: extra.public_id, quantity_on_hand: 2 }), 201),
      1,
    );
    await step(async () => expectStatus(await t.admin.delete(`${API}/admin/variants/${extra.public_id}`), 204), 1);
  });

  test('product name, status and categories', async () => {
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/products/${product}`, { name: 'Renamed' }), 200), 1);
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/products/${product}`, { status: 'ARCHIVED' }), 200));
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/products/${product}`, { status: 'ACTIVE' }), 200));
    const other = (await createCategory(t.admin, { name: `Other ${uniqueSku()}` })).public_id;
    await step(async () => expectStatus(await t.admin.request('PUT', `${API}/admin/categories/${other}/products/${product}`), 204), 1);
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/categories/${other}`, { name: 'Other, renamed' }), 200), 1);
    await step(async () => expectStatus(await t.admin.delete(`${API}/admin/categories/${other}`), 204), 1);
  });

  test('stock: a checkout that leaves units rebuilds nothing; the one that sells out rebuilds once; a cancellation once', async () => {
    const s = await shopper(t, [{ variantId: variants[1]!, quantity: 1 }]);
    let placed: any;
    await step(async () => (placed = expectStatus(await checkout(s.client, s.addressId), 201)), 0);
    const last = await shopper(t, [{ variantId: variants[0]!, quantity: 1 }]);
    let soldOut: any;
    await step(async () => (soldOut = expectStatus(await checkout(last.client, last.addressId), 201)), 1);
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/orders/${soldOut.public_id}`, { status: 'CANCELLED' }), 200), 1);
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/orders/${placed.public_id}`, { status: 'CONFIRMED' }), 200), 0);
    await step(
      async () =>
        expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[0]}`, { quantity_change: -1, reason: 'damaged' }), 200),
      1,
    );
  });

  test('reviews: a new review changes nothing; approving and deleting move the rating, one refresh each', async () => {
    const s = await shopper(t, [{ variantId: variants[1]!, quantity: 1 }]);
    expectStatus(await checkout(s.client, s.addressId), 201);
    let review: any;
    await step(
      async () =>
        (review = expectStatus(
          await s.client.post(`${API}/reviews`, { product_public_id: product, rating: 4, title: 'Good', comment: 'Fine.' }),
          201,
        )),
      0,
    );
    await step(async () => expectStatus(await t.admin.patch(`${API}/admin/reviews/${review.public_id}`, { status: 'APPROVED' }), 200), 1);
    const rated = await t.db
      .selectFrom('products')
      .select(['rating_average', 'rating_count'])
      .where('public_id', '=', product)
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(rated.rating_average), rated.rating_count], [4, 1]);
    await step(async () => expectStatus(await s.client.delete(`${API}/reviews/${review.public_id}`), 204), 1);
  });

  test('product deletion takes its variants, records and counts with it', async () => {
    await step(async () => expectStatus(await t.admin.delete(`${API}/admin/products/${product}`), 204));
    const row = await t.db
      .selectFrom('inventory_products as ip')
      .innerJoin('products as p', 'p.id', 'ip.product_id')
      .select('ip.live_records')
      .where('p.public_id', '=', product)
      .executeTakeFirstOrThrow();
    assert.equal(row.live_records, 0);
  });
});
