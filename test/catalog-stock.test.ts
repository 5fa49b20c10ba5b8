import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, expectStatus, makeProduct } from './helpers/catalog.js';
import { checkout, shopper } from './helpers/commerce.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /products/{prd}/stock: what a shopper may know of stock, live. Every ACTIVE variant's status;
 * the count only when it is low (at or below the reorder level), for "only 3 left"; never the count
 * of a well-stocked variant, which stays admin-only.
 */
const t = useApp({ as: ['ADMIN'] });

describe('GET /products/{prd}/stock', () => {
  test('each ACTIVE variant in order: IN_STOCK, LOW_STOCK with how many are left, OUT_OF_STOCK; live as orders reserve', async () => {
    const product = await makeProduct(t.admin, {
      variants: [{ stock: 50 }, { stock: 3 }, { stock: 0 }, {}, { stock: 9, status: 'INACTIVE' }],
    });
    const [plenty, few, none, untracked] = product.variants;
    for (const variant of [plenty, few]) {
      expectStatus(await t.admin.patch(`${API}/admin/inventory/${variant.public_id}`, { reorder_level: 5 }), 200);
    }
    const stock = async () => expectStatus(await t.anonymous.get(`${API}/products/${product.id}/stock`), 200);
    assert.deepEqual(await stock(), [
      { variant_public_id: plenty.public_id, stock_status: 'IN_STOCK', quantity_left: null },
      { variant_public_id: few.public_id, stock_status: 'LOW_STOCK', quantity_left: 3 },
      { variant_public_id: none.public_id, stock_status: 'OUT_OF_STOCK', quantity_left: null },
      { variant_public_id: untracked.public_id, stock_status: 'OUT_OF_STOCK', quantity_left: null },
    ]);

    // An order reserves two of the three: one is left, at once.
    const buyer = await shopper(t, [{ variantId: few.public_id, quantity: 2 }]);
    expectStatus(await checkout(buyer.client, buyer.addressId), 201);
    assert.deepEqual((await stock())[1], { variant_public_id: few.public_id, stock_status: 'LOW_STOCK', quantity_left: 1 });
    // 46 of 50 left is still plenty: no count.
    const other = await shopper(t, [{ variantId: plenty.public_id, quantity: 4 }]);
    expectStatus(await checkout(other.client, other.addressId), 201);
    assert.deepEqual((await stock())[0], { variant_public_id: plenty.public_id, stock_status: 'IN_STOCK', quantity_left: null });
  });

  test('a public product whose variants are all inactive has no stock to show, and is found', async () => {
    const hollow = await makeProduct(t.admin, { variants: [{ stock: 4, status: 'INACTIVE' }] });
    assert.deepEqual(expectStatus(await t.anonymous.get(`${API}/products/${hollow.id}/stock`), 200), []);
  });

  test('a product that is not public is not found; so is a malformed ID', async () => {
    const draft = await makeProduct(t.admin, { status: 'DRAFT', variants: [{ stock: 5 }] });
    for (const id of [draft.id, 'prd_doesNotExist123456', 'var_wrongPrefix1234567', 'nonsense']) {
      const response = await t.anonymous.get(`${API}/products/${id}/stock`);
      assert.equal(response.status, 404, id);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });
});
