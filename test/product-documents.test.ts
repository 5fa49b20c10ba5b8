import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { checkout, shopper } from './helpers/commerce.js';
import { staleDocuments } from './helpers/derived.js';
import { signUp } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * Storefront lists read each product's stored document (src/db/DERIVED.md),
 * kept by the database. Every kind of write that shows in a product must leave
 * the stored document equal to a fresh one: after each step below, (1) no
 * product's document differs from `product_documents_of()` computed now (and
 * only public products have one), and (2) the listed product equals the
 * product detail endpoint.
 */

let category: string;
let product: string;
let variants: string[];

/** The product as the category's storefront list shows it (undefined when not listed), checked against the detail endpoint. */
async function listed(): Promise<any> {
  assert.deepEqual(await staleDocuments(t.db), []);
  const list = expectStatus(await t.client().get(`${API}/products?category=${category}`), 200);
  const item = list.find((p: any) => p.public_id === product);
  if (item) assert.deepEqual(item, expectStatus(await t.client().get(`${API}/products/${product}`), 200));
  return item;
}

const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0' },
  as: ['ADMIN'],
  async seed(t) {
    category = (await createCategory(t.admin, { name: `Docs ${uniqueSku()}` })).public_id;
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

describe('stored product documents follow every write', () => {
  test('a new product is listed with its variants and stock', async () => {
    const item = await listed();
    assert.deepEqual(
      item.variants.map((v: any) => [v.price, v.in_stock]),
      [
        ['20.00', true],
        ['30.00', true],
      ],
    );
  });

  test('product fields', async () => {
    expectStatus(await t.admin.patch(`${API}/admin/products/${product}`, { name: 'Renamed lamp', brand: 'Lumen' }), 200);
    const item = await listed();
    assert.deepEqual([item.name, item.brand], ['Renamed lamp', 'Lumen']);
  });

  test('variant price, status and deletion', async () => {
    expectStatus(await t.admin.patch(`${API}/admin/variants/${variants[0]}`, { price: '25.00' }), 200);
    assert.deepEqual([(await listed()).price_min, (await listed()).variants[0].price], ['25.00', '25.00']);
    expectStatus(await t.admin.patch(`${API}/admin/variants/${variants[1]}`, { status: 'INACTIVE' }), 200);
    assert.deepEqual(
      (await listed()).variants.map((v: any) => v.public_id),
      [variants[0]],
    );
    expectStatus(await t.admin.patch(`${API}/admin/variants/${variants[1]}`, { status: 'ACTIVE' }), 200);
    assert.equal((await listed()).variants.length, 2);
  });

  test('stock crossing zero, by adjustment and by reservation', async () => {
    const inStock = async () => (await listed()).variants.map((v: any) => v.in_stock);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[1]}`, { quantity_on_hand: 0 }), 200);
    assert.deepEqual(await inStock(), [true, false]);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[1]}`, { quantity_on_hand: 4 }), 200);
    assert.deepEqual(await inStock(), [true, true]);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[1]}/reservation`, { change: 4 }), 200);
    assert.deepEqual(await inStock(), [true, false]);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${variants[1]}/reservation`, { change: -1 }), 200);
    assert.deepEqual(await inStock(), [true, true]);
  });

  test('stock crossing zero at checkout', async () => {
    const buyer = await shopper(t, [{ variantId: variants[0]!, quantity: 1 }]);
    expectStatus(await checkout(buyer.client, buyer.addressId), 201);
    assert.deepEqual(
      (await listed()).variants.map((v: any) => v.in_stock),
      [false, true],
    );
  });

  test('categories: assignment, rename, deletion', async () => {
    const other = await createCategory(t.admin, { name: `Zeta ${uniqueSku()}` });
    expectStatus(await t.admin.put(`${API}/admin/categories/${other.public_id}/products/${product}`), 204);
    assert.deepEqual(
      (await listed()).categories.map((c: any) => c.public_id),
      [category, other.public_id],
    );
    expectStatus(await t.admin.patch(`${API}/admin/categories/${other.public_id}`, { name: 'Aaa first now' }), 200);
    assert.deepEqual((await listed()).categories.map((c: any) => c.name)[0], 'Aaa first now');
    expectStatus(await t.admin.delete(`${API}/admin/categories/${other.public_id}/products/${product}`), 204);
    assert.deepEqual(
      (await listed()).categories.map((c: any) => c.public_id),
      [category],
    );
    expectStatus(await t.admin.put(`${API}/admin/categories/${other.public_id}/products/${product}`), 204);
    expectStatus(await t.admin.delete(`${API}/admin/categories/${other.public_id}`), 204);
    assert.deepEqual(
      (await listed()).categories.map((c: any) => c.public_id),
      [category],
    );
  });

  test('an approved review moves the rating', async () => {
    const { client } = await signUp(t);
    const review = expectStatus(
      await client.post(`${API}/reviews`, { product_public_id: product, rating: 2, title: 'Meh', comment: 'It is fine.' }),
      201,
    );
    assert.deepEqual((await listed()).rating, { average: 0, count: 0 });
    expectStatus(await t.admin.patch(`${API}/admin/reviews/${review.public_id}`, { status: 'APPROVED' }), 200);
    assert.deepEqual((await listed()).rating, { average: 2, count: 1 });
  });

  test('status and deletion take the product off the list and its document away', async () => {
    expectStatus(await t.admin.patch(`${API}/admin/products/${product}`, { status: 'DRAFT' }), 200);
    assert.equal(await listed(), undefined);
    expectStatus(await t.admin.patch(`${API}/admin/products/${product}`, { status: 'ACTIVE', description: 'Back again' }), 200);
    assert.equal((await listed()).description, 'Back again');
    expectStatus(await t.admin.delete(`${API}/admin/variants/${variants[1]}`), 204);
    assert.equal((await listed()).variants.length, 1);
    expectStatus(await t.admin.delete(`${API}/admin/products/${product}`), 204);
    assert.equal(await listed(), undefined);
  });
});

describe('stored product documents under concurrent writes', () => {
  test('checkouts racing to sell the last unit of different variants of one product leave a fresh document', async () => {
    const count = 8;
    const made = await makeProduct(t.admin, {
      categories: [category],
      variants: Array.from({ length: count }, () => ({ price: '5.00', stock: 1 })),
    });
    const buyers = await Promise.all(made.variants.map((v: any) => shopper(t, [{ variantId: v.public_id, quantity: 1 }])));
    const placed = await Promise.all(buyers.map((b) => checkout(b.client, b.addressId)));
    assert.deepEqual(
      placed.map((r) => r.status),
      Array(count).fill(201),
    );
    assert.deepEqual(await staleDocuments(t.db), []);
    const list = expectStatus(await t.client().get(`${API}/products?category=${category}`), 200);
    const item = list.find((p: any) => p.public_id === made.id);
    assert.deepEqual(
      item.variants.map((v: any) => v.in_stock),
      Array(count).fill(false),
    );
  });

  test('products going on sale while their stock crosses zero and their category is renamed get fresh documents', async () => {
    // A product off sale has no document, only its row: the lock the activation and the other writers
    // meet on, without which the activation would build from what it saw before they committed.
    const count = 6;
    const shared = (await createCategory(t.admin, { name: `Racing ${uniqueSku()}` })).public_id;
    const made = await Promise.all(
      Array.from({ length: count }, () => makeProduct(t.admin, { categories: [shared], variants: [{ price: '5.00', stock: 0 }] })),
    );
    for (let round = 0; round < 4; round++) {
      for (const m of made) expectStatus(await t.admin.patch(`${API}/admin/products/${m.id}`, { status: 'DRAFT' }), 200);
      const quantity = round % 2 === 0 ? 3 : 0;
      const answers = await Promise.all([
        ...made.flatMap((m) => [
          t.admin.patch(`${API}/admin/products/${m.id}`, { status: 'ACTIVE' }),
          t.admin.patch(`${API}/admin/inventory/${m.variants[0].public_id}`, { quantity_on_hand: quantity }),
        ]),
        t.admin.patch(`${API}/admin/categories/${shared}`, { name: `Racing ${uniqueSku()}` }),
      ]);
      assert.deepEqual(
        answers.map((r) => r.status),
        Array(count * 2 + 1).fill(200),
      );
      assert.deepEqual(await staleDocuments(t.db), [], `round ${round}`);
    }
  });

  test('stock adjustments racing on different variants of one product leave a fresh document', async () => {
    const count = 8;
    const made = await makeProduct(t.admin, {
      categories: [category],
      variants: Array.from({ length: count }, () => ({ price: '5.00', stock: 0 })),
    });
    for (let round = 0; round < 3; round++) {
      const quantity = round % 2 === 0 ? 3 : 0;
      const adjusted = await Promise.all(
        made.variants.map((v: any) => t.admin.patch(`${API}/admin/inventory/${v.public_id}`, { quantity_on_hand: quantity })),
      );
      assert.deepEqual(
        adjusted.map((r) => r.status),
        Array(count).fill(200),
      );
      assert.deepEqual(await staleDocuments(t.db), [], `round ${round}`);
    }
  });
});
