import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  API,
  ISO,
  createCategory,
  createProduct,
  expectStatus,
  expectValidation,
  makeProduct,
  productImage,
  productRowReader,
  uniqueSku,
} from './helpers/catalog.js';
import { auditRows } from './helpers/inspect.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * Admin catalog writes: creating products (contract section 6), and which
 * image URLs products and variants accept. PATCH: catalog-admin-patch.
 */

const t = useApp({ as: ['ADMIN'] });

const productRow = productRowReader(t);
const productCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /admin/products', () => {
  test('201 with the full admin shape; slug from the name; DRAFT by default; row and audit written', async () => {
    const response = await t.admin.post(`${API}/admin/products`, { name: "Men's Shoes & Boots", description: 'Leather.' });
    const { public_id, created_at, updated_at, ...rest } = expectStatus(response, 201);
    assert.match(public_id, /^prd_[0-9A-Za-z]{16,}$/);
    assert.match(created_at, ISO);
    assert.match(updated_at, ISO);
    assert.deepEqual(rest, {
      name: "Men's Shoes & Boots",
      slug: 'mens-shoes-boots',
      description: 'Leather.',
      brand: null,
      status: 'DRAFT',
      categories: [],
      images: [],
      variants: [],
      price_min: null,
      price_max: null,
      rating: { average: 0, count: 0 },
      deleted_at: null,
    });
    const row = await productRow(public_id);
    assert.equal(row?.slug, 'mens-shoes-boots');
    assert.equal(row?.status, 'DRAFT');

    const [audit, ...more] = await auditRows(t, 'product.create', public_id);
    assert.equal(more.length, 0);
    assert.equal(audit!.entity_type, 'product');
    assert.equal(audit!.actor_public_id, t.admin.user.public_id);
    assert.deepEqual(audit!.changes, {
      before: null,
      after: {
        name: "Men's Shoes & Boots",
        slug: 'mens-shoes-boots',
        description: 'Leather.',
        brand: null,
        status: 'DRAFT',
        images: [],
        category_public_ids: [],
      },
    });
  });

  test('accents are folded in the generated slug; categories and images are stored in order', async () => {
    const category = await createCategory(t.admin, { name: 'Desserts' });
    const front = productImage(t, 'front.jpg');
    const back = productImage(t, 'sub/back.png');
    const product = await createProduct(t.admin, {
      name: 'Crème Brûlée',
      brand: 'Maison',
      status: 'ACTIVE',
      category_public_ids: [category.public_id],
      images: [{ url: front, alt_text: 'Front' }, { url: back }],
    });
    assert.equal(product.slug, 'creme-brulee');
    assert.equal(product.status, 'ACTIVE');
    assert.equal(product.brand, 'Maison');
    assert.deepEqual(product.categories, [{ public_id: category.public_id, name: 'Desserts', slug: 'desserts' }]);
    assert.deepEqual(product.images, [
      { url: front, alt_text: 'Front', position: 0 },
      { url: back, alt_text: null, position: 1 },
    ]);
  });

  test('an explicit slug already taken is 409 SLUG_TAKEN; a generated one gets a suffix', async () => {
    const first = await createProduct(t.admin, { name: 'Canvas Tote' });
    assert.equal(first.slug, 'canvas-tote');

    const clash = await t.admin.post(`${API}/admin/products`, { name: 'Other Tote', slug: 'canvas-tote' });
    assert.equal(clash.status, 409, clash.text);
    assert.equal(errorOf(clash).code, 'SLUG_TAKEN');
    assert.equal((await t.db.selectFrom('products').select('id').where('name', '=', 'Other Tote').execute()).length, 0);

    const second = await createProduct(t.admin, { name: 'Canvas Tote' });
    assert.match(second.slug, /^canvas-tote-[a-z0-9]{6}$/);
    const third = await createProduct(t.admin, { name: 'Canvas Tote' });
    assert.match(third.slug, /^canvas-tote-[a-z0-9]{6}$/);
    assert.notEqual(third.slug, second.slug);
  });

  test("a deleted product's slug can be used again", async () => {
    const old = await createProduct(t.admin, { name: 'Reusable', slug: 'reusable-slug' });
    expectStatus(await t.admin.delete(`${API}/admin/products/${old.public_id}`), 204);
    const again = await createProduct(t.admin, { name: 'Reusable 2', slug: 'reusable-slug' });
    assert.equal(again.slug, 'reusable-slug');
  });

  test('invalid slugs, unknown fields and name bounds are 400 and create nothing', async () => {
    const before = await productCount();
    for (const slug of ['Upper', 'has space', '-lead', 'trail-', 'double--dash', 'ünï', '', 'under_score']) {
      expectValidation(await t.admin.post(`${API}/admin/products`, { name: 'Slugged', slug }), 'slug');
    }
    expectValidation(await t.admin.post(`${API}/admin/products`, { name: 'Typo', colour: 'red' }), 'colour');
    expectValidation(await t.admin.post(`${API}/admin/products`, { name: 'Bad status', status: 'LIVE' }), 'status');
    expectValidation(await t.admin.post(`${API}/admin/products`, {}), 'name');
    expectValidation(await t.admin.post(`${API}/admin/products`, { name: '' }), 'name');
    expectValidation(await t.admin.post(`${API}/admin/products`, { name: '   ' }), 'name');
    expectValidation(await t.admin.post(`${API}/admin/products`, { name: 'x'.repeat(201) }), 'name');
    expectValidation(await t.admin.post(`${API}/admin/products`, { name: 42 }), 'name');
    assert.equal(await productCount(), before);

    const longest = await createProduct(t.admin, { name: 'x'.repeat(200) });
    assert.equal(longest.name, 'x'.repeat(200));
    assert.equal(longest.slug, 'x'.repeat(100));
    const shortest = await createProduct(t.admin, { name: 'Q' });
    assert.equal(shortest.slug, 'q');
  });

  test('an unknown category is 404 and creates nothing', async () => {
    const before = await productCount();
    const response = await t.admin.post(`${API}/admin/products`, { name: 'Orphan', category_public_ids: ['cat_0000000000000000000A'] });
    assert.equal(response.status, 404, response.text);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
    assert.equal(await productCount(), before);
  });
});

describe('image URLs', () => {
  const bad = [
    'https://evil.example/x.jpg',
    'https://evil.example/media/ecommerce/products/x.jpg',
    'http://localhost:3000/media/ecommerce/reviews/x.jpg',
    'http://localhost:3000/media/ecommerce/products/',
    'http://localhost:3000/media/ecommerce/productsx/x.jpg',
    'http://localhost:3001/media/ecommerce/products/x.jpg',
    'http://localhost:3000/media/ecommerce/products/%2e%2e/reviews/x.jpg',
    'http://user:pw@localhost:3000/media/ecommerce/products/x.jpg',
    'not a url',
  ];

  test('product images outside the products media folder are 400 INVALID_IMAGE_URL', async () => {
    assert.equal(productImage(t, 'x.jpg'), 'http://localhost:3000/media/ecommerce/products/x.jpg');
    const before = await productCount();
    for (const url of bad) {
      const response = await t.admin.post(`${API}/admin/products`, {
        name: 'Pictured',
        images: [{ url: productImage(t, 'ok.jpg') }, { url }],
      });
      assert.equal(response.status, 400, `${url}: ${response.text}`);
      const error = errorOf(response);
      assert.equal(error.code, 'INVALID_IMAGE_URL');
      assert.deepEqual(
        error.details?.map((d) => d.field),
        ['images.1.url'],
      );
    }
    assert.equal(await productCount(), before);
  });

  test('the same rule holds for product PATCH and for variants', async () => {
    const { id, variants } = await makeProduct(t.admin, { name: 'Image rules' });
    for (const url of ['https://evil.example/x.jpg', 'http://localhost:3000/media/ecommerce/reviews/x.jpg']) {
      const patch = await t.admin.patch(`${API}/admin/products/${id}`, { images: [{ url }] });
      assert.equal(errorOf(patch).code, 'INVALID_IMAGE_URL');
      const variant = await t.admin.post(`${API}/admin/products/${id}/variants`, {
        sku: uniqueSku(),
        name: 'Pic',
        price: '1.00',
        images: [{ url }],
      });
      assert.equal(errorOf(variant).code, 'INVALID_IMAGE_URL');
      const variantPatch = await t.admin.patch(`${API}/admin/variants/${variants[0].public_id}`, { images: [{ url }] });
      assert.equal(errorOf(variantPatch).code, 'INVALID_IMAGE_URL');
    }
    assert.deepEqual((await productRow(id))?.images, []);
    assert.equal(
      (
        await t.db
          .selectFrom('variants')
          .select('variants.id')
          .innerJoin('products as p', 'p.id', 'variants.product_id')
          .where('p.public_id', '=', id)
          .execute()
      ).length,
      1,
    );
  });
});
