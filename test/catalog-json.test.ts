import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, createCategory, createVariant, expectStatus, idsOf, makeProduct, productImage, uniqueSku } from './helpers/catalog.js';
import { useApp } from './helpers/use-app.js';

/**
 * Storefront products are written as JSON by PostgreSQL: lists and the
 * detail route send each product's stored document (src/db/DERIVED.md). Two
 * checks, in every corner of the shape
 * (images with and without alt text, a compare-at price, a variant that is
 * not on sale, no brand, no active variant (no price), several categories,
 * timestamps to the millisecond):
 * - each listed product equals the product read on its own;
 * - the product read on its own equals the admin view of it, built by the
 *   service's mappers, cut down to the public fields (SQL == the mappers).
 */

/** The storefront's view of an admin product: its public fields and its ACTIVE variants' public fields. */
function publicView(admin: any) {
  const { deleted_at: _deleted, variants, ...product } = admin;
  const shown = (variants as any[]).filter((v) => v.status === 'ACTIVE' && v.deleted_at === null);
  return {
    ...product,
    variants: shown.map(({ public_id, sku, name, options, price, compare_at_price, status, in_stock, images }) => ({
      public_id,
      sku,
      name,
      options,
      price,
      compare_at_price,
      status,
      in_stock,
      images,
    })),
  };
}

let category: string;
const ids: string[] = [];

const t = useApp({
  as: ['ADMIN'],
  async seed(t) {
    category = (await createCategory(t.admin, { name: `Json ${uniqueSku()}` })).public_id;
    const other = (await createCategory(t.admin, { name: `Also ${uniqueSku()}` })).public_id;

    const full = await makeProduct(t.admin, {
      name: 'Lamp "Aurora" \\ 100%',
      brand: 'Lumen',
      description: 'Line one\nline two, with ünïcödé',
      categories: [category, other],
      variants: [
        { sku: uniqueSku(), price: '40.00', options: { size: 'S', colour: 'red' }, stock: 3 },
        { sku: uniqueSku(), price: '55.50', stock: 0 },
        { sku: uniqueSku(), price: '9.99', status: 'INACTIVE', stock: 9 },
      ],
    });
    expectStatus(
      await t.admin.patch(`${API}/admin/products/${full.id}`, {
        images: [{ url: productImage(t, 'lamp.jpg'), alt_text: 'Lit' }, { url: productImage(t, 'lamp-2.jpg') }],
      }),
      200,
    );
    expectStatus(
      await t.admin.patch(`${API}/admin/variants/${full.variants[0].public_id}`, {
        compare_at_price: '49.99',
        images: [{ url: productImage(t, 'lamp-s.jpg'), alt_text: null }],
      }),
      200,
    );
    ids.push(full.id);

    // No active variant: no price range, no variants shown.
    const unpriced = await makeProduct(t.admin, { categories: [category], variants: [{ status: 'INACTIVE' }] });
    ids.push(unpriced.id);
    // A variant without any inventory record.
    const bare = await makeProduct(t.admin, { categories: [category], variants: [] });
    await createVariant(t.admin, bare.id, { sku: uniqueSku(), name: 'Only', price: '1.00' });
    ids.push(bare.id);
  },
});

describe('storefront list written by PostgreSQL', () => {
  test('each listed product equals the product read on its own', async () => {
    for (const sort of ['', '&sort=price', '&sort=-name']) {
      const list = await t.client().get(`${API}/products?category=${category}${sort}`);
      assert.equal(list.status, 200, list.text);
      assert.match(String(list.headers.get('content-type')), /^application\/json/);
      assert.deepEqual([...idsOf(list)].sort(), [...ids].sort(), sort);
      for (const item of list.body.data) {
        const one = await t.client().get(`${API}/products/${item.public_id}`);
        assert.equal(one.status, 200, one.text);
        assert.deepEqual(item, one.body.data, `${item.public_id}${sort}`);
      }
      assert.deepEqual(list.body.meta, { page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false, hasPrev: false });
      assert.equal(list.body.success, true);
    }
  });

  test('each product equals the admin view of it, cut down to the public fields', async () => {
    for (const id of ids) {
      const one = await t.client().get(`${API}/products/${id}`);
      assert.equal(one.status, 200, one.text);
      assert.match(String(one.headers.get('content-type')), /^application\/json/);
      const adminView = expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200);
      assert.deepEqual(one.body.data, publicView(adminView), id);
      assert.deepEqual(Object.keys(one.body), ['success', 'data']);
    }
  });

  test('the shape holds its corners', async () => {
    const list = await t.client().get(`${API}/products?category=${category}&sort=-name`);
    const full = list.body.data.find((p: any) => p.public_id === ids[0]);
    assert.equal(full.name, 'Lamp "Aurora" \\ 100%');
    assert.deepEqual(
      full.images.map((i: any) => i.alt_text),
      ['Lit', null],
    );
    assert.deepEqual(
      full.variants.map((v: any) => [v.price, v.compare_at_price, v.in_stock]),
      [
        ['40.00', '49.99', true],
        ['55.50', null, false],
      ],
    );
    assert.equal(full.price_min, '40.00');
    assert.equal(full.price_max, '55.50');
    assert.deepEqual(full.rating, { average: 0, count: 0 });
    assert.equal(full.categories.length, 2);
    const unpriced = list.body.data.find((p: any) => p.public_id === ids[1]);
    assert.deepEqual([unpriced.price_min, unpriced.price_max, unpriced.variants, unpriced.brand], [null, null, [], null]);
  });

  test('an empty page and a page past the end are well-formed', async () => {
    const unknown = await t.client().get(`${API}/products?category=cat_${'0'.repeat(20)}`);
    assert.equal(unknown.status, 200, unknown.text);
    assert.deepEqual(unknown.body, {
      success: true,
      data: [],
      meta: { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false },
    });
    const past = await t.client().get(`${API}/products?category=${category}&page=5&limit=2`);
    assert.equal(past.status, 200, past.text);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total, 3);
    assert.equal(past.body.meta.hasPrev, true);
  });
});
