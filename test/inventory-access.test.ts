import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf, type Client } from './helpers/factories.js';
import { INVENTORY, ISO_UTC, RECORD_FIELDS, createVariant, stateOf, stockedVariant } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ as: ['ADMIN', 'SUPER_ADMIN', 'CUSTOMER'] });

type Call = (client: Client, variant: string) => Promise<{ status: number; body: any; text: string }>;

/** The six endpoints, each called with a request that is valid for an admin. */
const ENDPOINTS: Record<string, { call: Call; ok: number; fresh?: boolean }> = {
  'GET /admin/inventory': { call: (c) => c.get(INVENTORY), ok: 200 },
  'GET /admin/inventory/{var}': { call: (c, v) => c.get(`${INVENTORY}/${v}`), ok: 200 },
  // Create needs a variant without a record: each caller gets a fresh one.
  'POST /admin/inventory': { call: (c, v) => c.post(INVENTORY, { variant_public_id: v, quantity_on_hand: 3 }), ok: 201, fresh: true },
  'PATCH /admin/inventory/{var}': { call: (c, v) => c.patch(`${INVENTORY}/${v}`, { quantity_change: 1 }), ok: 200 },
  'PATCH /admin/inventory/{var}/reservation': { call: (c, v) => c.patch(`${INVENTORY}/${v}/reservation`, { change: 1 }), ok: 200 },
  'GET /admin/inventory/{var}/movements': { call: (c, v) => c.get(`${INVENTORY}/${v}/movements`), ok: 200 },
};

async function target(fresh: boolean | undefined): Promise<string> {
  return fresh ? (await createVariant(t.admin)).variantPublicId : (await stockedVariant(t.admin, 10)).variantPublicId;
}

describe('roles on every admin inventory endpoint', () => {
  for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
    test(`${name}: anonymous 401 and customer 403, neither changes anything`, async () => {
      const variant = await target(endpoint.fresh);
      const before = await stateOf(t, variant);

      const anonymous = await endpoint.call(t.client(), variant);
      assert.equal(anonymous.status, 401, anonymous.text);
      assert.equal(errorOf(anonymous).code, 'UNAUTHENTICATED');

      const forbidden = await endpoint.call(t.customer, variant);
      assert.equal(forbidden.status, 403, forbidden.text);
      assert.equal(errorOf(forbidden).code, 'FORBIDDEN');

      assert.deepEqual(await stateOf(t, variant), before);
    });

    for (const [role, client] of [
      ['ADMIN', () => t.admin],
      ['SUPER_ADMIN', () => t.superAdmin],
    ] as const) {
      test(`${name}: ${role} is allowed`, async () => {
        const variant = await target(endpoint.fresh);
        const response = await endpoint.call(client(), variant);
        assert.equal(response.status, endpoint.ok, response.text);
        assert.equal(response.body.success, true);
      });
    }
  }
});

describe('GET /admin/inventory/{var}', () => {
  test('returns the record in the success envelope with every field', async () => {
    const variant = await stockedVariant(t.admin, 12, { reorderLevel: 4, reserved: 2 });
    const response = await t.admin.get(`${INVENTORY}/${variant.variantPublicId}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    const record = response.body.data;
    assert.deepEqual(Object.keys(record).sort(), [...RECORD_FIELDS].sort());
    assert.equal(record.variant_public_id, variant.variantPublicId);
    assert.equal(record.product_public_id, variant.productPublicId);
    assert.equal(record.product_name, variant.productName);
    assert.equal(record.sku, variant.sku);
    assert.equal(record.quantity_on_hand, 12);
    assert.equal(record.quantity_reserved, 2);
    assert.equal(record.quantity_available, 10);
    assert.equal(record.reorder_level, 4);
    assert.equal(record.stock_status, 'IN_STOCK');
    assert.match(record.created_at, ISO_UTC);
    assert.match(record.last_stock_update, ISO_UTC);
  });

  test('a variant without a record, an unknown id and malformed ids are 404', async () => {
    const bare = await createVariant(t.admin);
    for (const id of [bare.variantPublicId, 'var_AAAAAAAAAAAAAAAAAAAA', 'var_x', 'prd_AAAAAAAAAAAAAAAAAAAA', 'nonsense', '12']) {
      const response = await t.admin.get(`${INVENTORY}/${id}`);
      assert.equal(response.status, 404, `${id}: ${response.text}`);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
  });

  test('writes and movements on unknown or malformed ids are 404', async () => {
    for (const id of ['var_AAAAAAAAAAAAAAAAAAAA', 'var_x', 'prd_AAAAAAAAAAAAAAAAAAAA']) {
      for (const response of [
        await t.admin.patch(`${INVENTORY}/${id}`, { quantity_change: 1 }),
        await t.admin.patch(`${INVENTORY}/${id}/reservation`, { change: 1 }),
        await t.admin.get(`${INVENTORY}/${id}/movements`),
      ]) {
        assert.equal(response.status, 404, `${id}: ${response.text}`);
        assert.equal(errorOf(response).code, 'NOT_FOUND');
      }
    }
  });

  test('a soft-deleted variant keeps its readable record but refuses writes with 404', async () => {
    const variant = await stockedVariant(t.admin, 5);
    assert.equal((await t.admin.delete(`/api/v1/admin/variants/${variant.variantPublicId}`)).status, 204);
    const before = await stateOf(t, variant.variantPublicId);

    const read = await t.admin.get(`${INVENTORY}/${variant.variantPublicId}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.data.quantity_on_hand, 5);

    const adjust = await t.admin.patch(`${INVENTORY}/${variant.variantPublicId}`, { quantity_change: 1 });
    assert.equal(adjust.status, 404, adjust.text);
    const reserve = await t.admin.patch(`${INVENTORY}/${variant.variantPublicId}/reservation`, { change: 1 });
    assert.equal(reserve.status, 404, reserve.text);
    assert.deepEqual(await stateOf(t, variant.variantPublicId), before);
  });
});
