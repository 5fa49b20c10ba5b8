import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { errorOf } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { useApp } from './helpers/use-app.js';

/** POST /admin/products/{prd}/duplicate: a similar product started from an existing one. */

const t = useApp({ as: ['CUSTOMER', 'ADMIN'] });
const duplicate = (id: string) => t.admin.post(`${API}/admin/products/${id}/duplicate`);

test('a DRAFT copy with a new slug and SKUs, the same categories, options, prices and costs, and no stock', async () => {
  const category = (await createCategory(t.admin, { name: `Desks ${uniqueSku()}` })).public_id;
  const sku = uniqueSku('DESK');
  const source = await makeProduct(t.admin, {
    name: 'Walnut Desk',
    description: 'Solid walnut.',
    brand: 'Oakline',
    categories: [category],
    variants: [
      { sku: `${sku}-S`, price: '300.00', cost_price: '120.00', options: { size: 'S' }, stock: 4 },
      { sku: `${sku}-L`, price: '350.00', options: { size: 'L' }, stock: 2 },
    ],
  });
  const copy = expectStatus(await duplicate(source.id), 201);
  assert.notEqual(copy.public_id, source.id);
  assert.equal(copy.name, 'Walnut Desk (copy)');
  assert.equal(copy.status, 'DRAFT');
  assert.deepEqual([copy.price_min, copy.price_max], ['300.00', '350.00']);
  assert.notEqual(copy.slug, source.product.slug);
  assert.deepEqual([copy.description, copy.brand], ['Solid walnut.', 'Oakline']);
  assert.deepEqual(
    copy.categories.map((c: { public_id: string }) => c.public_id),
    [category],
  );
  assert.deepEqual(
    copy.variants.map((v: any) => [v.sku, v.options, v.price, v.cost_price, v.inventory]),
    [
      [`${sku}-S-COPY`, { size: 'S' }, '300.00', '120.00', null],
      [`${sku}-L-COPY`, { size: 'L' }, '350.00', null, null],
    ],
  );
  // A new product like any other: subscribers hear of it, with its variants.
  const reported = await t.db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'product.created')
    .where('ordering_key', '=', copy.public_id)
    .execute();
  assert.deepEqual(
    reported.map((e) => (e.payload as any).product.variants.map((v: any) => v.sku)),
    [[`${sku}-S-COPY`, `${sku}-L-COPY`]],
  );
  // The source is untouched; a second copy takes the next free name, slug and SKUs, numbered alike.
  const again = expectStatus(await duplicate(source.id), 201);
  assert.deepEqual(
    again.variants.map((v: any) => v.sku),
    [`${sku}-S-COPY-2`, `${sku}-L-COPY-2`],
  );
  assert.equal(again.name, 'Walnut Desk (copy 2)');
  assert.equal(again.slug, `${copy.slug.replace(/-copy$/, '')}-copy-2`);
  const sourceNow = expectStatus(await t.admin.get(`${API}/admin/products/${source.id}`), 200);
  assert.equal(sourceNow.variants.length, 2);
  assert.equal(sourceNow.status, 'ACTIVE');
  const [audit] = await auditRows(t, 'product.duplicate', copy.public_id);
  assert.equal((audit!.changes as any).after.copied_from, source.id);
});

test('a deleted or unknown product is 404; customers may not duplicate', async () => {
  const source = await makeProduct(t.admin, {});
  expectStatus(await t.admin.delete(`${API}/admin/products/${source.id}`), 204);
  assert.equal(errorOf(await duplicate(source.id)).code, 'NOT_FOUND');
  assert.equal(errorOf(await duplicate('prd_doesnotexist000000')).code, 'NOT_FOUND');
  assert.equal(errorOf(await t.customer.post(`${API}/admin/products/${source.id}/duplicate`)).code, 'FORBIDDEN');
});
