import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { INVENTORY, ISO_UTC, RECORD_FIELDS, createVariant, dbAudit, dbMovements, dbRecord } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ as: ['ADMIN'] });

async function countAll() {
  const inventory = await t.db
    .selectFrom('inventory')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const movements = await t.db
    .selectFrom('inventory_movements')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const audit = await t.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('action', 'like', 'inventory.%')
    .executeTakeFirstOrThrow();
  return { inventory: Number(inventory.n), movements: Number(movements.n), audit: Number(audit.n) };
}

describe('POST /admin/inventory', () => {
  test('201 with the full record; reserved starts at 0 and available equals on-hand', async () => {
    const variant = await createVariant(t.admin, { productName: 'Linen Shirt' });
    const startedAt = Date.now();
    const response = await t.admin.post(INVENTORY, { variant_public_id: variant.variantPublicId, quantity_on_hand: 40, reorder_level: 5 });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.success, true);
    const record = response.body.data;
    assert.deepEqual(Object.keys(record).sort(), [...RECORD_FIELDS].sort());
    assert.deepEqual(
      { ...record, created_at: undefined, last_stock_update: undefined },
      {
        variant_public_id: variant.variantPublicId,
        product_public_id: variant.productPublicId,
        product_name: 'Linen Shirt',
        sku: variant.sku,
        quantity_on_hand: 40,
        quantity_reserved: 0,
        quantity_available: 40,
        reorder_level: 5,
        stock_status: 'IN_STOCK',
        created_at: undefined,
        last_stock_update: undefined,
      },
    );
    for (const field of ['created_at', 'last_stock_update']) {
      assert.match(record[field], ISO_UTC);
      assert.ok(Math.abs(new Date(record[field]).getTime() - startedAt) < 60_000, `${field} is about now`);
    }
    const row = await dbRecord(t, variant.variantPublicId);
    assert.deepEqual(
      { on: row?.quantity_on_hand, reserved: row?.quantity_reserved, reorder: row?.reorder_level },
      { on: 40, reserved: 0, reorder: 5 },
    );
    // The GET answers the same record.
    assert.deepEqual((await t.admin.get(`${INVENTORY}/${variant.variantPublicId}`)).body.data, record);
  });

  test('without reorder_level the threshold is null; on-hand 0 is allowed and OUT_OF_STOCK', async () => {
    const variant = await createVariant(t.admin);
    const response = await t.admin.post(INVENTORY, { variant_public_id: variant.variantPublicId, quantity_on_hand: 0 });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.data.reorder_level, null);
    assert.equal(response.body.data.quantity_available, 0);
    assert.equal(response.body.data.stock_status, 'OUT_OF_STOCK');
  });

  test('writes one CREATE movement and one inventory.create audit entry', async () => {
    const variant = await createVariant(t.admin);
    await t.admin.post(INVENTORY, { variant_public_id: variant.variantPublicId, quantity_on_hand: 7, reorder_level: 2 });
    const movements = await dbMovements(t, variant.variantPublicId);
    assert.equal(movements.length, 1);
    assert.deepEqual(
      { ...movements[0], id: undefined },
      {
        id: undefined,
        kind: 'CREATE',
        delta_on_hand: 7,
        delta_reserved: 0,
        on_hand_after: 7,
        reserved_after: 0,
        reason: null,
        actor_public_id: t.admin.user.public_id,
      },
    );
    const audit = await dbAudit(t, variant.variantPublicId);
    assert.equal(audit.length, 1);
    assert.equal(audit[0]?.action, 'inventory.create');
    assert.equal(audit[0]?.actor_public_id, t.admin.user.public_id);
    assert.deepEqual(audit[0]?.changes, { before: null, after: { quantity_on_hand: 7, quantity_reserved: 0, reorder_level: 2 } });
  });

  test('a second create for the same variant is 409 INVENTORY_EXISTS and leaves the first record alone', async () => {
    const variant = await createVariant(t.admin);
    assert.equal((await t.admin.post(INVENTORY, { variant_public_id: variant.variantPublicId, quantity_on_hand: 3 })).status, 201);
    const counts = await countAll();
    const again = await t.admin.post(INVENTORY, { variant_public_id: variant.variantPublicId, quantity_on_hand: 99, reorder_level: 1 });
    assert.equal(again.status, 409, again.text);
    assert.equal(errorOf(again).code, 'INVENTORY_EXISTS');
    const row = await dbRecord(t, variant.variantPublicId);
    assert.equal(row?.quantity_on_hand, 3);
    assert.equal(row?.reorder_level, null);
    assert.deepEqual(await countAll(), counts);
  });

  test('concurrent creates for one variant: exactly one 201, the rest 409 INVENTORY_EXISTS', async () => {
    const variant = await createVariant(t.admin);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.admin.post(INVENTORY, { variant_public_id: variant.variantPublicId, quantity_on_hand: i + 1 })),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409], responses.map((r) => r.text).join('\n'));
    for (const r of responses.filter((r) => r.status === 409)) assert.equal(errorOf(r).code, 'INVENTORY_EXISTS');
    assert.equal((await dbMovements(t, variant.variantPublicId)).length, 1);
    assert.equal((await dbAudit(t, variant.variantPublicId)).length, 1);
  });

  test('an unknown variant id, a malformed one and a soft-deleted variant are 404', async () => {
    const deleted = await createVariant(t.admin);
    assert.equal((await t.admin.delete(`/api/v1/admin/variants/${deleted.variantPublicId}`)).status, 204);
    const gone = await createVariant(t.admin);
    assert.equal((await t.admin.delete(`/api/v1/admin/products/${gone.productPublicId}`)).status, 204);
    const counts = await countAll();
    for (const id of ['var_AAAAAAAAAAAAAAAAAAAA', 'var_short', gone.productPublicId, deleted.variantPublicId, gone.variantPublicId]) {
      const response = await t.admin.post(INVENTORY, { variant_public_id: id, quantity_on_hand: 1 });
      assert.equal(response.status, 404, `${id}: ${response.text}`);
      assert.equal(errorOf(response).code, 'NOT_FOUND');
    }
    assert.deepEqual(await countAll(), counts);
  });

  const invalid: [string, (variant: string) => unknown, string][] = [
    ['quantity_on_hand -1', (v) => ({ variant_public_id: v, quantity_on_hand: -1 }), 'quantity_on_hand'],
    ['quantity_on_hand missing', (v) => ({ variant_public_id: v }), 'quantity_on_hand'],
    ['quantity_on_hand not an integer', (v) => ({ variant_public_id: v, quantity_on_hand: 1.5 }), 'quantity_on_hand'],
    ['quantity_on_hand as a string', (v) => ({ variant_public_id: v, quantity_on_hand: '5' }), 'quantity_on_hand'],
    ['quantity_on_hand null', (v) => ({ variant_public_id: v, quantity_on_hand: null }), 'quantity_on_hand'],
    ['reorder_level -1', (v) => ({ variant_public_id: v, quantity_on_hand: 1, reorder_level: -1 }), 'reorder_level'],
    ['variant_public_id missing', () => ({ quantity_on_hand: 1 }), 'variant_public_id'],
    ['an unknown field', (v) => ({ variant_public_id: v, quantity_on_hand: 1, quantity_reserved: 2 }), 'quantity_reserved'],
  ];
  for (const [name, body, field] of invalid) {
    test(`400 VALIDATION_ERROR for ${name}, nothing is created`, async () => {
      const variant = await createVariant(t.admin);
      const counts = await countAll();
      const response = await t.admin.post(INVENTORY, body(variant.variantPublicId));
      assert.equal(response.status, 400, response.text);
      const error = errorOf(response);
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.ok(
        (error.details ?? []).some((d) => d.field.includes(field)),
        `details name ${field}: ${JSON.stringify(error.details)}`,
      );
      assert.equal(await dbRecord(t, variant.variantPublicId), undefined);
      assert.deepEqual(await countAll(), counts);
    });
  }

  test('an empty body and a non-object body are 400', async () => {
    for (const raw of ['{}', '[]', '5']) {
      const response = await t.admin.post(INVENTORY, undefined, { raw });
      assert.equal(response.status, 400, `${raw}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });
});
