import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { KEYS, ids, inventoryLister, sortFixture } from './helpers/inventory-list.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /admin/inventory: every sort's exact order and tie-break on the sort
 * fixture (helpers/inventory-list.ts), and paging. Search and filters:
 * inventory-list-filters.
 */

const { TAG, fixture, seed, expected } = sortFixture();
const t = useApp({ as: ['ADMIN'], seed });

const list = inventoryLister(t);

describe('GET /admin/inventory sorting', () => {
  for (const field of Object.keys(KEYS)) {
    for (const sort of [field, `-${field}`]) {
      test(`sort=${sort}: exact order, ties broken by variant_public_id in the same direction`, async () => {
        const response = await list(`search=${TAG}&sort=${sort}`);
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(ids(response), expected(sort));
      });

      test(`sort=${sort}: paging one by one repeats and skips nothing`, async () => {
        const seen: string[] = [];
        for (let page = 1; page <= fixture.length; page++) {
          const response = await list(`search=${TAG}&sort=${sort}&limit=1&page=${page}`);
          seen.push(...ids(response));
        }
        assert.deepEqual(seen, expected(sort));
      });
    }
  }

  test('the fixture really has ties for the sorts that can tie', () => {
    for (const field of ['product_name', 'quantity_on_hand', 'quantity_available', 'last_stock_update']) {
      const values = fixture.map(KEYS[field]!);
      assert.ok(new Set(values).size < values.length, `${field} has a tie`);
    }
  });

  test('the default sort is product_name ascending', async () => {
    const response = await list(`search=${TAG}`);
    assert.deepEqual(ids(response), expected('product_name'));
  });

  test('an unknown sort value is 400', async () => {
    for (const sort of ['price', '--sku', '+sku', 'SKU', 'product_name,sku', 'variant_public_id', '']) {
      const response = await list(`sort=${encodeURIComponent(sort)}`);
      assert.equal(response.status, 400, `${sort}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /admin/inventory pagination', () => {
  test('meta is exact on every page and past the end', async () => {
    const meta = async (query: string) => (await list(`search=${TAG}&${query}`)).body.meta;
    assert.deepEqual(await meta('limit=2'), { page: 1, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: false });
    assert.deepEqual(await meta('limit=2&page=2'), { page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true });
    assert.deepEqual(await meta('limit=2&page=3'), { page: 3, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    assert.deepEqual(await meta('limit=5'), { page: 1, limit: 5, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual(await meta(''), { page: 1, limit: 20, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    assert.equal((await list(`search=${TAG}&limit=2&page=3`)).body.data.length, 1);
  });

  test('a page past the end is 200 with empty data and accurate meta', async () => {
    const response = await list(`search=${TAG}&limit=2&page=4`);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data, []);
    assert.deepEqual(response.body.meta, { page: 4, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    const far = await list(`search=${TAG}&page=50`);
    assert.deepEqual(far.body.meta, { page: 50, limit: 20, total: 5, totalPages: 1, hasNext: false, hasPrev: true });
  });

  test('no match at all: total 0, totalPages 0', async () => {
    const response = await list(`search=nothing-matches-${TAG}`);
    assert.deepEqual(response.body, {
      success: true,
      data: [],
      meta: { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false },
    });
    const page2 = await list(`search=nothing-matches-${TAG}&page=2`);
    assert.deepEqual(page2.body.meta, { page: 2, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: true });
  });

  test('limit 100 is accepted; limit 101, 0, -1, 1.5, text and page 0 are 400', async () => {
    assert.equal((await list('limit=100')).status, 200);
    for (const query of ['limit=101', 'limit=0', 'limit=-1', 'limit=1.5', 'limit=ten', 'page=0', 'page=-1', 'page=x']) {
      const response = await list(query);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });
});
