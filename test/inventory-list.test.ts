import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { INVENTORY, createRecord, createVariant, stockedVariant, uniqueTag, type VariantRef } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

/**
 * The sort fixture: three products, five records, with ties on product name
 * (two variants of one product), on quantity_on_hand (three 5s), on
 * quantity_available (two 2s) and on last_stock_update (set equal in the database).
 */
const TAG = uniqueTag('srt');
const SKU_TAG = TAG.toUpperCase();
const fixture: { ref: VariantRef; onHand: number; reserved: number; updated: string }[] = [];

const t = useApp({
  as: ['ADMIN'],
  async seed(t) {
    const alpha = await createVariant(t.admin, { productName: `${TAG} Alpha`, sku: `${SKU_TAG}-A1` });
    const bravo = await createVariant(t.admin, { productName: `${TAG} Bravo`, sku: `${SKU_TAG}-B1` });
    const charlie = await createVariant(t.admin, { productName: `${TAG} Charlie`, sku: `${SKU_TAG}-C1` });
    const rows: [VariantRef, number, number, string][] = [
      [charlie, 5, 3, '2024-01-01T10:00:00.000Z'],
      [
        await createVariant(t.admin, { productPublicId: alpha.productPublicId, productName: alpha.productName, sku: `${SKU_TAG}-A2` }),
        5,
        0,
        '2024-01-01T09:00:00.000Z',
      ],
      [alpha, 5, 0, '2024-01-01T11:00:00.000Z'],
      [bravo, 3, 1, '2024-01-01T09:00:00.000Z'],
      [
        await createVariant(t.admin, { productPublicId: charlie.productPublicId, productName: charlie.productName, sku: `${SKU_TAG}-C2` }),
        0,
        0,
        '2024-01-01T08:00:00.000Z',
      ],
    ];
    for (const [ref, onHand, reserved, updated] of rows) {
      await stockedVariant(t.admin, onHand, { reserved }); // a record outside the search, which must never show up
      await createRecord(t.admin, ref.variantPublicId, Math.max(onHand, reserved));
      if (reserved) await t.admin.patch(`${INVENTORY}/${ref.variantPublicId}/reservation`, { change: reserved });
      const variant = await t.db.selectFrom('variants').select('id').where('public_id', '=', ref.variantPublicId).executeTakeFirstOrThrow();
      await t.db
        .updateTable('inventory')
        .set({ last_stock_update: new Date(updated) })
        .where('variant_id', '=', variant.id)
        .execute();
      fixture.push({ ref, onHand, reserved, updated });
    }
  },
});

const list = (query: string) => t.admin.get(`${INVENTORY}?${query}`);
const ids = (response: { body: any }) => (response.body.data as { variant_public_id: string }[]).map((r) => r.variant_public_id);

type Key = (f: (typeof fixture)[number]) => string | number;
const KEYS: Record<string, Key> = {
  product_name: (f) => f.ref.productName,
  sku: (f) => f.ref.sku,
  quantity_on_hand: (f) => f.onHand,
  quantity_available: (f) => f.onHand - f.reserved,
  last_stock_update: (f) => Date.parse(f.updated),
};

/** The expected order: the key, then variant_public_id, both in the sort's direction (byte order, as the C collation). */
function expected(sort: string): string[] {
  const desc = sort.startsWith('-');
  const key = KEYS[desc ? sort.slice(1) : sort]!;
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return [...fixture]
    .sort((a, b) => (desc ? -1 : 1) * (cmp(key(a), key(b)) || cmp(a.ref.variantPublicId, b.ref.variantPublicId)))
    .map((f) => f.ref.variantPublicId);
}

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
