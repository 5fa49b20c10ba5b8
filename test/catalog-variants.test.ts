import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  API,
  ISO,
  createCategory,
  createProduct,
  createVariant,
  expectStatus,
  expectValidation,
  makeProduct,
  productImage,
  uniqueSku,
} from './helpers/catalog.js';
import { auditRows } from './helpers/inspect.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Admin catalog writes: variants, soft deletes and category links (contract section 6). */

const t = useApp({ as: ['ADMIN'] });

const productRow = (publicId: string) => t.db.selectFrom('products').selectAll().where('public_id', '=', publicId).executeTakeFirst();

describe('POST /admin/products/{prd}/variants', () => {
  let productId: string;
  before(async () => {
    productId = (await createProduct(t.admin, { name: 'Tee', status: 'ACTIVE' })).public_id;
  });

  test('201 with the admin variant shape; money comes back with two places; the price range follows', async () => {
    const image = productImage(t, 'tee-red.jpg');
    const sku = uniqueSku('TEE-RED');
    const response = await t.admin.post(`${API}/admin/products/${productId}/variants`, {
      sku,
      name: 'Red / M',
      options: { colour: 'Red', size: 'M' },
      price: '19.9',
      compare_at_price: '24',
      cost_price: '7.5',
      images: [{ url: image, alt_text: 'Red tee' }],
    });
    const { public_id, created_at, updated_at, ...rest } = expectStatus(response, 201);
    assert.match(public_id, /^var_[0-9A-Za-z]{16,}$/);
    assert.match(created_at, ISO);
    assert.match(updated_at, ISO);
    assert.deepEqual(rest, {
      sku,
      name: 'Red / M',
      options: { colour: 'Red', size: 'M' },
      price: '19.90',
      compare_at_price: '24.00',
      status: 'ACTIVE',
      in_stock: false,
      images: [{ url: image, alt_text: 'Red tee', position: 0 }],
      product_public_id: productId,
      cost_price: '7.50',
      position: 0,
      inventory: null,
      deleted_at: null,
    });

    await createVariant(t.admin, productId, { sku: uniqueSku(), name: 'Cheap', price: '5' });
    await createVariant(t.admin, productId, { sku: uniqueSku(), name: 'Hidden', price: '1.00', status: 'INACTIVE' });
    const product = expectStatus(await t.admin.get(`${API}/admin/products/${productId}`), 200);
    assert.equal(product.price_min, '5.00');
    assert.equal(product.price_max, '19.90');
    assert.deepEqual(
      product.variants.map((v: any) => v.name),
      ['Red / M', 'Cheap', 'Hidden'],
    );

    const [audit] = await auditRows(t, 'variant.create', public_id);
    assert.deepEqual(audit!.changes, {
      before: null,
      after: {
        sku,
        name: 'Red / M',
        options: { colour: 'Red', size: 'M' },
        price: '19.90',
        compare_at_price: '24.00',
        cost_price: '7.50',
        status: 'ACTIVE',
        position: 0,
      },
    });
  });

  test('options default to {}; admin view carries the inventory record once there is one', async () => {
    const variant = await createVariant(t.admin, productId, { sku: uniqueSku(), name: 'Plain', price: '3.00' });
    assert.deepEqual(variant.options, {});
    expectStatus(await t.admin.post(`${API}/admin/inventory`, { variant_public_id: variant.public_id, quantity_on_hand: 4 }), 201);
    const product = expectStatus(await t.admin.get(`${API}/admin/products/${productId}`), 200);
    const seen = product.variants.find((v: any) => v.public_id === variant.public_id);
    assert.equal(seen.in_stock, true);
    assert.equal(seen.inventory.quantity_on_hand, 4);
    assert.equal(seen.inventory.quantity_available, 4);
    assert.equal(seen.inventory.stock_status, 'IN_STOCK');
    assert.equal(seen.inventory.variant_public_id, variant.public_id);
  });

  test('a duplicate SKU is 409 SKU_TAKEN, case-insensitively, even against a deleted variant', async () => {
    const sku = uniqueSku('DUP');
    const original = await createVariant(t.admin, productId, { sku, name: 'One', price: '1.00' });
    const other = await createProduct(t.admin, { name: 'Other for SKU' });
    for (const candidate of [sku, sku.toLowerCase()]) {
      const response = await t.admin.post(`${API}/admin/products/${other.public_id}/variants`, {
        sku: candidate,
        name: 'Two',
        price: '1.00',
      });
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'SKU_TAKEN');
    }
    const rename = await createVariant(t.admin, other.public_id, { sku: uniqueSku(), name: 'Three', price: '1.00' });
    const patched = await t.admin.patch(`${API}/admin/variants/${rename.public_id}`, { sku: sku.toLowerCase() });
    assert.equal(errorOf(patched).code, 'SKU_TAKEN');

    expectStatus(await t.admin.delete(`${API}/admin/variants/${original.public_id}`), 204);
    const afterDelete = await t.admin.post(`${API}/admin/products/${other.public_id}/variants`, { sku, name: 'Four', price: '1.00' });
    assert.equal(errorOf(afterDelete).code, 'SKU_TAKEN');
    const rows = await t.db
      .selectFrom('variants')
      .select('sku')
      .where((eb) => eb(eb.fn('lower', ['sku']), '=', sku.toLowerCase()))
      .execute();
    assert.deepEqual(rows, [{ sku }]);
  });

  test('price must be a decimal string with at most two places; bad bodies are 400', async () => {
    const post = (body: Record<string, unknown>) =>
      t.admin.post(`${API}/admin/products/${productId}/variants`, { sku: uniqueSku(), name: 'P', ...body });
    for (const price of ['12.345', 12.5, 12, '-1.00', '', '1e3', '12.', 'abc', '12,50', null]) {
      expectValidation(await post({ price }), 'price');
    }
    expectValidation(await post({ price: '1.00', compare_at_price: '1.001' }), 'compare_at_price');
    expectValidation(await post({ price: '1.00', cost_price: 3 }), 'cost_price');
    expectValidation(await post({}), 'price');
    expectValidation(await post({ price: '1.00', options: { size: 1 } }), 'options.size');
    expectValidation(await post({ price: '1.00', options: ['M'] }), 'options');
    expectValidation(await post({ price: '1.00', weight: 3 }), 'weight');
    expectValidation(await post({ price: '1.00', sku: '' }), 'sku');
    expectValidation(await post({ price: '1.00', sku: 'X'.repeat(81) }), 'sku');
    expectValidation(await post({ price: '1.00', status: 'DRAFT' }), 'status');

    assert.equal((await createVariant(t.admin, productId, { sku: uniqueSku(), name: 'Ok', price: '12.5' })).price, '12.50');
    assert.equal((await createVariant(t.admin, productId, { sku: 'S'.repeat(80), name: 'Long SKU', price: '0' })).price, '0.00');
  });

  test('unknown, malformed or deleted product is 404', async () => {
    const gone = await createProduct(t.admin, { name: 'Gone' });
    expectStatus(await t.admin.delete(`${API}/admin/products/${gone.public_id}`), 204);
    for (const id of ['prd_00000000000000000000', 'prd_x', 'cat_00000000000000000000', gone.public_id]) {
      const response = await t.admin.post(`${API}/admin/products/${id}/variants`, { sku: uniqueSku(), name: 'V', price: '1.00' });
      assert.equal(response.status, 404, `${id}: ${response.text}`);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });
});

describe('soft deletes', () => {
  test('deleting a product is 204, keeps the row, and soft-deletes its variants', async () => {
    const { id, variants } = await makeProduct(t.admin, { variants: [{}, {}] });
    const response = await t.admin.delete(`${API}/admin/products/${id}`);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');

    const row = await productRow(id);
    assert.ok(row?.deleted_at instanceof Date);
    const variantRows = await t.db.selectFrom('variants').select(['public_id', 'deleted_at']).where('product_id', '=', row.id).execute();
    assert.equal(variantRows.length, 2);
    assert.ok(variantRows.every((v) => v.deleted_at instanceof Date));

    const adminView = expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200);
    assert.match(adminView.deleted_at, ISO);
    assert.deepEqual(
      adminView.variants.map((v: any) => v.public_id),
      variants.map((v) => v.public_id),
    );
    assert.ok(adminView.variants.every((v: any) => typeof v.deleted_at === 'string'));

    assert.equal((await t.admin.delete(`${API}/admin/products/${id}`)).status, 404);
    assert.equal((await t.admin.patch(`${API}/admin/products/${id}`, { name: 'zombie' })).status, 404);
    assert.equal((await t.admin.patch(`${API}/admin/variants/${variants[0].public_id}`, { price: '1.00' })).status, 404);

    const listed = expectStatus(await t.admin.get(`${API}/admin/products?limit=100`), 200);
    assert.ok(!listed.some((p: any) => p.public_id === id));
    const withDeleted = expectStatus(await t.admin.get(`${API}/admin/products?limit=100&include_deleted=true`), 200);
    assert.ok(withDeleted.some((p: any) => p.public_id === id));

    const [audit] = await auditRows(t, 'product.delete', id);
    assert.equal((audit!.changes as any).after, null);
    assert.equal((audit!.changes as any).before.name, row.name);
  });

  test('deleting a variant is 204, keeps the row and drops it from the price range', async () => {
    const { id, variants } = await makeProduct(t.admin, { variants: [{ price: '5.00' }, { price: '50.00' }] });
    assert.equal((await t.admin.delete(`${API}/admin/variants/${variants[1].public_id}`)).status, 204);
    const row = await t.db
      .selectFrom('variants')
      .select('deleted_at')
      .where('public_id', '=', variants[1].public_id)
      .executeTakeFirstOrThrow();
    assert.ok(row.deleted_at instanceof Date);
    const product = expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200);
    assert.deepEqual([product.price_min, product.price_max], ['5.00', '5.00']);
    assert.deepEqual(
      product.variants.map((v: any) => v.public_id),
      [variants[0].public_id],
    );
    assert.equal((await t.admin.delete(`${API}/admin/variants/${variants[1].public_id}`)).status, 404);
    assert.equal((await auditRows(t, 'variant.delete', variants[1].public_id)).length, 1);
  });
});

describe('PUT/DELETE /admin/categories/{cat}/products/{prd}', () => {
  test('linking and unlinking are idempotent: twice is still 204', async () => {
    const category = await createCategory(t.admin, { name: 'Linkable' });
    const { id } = await makeProduct(t.admin);
    const path = `${API}/admin/categories/${category.public_id}/products/${id}`;
    const links = () =>
      t.db
        .selectFrom('product_categories as pc')
        .innerJoin('products as p', 'p.id', 'pc.product_id')
        .innerJoin('categories as c', 'c.id', 'pc.category_id')
        .select(['p.public_id as product', 'c.public_id as category'])
        .where('p.public_id', '=', id)
        .execute();

    for (let i = 0; i < 2; i++) {
      const response = await t.admin.put(path);
      assert.equal(response.status, 204, response.text);
      assert.deepEqual(await links(), [{ product: id, category: category.public_id }]);
    }
    const product = expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200);
    assert.deepEqual(product.categories, [{ public_id: category.public_id, name: 'Linkable', slug: 'linkable' }]);
    assert.ok((await auditRows(t, 'category.link_product', category.public_id)).length >= 1);

    for (let i = 0; i < 2; i++) {
      assert.equal((await t.admin.delete(path)).status, 204);
      assert.deepEqual(await links(), []);
    }
    assert.ok((await auditRows(t, 'category.unlink_product', category.public_id)).length >= 1);

    for (const bad of [
      `${API}/admin/categories/cat_00000000000000000000/products/${id}`,
      `${API}/admin/categories/${category.public_id}/products/prd_00000000000000000000`,
      `${API}/admin/categories/cat_x/products/${id}`,
      `${API}/admin/categories/${category.public_id}/products/var_00000000000000000000`,
    ]) {
      assert.equal((await t.admin.put(bad)).status, 404, bad);
      assert.equal((await t.admin.delete(bad)).status, 404, bad);
    }
  });
});
