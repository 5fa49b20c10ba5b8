import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RunningApp } from './app.js';
import type { Client, Response } from './client.js';

/** Catalog test data, made through the admin HTTP API so it passes the same rules as real data. */

export const API = '/api/v1';

const unique = () => randomBytes(4).toString('hex');

/** A SKU no other test uses. */
export const uniqueSku = (label = 'SKU') => `${label}-${unique()}`.toUpperCase();

/** An image URL the service accepts for products (contract section 5). */
export const productImage = (t: RunningApp, file: string) => `${t.config.publicBaseUrl}/media/ecommerce/products/${file}`;

/** A product's row by public ID (undefined when none), bound to a file's app: `const productRow = productRowReader(t)`. */
export const productRowReader = (t: Pick<RunningApp, 'db'>) => (publicId: string) =>
  t.db.selectFrom('products').selectAll().where('public_id', '=', publicId).executeTakeFirst();

/** Asserts a status, showing the body when it differs; returns `data`. */
export function expectStatus(response: Response, status: number) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  return response.body?.data;
}

export async function createCategory(admin: Client, body: Record<string, unknown>) {
  return expectStatus(await admin.post(`${API}/admin/categories`, body), 201);
}

export async function createProduct(admin: Client, body: Record<string, unknown>) {
  return expectStatus(await admin.post(`${API}/admin/products`, body), 201);
}

export async function createVariant(admin: Client, productPublicId: string, body: Record<string, unknown>) {
  return expectStatus(await admin.post(`${API}/admin/products/${productPublicId}/variants`, body), 201);
}

export async function createInventory(admin: Client, variantPublicId: string, quantityOnHand: number) {
  return expectStatus(
    await admin.post(`${API}/admin/inventory`, { variant_public_id: variantPublicId, quantity_on_hand: quantityOnHand }),
    201,
  );
}

export interface VariantSpec {
  sku?: string;
  name?: string;
  price?: string;
  status?: 'ACTIVE' | 'INACTIVE';
  cost_price?: string;
  options?: Record<string, string>;
  /** Creates an inventory record with this on-hand quantity. */
  stock?: number;
}

export interface ProductSpec {
  name?: string;
  slug?: string;
  description?: string;
  brand?: string;
  status?: 'DRAFT' | 'ACTIVE' | 'ARCHIVED';
  categories?: string[];
  variants?: VariantSpec[];
}

/**
 * A product (ACTIVE unless told otherwise) with its variants and their
 * inventory. Returns the admin view read back after every write, and the
 * created variants in order.
 */
export async function makeProduct(admin: Client, spec: ProductSpec = {}) {
  const body: Record<string, unknown> = { name: spec.name ?? `Product ${unique()}`, status: spec.status ?? 'ACTIVE' };
  if (spec.slug !== undefined) body.slug = spec.slug;
  if (spec.description !== undefined) body.description = spec.description;
  if (spec.brand !== undefined) body.brand = spec.brand;
  if (spec.categories !== undefined) body.category_public_ids = spec.categories;
  const created = await createProduct(admin, body);
  const variants: any[] = [];
  for (const [index, v] of (spec.variants ?? [{}]).entries()) {
    const variantBody: Record<string, unknown> = {
      sku: v.sku ?? uniqueSku(),
      name: v.name ?? `Variant ${index + 1}`,
      price: v.price ?? '10.00',
      position: index,
    };
    if (v.status !== undefined) variantBody.status = v.status;
    if (v.cost_price !== undefined) variantBody.cost_price = v.cost_price;
    if (v.options !== undefined) variantBody.options = v.options;
    const variant = await createVariant(admin, created.public_id, variantBody);
    if (v.stock !== undefined) await createInventory(admin, variant.public_id, v.stock);
    variants.push(variant);
  }
  const product = expectStatus(await admin.get(`${API}/admin/products/${created.public_id}`), 200);
  return { product, variants, id: created.public_id as string };
}

/** The storefront list, GET /products?`query`, as `client`. */
export const listProducts = (client: Client, query: string) => client.get(`${API}/products?${query}`);

/** The storefront list for `query` is exactly `expected`, in that order (and its total says so). */
export async function expectListed(client: Client, query: string, expected: string[]) {
  const response = await listProducts(client, query);
  assert.equal(response.status, 200, `${query}: ${response.text}`);
  assert.deepEqual(idsOf(response), expected, query);
  assert.equal(response.body.meta.total, expected.length, query);
}

/** A fresh category, to keep a group of tests' products apart from the rest; returns its public ID. */
export const productGroup = async (admin: Client, name: string) =>
  (await createCategory(admin, { name: `${name} ${uniqueSku()}` })).public_id as string;

/** Public IDs of a list response, in order. */
export const idsOf = (response: Response): string[] => (response.body.data as { public_id: string }[]).map((item) => item.public_id);

/** Byte-wise comparison, as PostgreSQL's C collation (the test database's) orders public IDs. */
export const byPublicId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Asserts a 400 VALIDATION_ERROR, optionally with a detail about `field`. */
export function expectValidation(response: Response, field?: string) {
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body?.success, false, response.text);
  assert.equal(response.body.error.code, 'VALIDATION_ERROR', response.text);
  if (field) {
    const details: { field: string }[] = response.body.error.details ?? [];
    assert.ok(
      details.some((d) => d.field === field),
      `no detail for ${field}: ${response.text}`,
    );
  }
}
