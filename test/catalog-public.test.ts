import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, createCategory, expectStatus, idsOf, makeProduct, productImage } from './helpers/catalog.js';
import { errorOf, signUp } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** What the storefront may see: only ACTIVE, live products and their ACTIVE, live variants. */

const TAG = 'visfixture';
const fx: Record<string, any> = {};

const t = useApp({
  as: ['ADMIN'],
  async seed(t) {
    const category = await createCategory(t.admin, { name: 'Visible Things' });
    fx.category = category;
    const image = productImage(t, 'lamp.jpg');
    fx.active = await makeProduct(t.admin, {
      name: 'Brass Lamp',
      slug: 'brass-lamp',
      description: `A lamp ${TAG}`,
      brand: 'Lumen',
      categories: [category.public_id],
      variants: [
        { sku: 'LAMP-SMALL', name: 'Small', price: '40.00', cost_price: '12.34', options: { size: 'S' }, stock: 7 },
        { sku: 'LAMP-HIDDEN', name: 'Hidden', price: '1.00', status: 'INACTIVE', stock: 3 },
        { sku: 'LAMP-GONE', name: 'Gone', price: '2.00', stock: 3 },
        { sku: 'LAMP-LARGE', name: 'Large', price: '55.50', cost_price: '20.00', options: { size: 'L' } },
      ],
    });
    expectStatus(await t.admin.patch(`${API}/admin/products/${fx.active.id}`, { images: [{ url: image, alt_text: 'Lit' }] }), 200);
    expectStatus(await t.admin.delete(`${API}/admin/variants/${fx.active.variants[2].public_id}`), 204);
    fx.image = image;

    fx.draft = await makeProduct(t.admin, { name: 'Draft Lamp', slug: 'draft-lamp', status: 'DRAFT', description: TAG });
    fx.archived = await makeProduct(t.admin, { name: 'Archived Lamp', slug: 'archived-lamp', status: 'ARCHIVED', description: TAG });
    fx.deleted = await makeProduct(t.admin, { name: 'Deleted Lamp', slug: 'deleted-lamp', description: TAG });
    expectStatus(await t.admin.delete(`${API}/admin/products/${fx.deleted.id}`), 204);
    // An ACTIVE product whose only variant is inactive is still public, with no variants and no price.
    fx.noVariants = await makeProduct(t.admin, {
      name: 'Bare Lamp',
      slug: 'bare-lamp',
      description: TAG,
      variants: [{ status: 'INACTIVE', price: '9.00' }],
    });
  },
});

describe('GET /products/{prd}', () => {
  test('an ACTIVE product: exact public shape with only its ACTIVE, live variants', async () => {
    const response = await t.anonymous.get(`${API}/products/${fx.active.id}`);
    const product = expectStatus(response, 200);
    const [small, , , large] = fx.active.variants;
    assert.deepEqual(product, {
      public_id: fx.active.id,
      name: 'Brass Lamp',
      slug: 'brass-lamp',
      description: `A lamp ${TAG}`,
      brand: 'Lumen',
      status: 'ACTIVE',
      categories: [{ public_id: fx.category.public_id, name: 'Visible Things', slug: 'visible-things' }],
      images: [{ url: fx.image, alt_text: 'Lit', position: 0 }],
      variants: [
        {
          public_id: small.public_id,
          sku: 'LAMP-SMALL',
          name: 'Small',
          options: { size: 'S' },
          price: '40.00',
          compare_at_price: null,
          status: 'ACTIVE',
          in_stock: true,
          images: [],
        },
        {
          public_id: large.public_id,
          sku: 'LAMP-LARGE',
          name: 'Large',
          options: { size: 'L' },
          price: '55.50',
          compare_at_price: null,
          status: 'ACTIVE',
          in_stock: false,
          images: [],
        },
      ],
      price_min: '40.00',
      price_max: '55.50',
      rating: { average: 0, count: 0 },
      created_at: product.created_at,
      updated_at: product.updated_at,
    });
  });

  test('cost_price and inventory never appear in public responses', async () => {
    const responses = [
      await t.anonymous.get(`${API}/products/${fx.active.id}`),
      await t.anonymous.get(`${API}/products/by-slug/brass-lamp`),
      await t.anonymous.get(`${API}/products?search=${TAG}`),
      await t.anonymous.get(`${API}/categories/${fx.category.public_id}/products`),
    ];
    for (const response of responses) {
      assert.equal(response.status, 200, response.text);
      assert.match(response.text, /LAMP-SMALL/);
      for (const secret of [
        'cost_price',
        'inventory',
        'quantity_on_hand',
        'quantity_reserved',
        'quantity_available',
        'reorder_level',
        '12.34',
        'LAMP-HIDDEN',
        'LAMP-GONE',
      ]) {
        assert.ok(!response.text.includes(secret), `${secret} leaked: ${response.text}`);
      }
    }
    // The admin view does carry them (so the check above is meaningful).
    const adminView = await t.admin.get(`${API}/admin/products/${fx.active.id}`);
    assert.match(adminView.text, /"cost_price":"12.34"/);
    assert.match(adminView.text, /"quantity_on_hand":7/);
  });

  test('a signed-in customer sees exactly what an anonymous caller sees', async () => {
    const { client } = await signUp(t);
    const mine = await client.get(`${API}/products/${fx.active.id}`);
    const theirs = await t.anonymous.get(`${API}/products/${fx.active.id}`);
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body, theirs.body);
  });

  test('DRAFT, ARCHIVED and deleted products are 404', async () => {
    for (const key of ['draft', 'archived', 'deleted']) {
      const response = await t.anonymous.get(`${API}/products/${fx[key].id}`);
      assert.equal(response.status, 404, `${key}: ${response.text}`);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('malformed IDs and IDs with the wrong prefix are 404, not 400', async () => {
    const body = fx.active.id.slice(4);
    for (const id of ['prd_x', 'prd_', `cat_${body}`, `var_${body}`, body, `prd_${body}!`, `PRD_${body}`, 'prd_00000000000000000000']) {
      const response = await t.anonymous.get(`${API}/products/${encodeURIComponent(id)}`);
      assert.equal(response.status, 404, `${id}: ${response.text}`);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('an ACTIVE product without active variants is public with no variants and no price', async () => {
    const product = expectStatus(await t.anonymous.get(`${API}/products/${fx.noVariants.id}`), 200);
    assert.deepEqual(product.variants, []);
    assert.equal(product.price_min, null);
    assert.equal(product.price_max, null);
  });

  test('visibility follows status changes both ways', async () => {
    const { id } = await makeProduct(t.admin, { name: 'Toggle Lamp', status: 'ACTIVE' });
    assert.equal((await t.anonymous.get(`${API}/products/${id}`)).status, 200);
    expectStatus(await t.admin.patch(`${API}/admin/products/${id}`, { status: 'ARCHIVED' }), 200);
    assert.equal((await t.anonymous.get(`${API}/products/${id}`)).status, 404);
    expectStatus(await t.admin.patch(`${API}/admin/products/${id}`, { status: 'ACTIVE' }), 200);
    assert.equal((await t.anonymous.get(`${API}/products/${id}`)).status, 200);
  });
});

describe('GET /products/by-slug/{slug}', () => {
  test('finds an ACTIVE product by slug, the same as by ID', async () => {
    const bySlug = await t.anonymous.get(`${API}/products/by-slug/brass-lamp`);
    assert.equal(bySlug.status, 200);
    assert.deepEqual(bySlug.body, (await t.anonymous.get(`${API}/products/${fx.active.id}`)).body);
  });

  test('unknown, DRAFT, ARCHIVED and deleted slugs are 404', async () => {
    for (const slug of ['no-such-lamp', 'draft-lamp', 'archived-lamp', 'deleted-lamp', 'Brass-Lamp', fx.active.id]) {
      const response = await t.anonymous.get(`${API}/products/by-slug/${slug}`);
      assert.equal(response.status, 404, `${slug}: ${response.text}`);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });
});

describe('GET /products visibility', () => {
  test('lists only the ACTIVE, live products, each with only active, live variants', async () => {
    const response = await t.anonymous.get(`${API}/products?search=${TAG}`);
    assert.equal(response.status, 200);
    // Default sort -created_at: newest first.
    assert.deepEqual(idsOf(response), [fx.noVariants.id, fx.active.id]);
    assert.deepEqual(response.body.meta, { page: 1, limit: 20, total: 2, totalPages: 1, hasNext: false, hasPrev: false });
    const lamp = response.body.data[1];
    assert.deepEqual(
      lamp.variants.map((v: any) => v.sku),
      ['LAMP-SMALL', 'LAMP-LARGE'],
    );
    assert.deepEqual(lamp, (await t.anonymous.get(`${API}/products/${fx.active.id}`)).body.data);

    const all = idsOf(await t.anonymous.get(`${API}/products?limit=100`));
    for (const key of ['draft', 'archived', 'deleted']) assert.ok(!all.includes(fx[key].id), key);
    assert.ok(all.includes(fx.active.id));
  });

  test('the admin list shows every status and, on request, deleted products', async () => {
    const listed = await t.admin.get(`${API}/admin/products?search=${TAG}&sort=name`);
    assert.deepEqual(idsOf(listed), [fx.archived.id, fx.noVariants.id, fx.active.id, fx.draft.id]);
    const drafts = await t.admin.get(`${API}/admin/products?search=${TAG}&status=DRAFT`);
    assert.deepEqual(idsOf(drafts), [fx.draft.id]);
    const everything = await t.admin.get(`${API}/admin/products?search=${TAG}&sort=name&include_deleted=true`);
    assert.deepEqual(idsOf(everything), [fx.archived.id, fx.noVariants.id, fx.active.id, fx.deleted.id, fx.draft.id]);
    const lamp = everything.body.data[2];
    // Admins see inactive variants too (but not deleted ones of a live product).
    assert.deepEqual(
      lamp.variants.map((v: any) => v.sku),
      ['LAMP-SMALL', 'LAMP-HIDDEN', 'LAMP-LARGE'],
    );
    assert.equal(lamp.variants[0].cost_price, '12.34');
    assert.equal(lamp.variants[0].inventory.quantity_on_hand, 7);
  });

  test('searching by the SKU of an inactive or deleted variant finds nothing publicly', async () => {
    for (const sku of ['LAMP-HIDDEN', 'LAMP-GONE']) {
      const response = await t.anonymous.get(`${API}/products?search=${sku}`);
      assert.deepEqual(response.body.data, [], sku);
      assert.equal(response.body.meta.total, 0);
    }
    assert.deepEqual(idsOf(await t.anonymous.get(`${API}/products?search=lamp-small`)), [fx.active.id]);
  });

  test('a deleted category disappears from product category lists', async () => {
    const doomed = await createCategory(t.admin, { name: 'Short Lived' });
    const { id } = await makeProduct(t.admin, { categories: [doomed.public_id, fx.category.public_id] });
    assert.equal((await t.anonymous.get(`${API}/products/${id}`)).body.data.categories.length, 2);
    expectStatus(await t.admin.delete(`${API}/admin/categories/${doomed.public_id}`), 204);
    assert.deepEqual(
      (await t.anonymous.get(`${API}/products/${id}`)).body.data.categories.map((c: any) => c.public_id),
      [fx.category.public_id],
    );
  });
});
