import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, createCategory, createProduct, expectStatus, expectValidation, makeProduct, productRowReader } from './helpers/catalog.js';
import { auditRows } from './helpers/inspect.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * Admin catalog writes: PATCH of products and variants (contract section 6).
 * Creating products, and image URL rules: catalog-admin-create.
 */

const t = useApp({ as: ['ADMIN'] });

const productRow = productRowReader(t);

describe('PATCH', () => {
  test('a product PATCH changes only the fields sent and is audited with before and after', async () => {
    const category = await createCategory(t.admin, { name: 'Patch Cat' });
    const created = await createProduct(t.admin, { name: 'Before Name', description: 'Keep me', brand: 'B1' });
    const response = await t.admin.patch(`${API}/admin/products/${created.public_id}`, {
      name: 'After Name',
      status: 'ACTIVE',
      category_public_ids: [category.public_id],
    });
    const patched = expectStatus(response, 200);
    assert.equal(patched.name, 'After Name');
    assert.equal(patched.slug, 'before-name');
    assert.equal(patched.description, 'Keep me');
    assert.equal(patched.brand, 'B1');
    assert.equal(patched.status, 'ACTIVE');
    assert.deepEqual(
      patched.categories.map((c: any) => c.public_id),
      [category.public_id],
    );
    assert.equal(patched.created_at, created.created_at);
    assert.ok(patched.updated_at > created.updated_at);

    const cleared = expectStatus(
      await t.admin.patch(`${API}/admin/products/${created.public_id}`, { brand: null, category_public_ids: [], slug: 'renamed' }),
      200,
    );
    assert.equal(cleared.brand, null);
    assert.equal(cleared.slug, 'renamed');
    assert.equal(cleared.name, 'After Name');
    assert.deepEqual(cleared.categories, []);

    const [update] = await auditRows(t, 'product.update', created.public_id);
    assert.deepEqual((update!.changes as any).before.name, 'Before Name');
    assert.deepEqual((update!.changes as any).after.name, 'After Name');
    assert.deepEqual((update!.changes as any).after.category_public_ids, [category.public_id]);
  });

  test('product PATCH: {} and unknown fields are 400, a taken slug 409, malformed or unknown id 404', async () => {
    const a = await createProduct(t.admin, { name: 'Patch A', slug: 'patch-a' });
    await createProduct(t.admin, { name: 'Patch B', slug: 'patch-b' });
    expectValidation(await t.admin.patch(`${API}/admin/products/${a.public_id}`, {}));
    expectValidation(await t.admin.patch(`${API}/admin/products/${a.public_id}`, { nme: 'typo' }), 'nme');
    expectValidation(await t.admin.patch(`${API}/admin/products/${a.public_id}`, { slug: 'Bad Slug' }), 'slug');
    assert.equal(errorOf(await t.admin.patch(`${API}/admin/products/${a.public_id}`, { slug: 'patch-b' })).code, 'SLUG_TAKEN');
    expectStatus(await t.admin.patch(`${API}/admin/products/${a.public_id}`, { slug: 'patch-a' }), 200);
    for (const id of ['prd_00000000000000000000', 'prd_x', 'var_00000000000000000000']) {
      assert.equal((await t.admin.patch(`${API}/admin/products/${id}`, { name: 'x' })).status, 404);
    }
    const row = await productRow(a.public_id);
    assert.equal(row?.name, 'Patch A');
    assert.equal(row?.slug, 'patch-a');
  });

  test('a variant PATCH changes only the fields sent and refreshes the price range', async () => {
    const { id, variants } = await makeProduct(t.admin, {
      variants: [
        { price: '10.00', cost_price: '4.00', options: { size: 'S' } },
        { price: '20.00', options: { size: 'L' } },
      ],
    });
    const [small, large] = variants;
    const patched = expectStatus(await t.admin.patch(`${API}/admin/variants/${small.public_id}`, { price: '30.00' }), 200);
    assert.equal(patched.price, '30.00');
    assert.equal(patched.cost_price, '4.00');
    assert.equal(patched.sku, small.sku);
    assert.equal(patched.name, small.name);
    assert.deepEqual(patched.options, { size: 'S' });
    let product = expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200);
    assert.deepEqual([product.price_min, product.price_max], ['20.00', '30.00']);

    expectStatus(await t.admin.patch(`${API}/admin/variants/${large.public_id}`, { status: 'INACTIVE', options: { size: 'XL' } }), 200);
    product = expectStatus(await t.admin.get(`${API}/admin/products/${id}`), 200);
    assert.deepEqual([product.price_min, product.price_max], ['30.00', '30.00']);
    const row = await t.db
      .selectFrom('variants')
      .select(['status', 'options', 'price'])
      .where('public_id', '=', large.public_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'INACTIVE', options: { size: 'XL' }, price: '20.00' });

    expectValidation(await t.admin.patch(`${API}/admin/variants/${small.public_id}`, {}));
    expectValidation(await t.admin.patch(`${API}/admin/variants/${small.public_id}`, { price: 5 }), 'price');
    expectValidation(await t.admin.patch(`${API}/admin/variants/${small.public_id}`, { prize: '5.00' }), 'prize');
    assert.equal((await t.admin.patch(`${API}/admin/variants/var_x`, { price: '5.00' })).status, 404);

    const [audit] = await auditRows(t, 'variant.update', small.public_id);
    assert.equal((audit!.changes as any).before.price, '10.00');
    assert.equal((audit!.changes as any).after.price, '30.00');
  });
});
