import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { INVENTORY, dbRecord, stateOf, stockedVariant } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ as: ['ADMIN'] });

const adjust = (variant: string, body: unknown) => t.admin.patch(`${INVENTORY}/${variant}`, body);
const reserve = (variant: string, body: unknown) => t.admin.patch(`${INVENTORY}/${variant}/reservation`, body);
const quantities = (record: any) => ({
  on_hand: record.quantity_on_hand,
  reserved: record.quantity_reserved,
  available: record.quantity_available,
  reorder: record.reorder_level,
  status: record.stock_status,
});

/** Sends the write, expects 400 with `code`, and proves that the record, its movements and its audit are untouched. */
async function rejected(variant: string, send: () => Promise<{ status: number; body: any; text: string }>, code: string) {
  const before = await stateOf(t, variant);
  const response = await send();
  assert.equal(response.status, 400, response.text);
  const error = errorOf(response);
  assert.equal(error.code, code);
  assert.deepEqual(await stateOf(t, variant), before);
  return error;
}

describe('PATCH /admin/inventory/{var} (adjust)', () => {
  test('quantity_on_hand sets the count; the response is the updated record and matches the database', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10, { reserved: 3 });
    const response = await adjust(v, { quantity_on_hand: 25 });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.deepEqual(quantities(response.body.data), { on_hand: 25, reserved: 3, available: 22, reorder: null, status: 'IN_STOCK' });
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 25);
    assert.deepEqual((await t.admin.get(`${INVENTORY}/${v}`)).body.data, response.body.data);
  });

  test('quantity_on_hand 0 is allowed', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const response = await adjust(v, { quantity_on_hand: 0 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(quantities(response.body.data), { on_hand: 0, reserved: 0, available: 0, reorder: null, status: 'OUT_OF_STOCK' });
  });

  test('quantity_change adds and subtracts', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const up = await adjust(v, { quantity_change: 7 });
    assert.equal(up.status, 200, up.text);
    assert.equal(up.body.data.quantity_on_hand, 17);
    const down = await adjust(v, { quantity_change: -12 });
    assert.equal(down.status, 200, down.text);
    assert.equal(down.body.data.quantity_on_hand, 5);
    assert.equal(down.body.data.quantity_available, 5);
    const toZero = await adjust(v, { quantity_change: -5 });
    assert.equal(toZero.status, 200, toZero.text);
    assert.equal(toZero.body.data.quantity_on_hand, 0);
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 0);
  });

  test('a stock change moves last_stock_update forward', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const first = (await t.admin.get(`${INVENTORY}/${v}`)).body.data.last_stock_update;
    t.clock.advance(1000); // the change is stamped with the service's clock
    const response = await adjust(v, { quantity_change: 1 });
    assert.ok(new Date(response.body.data.last_stock_update) > new Date(first), `${response.body.data.last_stock_update} > ${first}`);
  });

  test('both quantity fields is 400 and changes nothing', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    await rejected(v, () => adjust(v, { quantity_on_hand: 5, quantity_change: 1 }), 'VALIDATION_ERROR');
  });

  test('neither quantity field nor reorder_level is 400 (an empty body, or a reason alone)', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    await rejected(v, () => adjust(v, {}), 'VALIDATION_ERROR');
    await rejected(v, () => adjust(v, { reason: 'just because' }), 'VALIDATION_ERROR');
  });

  const invalid: [string, unknown][] = [
    ['quantity_change 0', { quantity_change: 0 }],
    ['quantity_on_hand -1', { quantity_on_hand: -1 }],
    ['quantity_on_hand 1.5', { quantity_on_hand: 1.5 }],
    ['quantity_change "2"', { quantity_change: '2' }],
    ['reorder_level -1', { reorder_level: -1 }],
    ['an unknown field', { quantity_change: 1, quantity_reserved: 4 }],
    ['reason of 256 characters', { quantity_change: 1, reason: 'r'.repeat(256) }],
    ['reason not a string', { quantity_change: 1, reason: 5 }],
  ];
  for (const [name, body] of invalid) {
    test(`${name} is 400 VALIDATION_ERROR and changes nothing`, async () => {
      const { variantPublicId: v } = await stockedVariant(t.admin, 10);
      await rejected(v, () => adjust(v, body), 'VALIDATION_ERROR');
    });
  }

  test('a result below zero on hand is 400 STOCK_RULE_VIOLATION and nothing changes', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 4, { reorderLevel: 2 });
    await rejected(v, () => adjust(v, { quantity_change: -5 }), 'STOCK_RULE_VIOLATION');
    // reorder_level in the same request is not applied either.
    await rejected(v, () => adjust(v, { quantity_change: -5, reorder_level: 9, reason: 'shrinkage' }), 'STOCK_RULE_VIOLATION');
    assert.equal((await dbRecord(t, v))?.reorder_level, 2);
  });

  test('lowering on-hand below the reserved count is allowed: available goes negative, OUT_OF_STOCK', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10, { reserved: 6 });
    const response = await adjust(v, { quantity_change: -8 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(quantities(response.body.data), { on_hand: 2, reserved: 6, available: -4, reorder: null, status: 'OUT_OF_STOCK' });
    const set = await adjust(v, { quantity_on_hand: 0 });
    assert.deepEqual(quantities(set.body.data), { on_hand: 0, reserved: 6, available: -6, reorder: null, status: 'OUT_OF_STOCK' });
    const row = await dbRecord(t, v);
    assert.deepEqual([row?.quantity_on_hand, row?.quantity_reserved], [0, 6]);
  });

  test('reorder_level alone is set, and cleared with null', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const set = await adjust(v, { reorder_level: 10 });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(quantities(set.body.data), { on_hand: 10, reserved: 0, available: 10, reorder: 10, status: 'LOW_STOCK' });
    assert.equal((await dbRecord(t, v))?.reorder_level, 10);
    const cleared = await adjust(v, { reorder_level: null });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(quantities(cleared.body.data), { on_hand: 10, reserved: 0, available: 10, reorder: null, status: 'IN_STOCK' });
    assert.equal((await dbRecord(t, v))?.reorder_level, null);
  });

  test('a quantity change leaves reorder_level as it was unless the request sets it', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10, { reorderLevel: 3 });
    assert.equal((await adjust(v, { quantity_change: 1 })).body.data.reorder_level, 3);
    const both = await adjust(v, { quantity_on_hand: 4, reorder_level: 5 });
    assert.deepEqual(quantities(both.body.data), { on_hand: 4, reserved: 0, available: 4, reorder: 5, status: 'LOW_STOCK' });
  });

  test('a reason of 255 characters is accepted', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const response = await adjust(v, { quantity_change: 1, reason: 'r'.repeat(255) });
    assert.equal(response.status, 200, response.text);
  });
});

describe('PATCH /admin/inventory/{var}/reservation', () => {
  test('change > 0 reserves: reserved up, available down, on-hand unchanged', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const response = await reserve(v, { change: 4, reason: 'photoshoot' });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.deepEqual(quantities(response.body.data), { on_hand: 10, reserved: 4, available: 6, reorder: null, status: 'IN_STOCK' });
    const row = await dbRecord(t, v);
    assert.deepEqual([row?.quantity_on_hand, row?.quantity_reserved], [10, 4]);
  });

  test('change < 0 releases: units return to available', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10, { reserved: 6 });
    const response = await reserve(v, { change: -4 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(quantities(response.body.data), { on_hand: 10, reserved: 2, available: 8, reorder: null, status: 'IN_STOCK' });
    const all = await reserve(v, { change: -2 });
    assert.deepEqual(quantities(all.body.data), { on_hand: 10, reserved: 0, available: 10, reorder: null, status: 'IN_STOCK' });
    assert.equal((await dbRecord(t, v))?.quantity_reserved, 0);
  });

  test('reserving exactly everything available is allowed and leaves available 0', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 5, { reserved: 2 });
    const response = await reserve(v, { change: 3 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(quantities(response.body.data), { on_hand: 5, reserved: 5, available: 0, reorder: null, status: 'OUT_OF_STOCK' });
  });

  test('a reserve that would make available < 0 is 400 STOCK_RULE_VIOLATION and nothing changes', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 5, { reserved: 2 });
    await rejected(v, () => reserve(v, { change: 4, reason: 'too many' }), 'STOCK_RULE_VIOLATION');
    const row = await dbRecord(t, v);
    assert.deepEqual([row?.quantity_on_hand, row?.quantity_reserved], [5, 2]);
  });

  test('a reserve on a record with no stock is 400 STOCK_RULE_VIOLATION', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 0);
    await rejected(v, () => reserve(v, { change: 1 }), 'STOCK_RULE_VIOLATION');
  });

  test('a release below zero reserved is 400 STOCK_RULE_VIOLATION and nothing changes', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10, { reserved: 2 });
    await rejected(v, () => reserve(v, { change: -3 }), 'STOCK_RULE_VIOLATION');
    const { variantPublicId: none } = await stockedVariant(t.admin, 10);
    await rejected(none, () => reserve(none, { change: -1 }), 'STOCK_RULE_VIOLATION');
  });

  const invalid: [string, unknown][] = [
    ['change 0', { change: 0 }],
    ['change missing', { reason: 'hold' }],
    ['change 1.5', { change: 1.5 }],
    ['change "1"', { change: '1' }],
    ['an unknown field', { change: 1, quantity_on_hand: 3 }],
    ['reason of 256 characters', { change: 1, reason: 'r'.repeat(256) }],
  ];
  for (const [name, body] of invalid) {
    test(`${name} is 400 VALIDATION_ERROR and changes nothing`, async () => {
      const { variantPublicId: v } = await stockedVariant(t.admin, 10, { reserved: 1 });
      await rejected(v, () => reserve(v, body), 'VALIDATION_ERROR');
    });
  }

  test('a reason of 255 characters is accepted', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const response = await reserve(v, { change: 1, reason: 'r'.repeat(255) });
    assert.equal(response.status, 200, response.text);
  });
});
