import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { sql } from 'kysely';
import { Product } from '../src/catalog/schemas.js';
import { API, createCategory, expectStatus, makeProduct, uniqueSku } from './helpers/catalog.js';
import { checkout, shopper } from './helpers/commerce.js';
import { useApp } from './helpers/use-app.js';

/**
 * One Product shape (issue 14, part 4). The TypeBox `Product` schema is the
 * single declaration; PostgreSQL writes the stored documents the storefront
 * sends past the serializer, so here every stored document must validate
 * against the schema with no property it does not list (and none missing),
 * and a client must get the very same bytes for a product from a list and
 * from its detail route, spaced one way throughout.
 */
let productIds: string[];

/** The schema as an allowlist: every object closed, so an extra field is an error. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  if (out.type === 'object' && out.properties) out.additionalProperties = false;
  return out;
}
const validate = addFormats
  .default(new Ajv({ allErrors: true, strict: false }))
  .compile(closed(JSON.parse(JSON.stringify(Product))) as object);

const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' },
  as: ['ADMIN'],
  async seed(t) {
    const category = (await createCategory(t.admin, { name: `Shape ${uniqueSku()}` })).public_id;
    // Every optional part of a product, present and absent: brand, categories, options, compare-at prices,
    // variants in and out of stock, inactive and deleted variants, no variants at all, a rating.
    const full = await makeProduct(t.admin, {
      brand: 'Lumen',
      categories: [category],
      variants: [
        { price: '20.00', stock: 1, options: { size: 'M', colour: 'Blue "navy"' } },
        { price: '30.00', stock: 0 },
        { price: '40.00', status: 'INACTIVE', stock: 3 },
        { price: '50.00' },
      ],
    });
    expectStatus(await t.admin.patch(`${API}/admin/variants/${full.variants[0].public_id}`, { compare_at_price: '25.00' }), 200);
    expectStatus(await t.admin.delete(`${API}/admin/variants/${full.variants[3].public_id}`), 204);
    const bare = await makeProduct(t.admin, { description: 'Line one\nline "two" \\ 😀', variants: [] });
    const s = await shopper(t, [{ variantId: full.variants[0].public_id, quantity: 1 }]);
    expectStatus(await checkout(s.client, s.addressId), 201);
    const review = expectStatus(
      await s.client.post(`${API}/reviews`, { product_public_id: full.id, rating: 5, title: 'Great', comment: 'Yes.' }),
      201,
    );
    expectStatus(await t.admin.patch(`${API}/admin/reviews/${review.public_id}`, { status: 'APPROVED' }), 200);
    productIds = [full.id, bare.id];
  },
});

/** `text` with every string literal emptied, so only the JSON structure is left to look at. */
const structure = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

describe('the stored Product documents', () => {
  test('every stored document validates against the Product schema with nothing it does not list', async () => {
    const rows = (
      await sql<{ public_id: string; document: string }>`
      SELECT p.public_id, d.document::text AS document FROM product_documents d JOIN products p ON p.id = d.product_id`.execute(t.db)
    ).rows;
    assert.ok(rows.length >= 2);
    for (const row of rows) {
      const valid = validate(JSON.parse(row.document));
      assert.ok(valid, `${row.public_id}: ${JSON.stringify(validate.errors)}`);
    }
    // The closed schema really refuses an unlisted field, at the top and inside a variant.
    const sample = JSON.parse(rows[0]!.document);
    assert.equal(validate({ ...sample, cost_price: '1.00' }), false);
    assert.equal(validate({ ...sample, variants: [{ ...sample.variants[0], quantity_on_hand: 3 }] }), false);
  });

  test('a product is the same bytes in a list and on its detail route, by ID and by slug', async () => {
    const list = await fetch(`${t.baseUrl}${API}/products?limit=100&sort=name`).then((r) => r.text());
    for (const id of productIds) {
      const detail = await fetch(`${t.baseUrl}${API}/products/${id}`).then((r) => r.text());
      const prefix = '{"success": true, "data": ';
      assert.ok(detail.startsWith(prefix) && detail.endsWith('}'), detail.slice(0, 80));
      const document = detail.slice(prefix.length, -1);
      assert.ok(list.includes(document), `the list holds ${id} byte for byte`);
      const slug = JSON.parse(document).slug;
      assert.equal(await fetch(`${t.baseUrl}${API}/products/by-slug/${slug}`).then((r) => r.text()), detail);
      assert.deepEqual(JSON.parse(detail).data, JSON.parse(document));
    }
  });

  test('storefront bodies are spaced one way: a space after every colon and comma, none before', async () => {
    for (const path of [`${API}/products?limit=100`, `${API}/products/${productIds[0]}`, `${API}/products?search=Lumen`]) {
      const body = structure(await fetch(`${t.baseUrl}${path}`).then((r) => r.text()));
      assert.doesNotMatch(body, /\s[:,]/, path);
      assert.doesNotMatch(body, /[:,](?! )/, path);
    }
  });
});
