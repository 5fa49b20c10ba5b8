import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { INVENTORY, createRecord, createVariant, stockedVariant, uniqueTag } from './helpers/inventory.js';
import { KEYS, ids, inventoryLister, sortFixture } from './helpers/inventory-list.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /admin/inventory: search, stock_status and include_deleted, and every
 * search path against a plain scan. Sorting and paging: inventory-list-sorting.
 */

const { TAG, SKU_TAG, fixture, seed } = sortFixture();
const t = useApp({ as: ['ADMIN'], seed });

const list = inventoryLister(t);

describe('GET /admin/inventory filters', () => {
  test('search matches a case-insensitive substring of the product name', async () => {
    const found = await list(`search=${encodeURIComponent(`${TAG} cHARli`.toUpperCase())}&sort=sku`);
    assert.deepEqual(ids(found), [fixture[0]!.ref.variantPublicId, fixture[4]!.ref.variantPublicId]);
    const middle = await list(`search=${encodeURIComponent(`${TAG.slice(2)} BRAV`.toLowerCase())}`);
    assert.deepEqual(ids(middle), [fixture[3]!.ref.variantPublicId]);
  });

  test('search matches a case-insensitive substring of the SKU', async () => {
    const found = await list(`search=${`${SKU_TAG}-a`.toLowerCase()}&sort=sku`);
    assert.deepEqual(ids(found), [fixture[2]!.ref.variantPublicId, fixture[1]!.ref.variantPublicId]);
    const exact = await list(`search=${SKU_TAG.slice(1)}-C2`);
    assert.deepEqual(ids(exact), [fixture[4]!.ref.variantPublicId]);
  });

  test('search treats % and _ literally', async () => {
    const tag = uniqueTag('pct');
    const percent = await stockedVariant(t.admin, 1, { productName: `${tag} 100% Wool` });
    await stockedVariant(t.admin, 1, { productName: `${tag} 100 Wool` });
    await stockedVariant(t.admin, 1, { productName: `${tag} 1000 Wool` });
    assert.deepEqual(ids(await list(`search=${encodeURIComponent(`${tag} 100%`)}`)), [percent.variantPublicId]);
    assert.deepEqual(ids(await list(`search=${encodeURIComponent(`${tag} 10_`)}`)), []);
    assert.equal((await list(`search=${tag}`)).body.meta.total, 3);
  });

  test('stock_status filters to exactly the records with that status', async () => {
    const tag = uniqueTag('sts');
    const inStock = await stockedVariant(t.admin, 10, { reorderLevel: 2, productName: `${tag} A` });
    const low = await stockedVariant(t.admin, 2, { reorderLevel: 2, productName: `${tag} B` });
    const reservedLow = await stockedVariant(t.admin, 10, { reorderLevel: 5, reserved: 6, productName: `${tag} C` });
    const zero = await stockedVariant(t.admin, 3, { reserved: 3, productName: `${tag} D` });
    const negative = await stockedVariant(t.admin, 3, { reserved: 3, productName: `${tag} E` });
    await t.admin.patch(`${INVENTORY}/${negative.variantPublicId}`, { quantity_on_hand: 1 });
    const expectations: Record<string, string[]> = {
      IN_STOCK: [inStock.variantPublicId],
      LOW_STOCK: [low.variantPublicId, reservedLow.variantPublicId],
      OUT_OF_STOCK: [zero.variantPublicId, negative.variantPublicId],
    };
    for (const [status, expectedIds] of Object.entries(expectations)) {
      const response = await list(`search=${tag}&stock_status=${status}`);
      assert.equal(response.status, 200, response.text);
      assert.deepEqual(ids(response), expectedIds, status);
      assert.equal(response.body.meta.total, expectedIds.length);
      for (const record of response.body.data) assert.equal(record.stock_status, status);
    }
    assert.equal((await list(`search=${tag}`)).body.meta.total, 5);
    for (const status of ['in_stock', 'SOLD_OUT', '']) {
      const response = await list(`stock_status=${status}`);
      assert.equal(response.status, 400, `${status}: ${response.text}`);
    }
  });

  test("include_deleted: records of soft-deleted variants are hidden by default and by 'false', shown by 'true'", async () => {
    const tag = uniqueTag('del');
    const live = await stockedVariant(t.admin, 1, { productName: `${tag} Live` });
    const deletedVariant = await stockedVariant(t.admin, 1, { productName: `${tag} Variant gone` });
    const deletedProduct = await stockedVariant(t.admin, 1, { productName: `${tag} Product gone` });
    assert.equal((await t.admin.delete(`/api/v1/admin/variants/${deletedVariant.variantPublicId}`)).status, 204);
    assert.equal((await t.admin.delete(`/api/v1/admin/products/${deletedProduct.productPublicId}`)).status, 204);

    for (const query of [`search=${tag}`, `search=${tag}&include_deleted=false`]) {
      const response = await list(query);
      assert.deepEqual(ids(response), [live.variantPublicId], query);
      assert.equal(response.body.meta.total, 1);
    }
    const all = await list(`search=${tag}&include_deleted=true`);
    assert.deepEqual(ids(all), [live.variantPublicId, deletedProduct.variantPublicId, deletedVariant.variantPublicId]);
    assert.equal(all.body.meta.total, 3);
    for (const value of ['yes', '1', 'TRUE']) {
      assert.equal((await list(`include_deleted=${value}`)).status, 400, value);
    }
  });
});

describe('GET /admin/inventory search: every path agrees with a plain scan', () => {
  /**
   * The default sort of a search reads the product-name index and adds up
   * per-product counts; other sorts and filters read the matches once. Both
   * must list exactly what a plain scan lists: names that repeat across
   * products, records matched by name and SKU at once, SKU-only matches,
   * renamed products, deleted variants, a variant without a record.
   */
  const tag = uniqueTag('orc');
  const TAGU = tag.toUpperCase();

  before(async () => {
    const kettle = await createVariant(t.admin, { productName: `${tag} Kettle` });
    await createRecord(t.admin, kettle.variantPublicId, 4);
    for (let i = 0; i < 2; i++) {
      const more = await createVariant(t.admin, { productPublicId: kettle.productPublicId, productName: kettle.productName });
      await createRecord(t.admin, more.variantPublicId, i);
    }
    const gone = await createVariant(t.admin, { productPublicId: kettle.productPublicId, productName: kettle.productName });
    await createRecord(t.admin, gone.variantPublicId, 9);
    assert.equal((await t.admin.delete(`/api/v1/admin/variants/${gone.variantPublicId}`)).status, 204);
    await createVariant(t.admin, { productPublicId: kettle.productPublicId, productName: kettle.productName }); // no record
    await stockedVariant(t.admin, 2, { productName: `${tag} Kettle` }); // same name, another product
    const pot = await stockedVariant(t.admin, 3, { productName: 'Plain pot', sku: `${TAGU}-POT` });
    await createRecord(
      t.admin,
      (await createVariant(t.admin, { productPublicId: pot.productPublicId, productName: 'Plain pot' })).variantPublicId,
      1,
    );
    await stockedVariant(t.admin, 6, { productName: `${tag} Lid`, sku: `${TAGU}-LID` });
    const renamed = await stockedVariant(t.admin, 7, { productName: 'Not yet' });
    assert.equal((await t.admin.patch(`/api/v1/admin/products/${renamed.productPublicId}`, { name: `${tag} Renamed` })).status, 200);
  });

  async function plainScan(includeDeleted: boolean, sort: string): Promise<string[]> {
    const rows = await t.db
      .selectFrom('inventory')
      .select(['variant_public_id', 'product_name', 'sku', 'quantity_on_hand', 'quantity_reserved', 'last_stock_update', 'variant_deleted'])
      .where((eb) => eb.or([eb('product_name', 'ilike', `%${tag}%`), eb('sku', 'ilike', `%${tag}%`)]))
      .execute();
    const desc = sort.startsWith('-');
    const field = desc ? sort.slice(1) : sort;
    const key = (r: (typeof rows)[number]): string | number =>
      field === 'quantity_available'
        ? r.quantity_on_hand - r.quantity_reserved
        : field === 'last_stock_update'
          ? new Date(r.last_stock_update).getTime()
          : (r as any)[field];
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    return rows
      .filter((r) => includeDeleted || !r.variant_deleted)
      .sort((a, b) => (desc ? -1 : 1) * (cmp(key(a), key(b)) || cmp(a.variant_public_id, b.variant_public_id)))
      .map((r) => r.variant_public_id);
  }

  for (const includeDeleted of [false, true]) {
    test(`include_deleted=${includeDeleted}: every sort, page by page`, async () => {
      for (const sort of Object.keys(KEYS).flatMap((k) => [k, `-${k}`])) {
        const want = await plainScan(includeDeleted, sort);
        assert.equal(want.length, includeDeleted ? 8 : 7);
        const got: string[] = [];
        for (let page = 1; page <= 4; page++) {
          const response = await list(`search=${tag}&sort=${sort}&include_deleted=${includeDeleted}&limit=3&page=${page}`);
          assert.equal(response.status, 200, response.text);
          assert.equal(response.body.meta.total, want.length, `${sort} page ${page}`);
          got.push(...ids(response));
        }
        assert.deepEqual(got, want, sort);
      }
    });
  }
});
