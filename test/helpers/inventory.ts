import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';

/** Admin-inventory test helpers: catalog setup over HTTP and database reads for checks. */

export const INVENTORY = '/api/v1/admin/inventory';

export const RECORD_FIELDS = [
  'variant_public_id',
  'product_public_id',
  'product_name',
  'sku',
  'quantity_on_hand',
  'quantity_reserved',
  'quantity_available',
  'reorder_level',
  'stock_status',
  'created_at',
  'last_stock_update',
] as const;

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

const suffix = () => randomBytes(4).toString('hex');

/** A unique token to keep names and SKUs of one test apart from every other test in the file. */
export const uniqueTag = (label = 't') => `${label}${suffix()}`;

export interface VariantRef {
  productPublicId: string;
  productName: string;
  variantPublicId: string;
  sku: string;
}

/** An ACTIVE product with one variant, created through the admin API. */
export async function createVariant(
  admin: Client,
  options: { productName?: string; sku?: string; productPublicId?: string } = {},
): Promise<VariantRef> {
  let productPublicId = options.productPublicId;
  const productName = options.productName ?? `Product ${suffix()}`;
  if (!productPublicId) {
    const product = await admin.post('/api/v1/admin/products', { name: productName, status: 'ACTIVE' });
    assert.equal(product.status, 201, product.text);
    productPublicId = product.body.data.public_id as string;
  }
  const sku = options.sku ?? `SKU-${suffix()}`;
  const variant = await admin.post(`/api/v1/admin/products/${productPublicId}/variants`, { sku, name: `Variant ${sku}`, price: '10.00' });
  assert.equal(variant.status, 201, variant.text);
  return { productPublicId, productName, variantPublicId: variant.body.data.public_id as string, sku };
}

/** Creates the inventory record over HTTP and returns the record from the 201 response. */
export async function createRecord(admin: Client, variantPublicId: string, quantityOnHand: number, reorderLevel?: number | null) {
  const body: Record<string, unknown> = { variant_public_id: variantPublicId, quantity_on_hand: quantityOnHand };
  if (reorderLevel !== undefined && reorderLevel !== null) body.reorder_level = reorderLevel;
  const response = await admin.post(INVENTORY, body);
  assert.equal(response.status, 201, response.text);
  return response.body.data;
}

/** A fresh variant with an inventory record, optionally with some units reserved. */
export async function stockedVariant(
  admin: Client,
  onHand: number,
  options: { reorderLevel?: number; reserved?: number; productName?: string; sku?: string } = {},
) {
  const variant = await createVariant(admin, options);
  await createRecord(admin, variant.variantPublicId, onHand, options.reorderLevel);
  if (options.reserved) {
    const response = await admin.patch(`${INVENTORY}/${variant.variantPublicId}/reservation`, { change: options.reserved });
    assert.equal(response.status, 200, response.text);
  }
  return variant;
}

/** The record's row straight from the database. */
export async function dbRecord(t: RunningApp, variantPublicId: string) {
  return t.db
    .selectFrom('inventory as i')
    .innerJoin('variants as v', 'v.id', 'i.variant_id')
    .select(['i.id', 'i.quantity_on_hand', 'i.quantity_reserved', 'i.reorder_level', 'i.last_stock_update'])
    .where('v.public_id', '=', variantPublicId)
    .executeTakeFirst();
}

/** The record's movement rows in the order they were written (by id). */
export async function dbMovements(t: RunningApp, variantPublicId: string) {
  return t.db
    .selectFrom('inventory_movements as m')
    .innerJoin('inventory as i', 'i.id', 'm.inventory_id')
    .innerJoin('variants as v', 'v.id', 'i.variant_id')
    .leftJoin('users as u', 'u.id', 'm.actor_user_id')
    .select([
      'm.id',
      'm.kind',
      'm.delta_on_hand',
      'm.delta_reserved',
      'm.on_hand_after',
      'm.reserved_after',
      'm.reason',
      'u.public_id as actor_public_id',
    ])
    .where('v.public_id', '=', variantPublicId)
    .orderBy('m.id', 'asc')
    .execute();
}

/** The audit rows about one record, oldest first. */
export async function dbAudit(t: RunningApp, variantPublicId: string) {
  return t.db
    .selectFrom('audit_log')
    .select(['action', 'entity_type', 'actor_public_id', 'actor_role', 'changes', 'reason'])
    .where('entity_type', '=', 'inventory')
    .where('entity_public_id', '=', variantPublicId)
    .orderBy('id', 'asc')
    .execute();
}

/** A snapshot of everything a write may touch, to prove a rejected write changed nothing. */
export async function stateOf(t: RunningApp, variantPublicId: string) {
  return {
    record: await dbRecord(t, variantPublicId),
    movements: (await dbMovements(t, variantPublicId)).length,
    audit: (await dbAudit(t, variantPublicId)).length,
  };
}
