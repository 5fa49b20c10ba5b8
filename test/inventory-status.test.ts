import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INVENTORY, createRecord, createVariant, uniqueTag } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ as: ['ADMIN'] });

/** Builds a record with exactly these quantities over HTTP (create, reserve, then lower on-hand if needed). */
async function recordWith(onHand: number, reserved: number, reorderLevel: number | null, productName?: string) {
  const variant = await createVariant(t.admin, productName ? { productName } : {});
  const v = variant.variantPublicId;
  await createRecord(t.admin, v, Math.max(onHand, reserved), reorderLevel);
  if (reserved > 0) assert.equal((await t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: reserved })).status, 200);
  if (onHand < reserved) assert.equal((await t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: onHand })).status, 200);
  const record = (await t.admin.get(`${INVENTORY}/${v}`)).body.data;
  assert.deepEqual([record.quantity_on_hand, record.quantity_reserved], [onHand, reserved]);
  return record;
}

const CASES: { name: string; onHand: number; reserved: number; reorder: number | null; available: number; status: string }[] = [
  { name: 'available above the reorder level', onHand: 6, reserved: 0, reorder: 5, available: 6, status: 'IN_STOCK' },
  { name: 'available above the reorder level after a reservation', onHand: 9, reserved: 3, reorder: 5, available: 6, status: 'IN_STOCK' },
  { name: 'available equal to the reorder level', onHand: 5, reserved: 0, reorder: 5, available: 5, status: 'LOW_STOCK' },
  {
    name: 'available equal to the reorder level after a reservation',
    onHand: 8,
    reserved: 3,
    reorder: 5,
    available: 5,
    status: 'LOW_STOCK',
  },
  { name: 'available below the reorder level', onHand: 4, reserved: 0, reorder: 5, available: 4, status: 'LOW_STOCK' },
  { name: 'available 1 with reorder level 1', onHand: 1, reserved: 0, reorder: 1, available: 1, status: 'LOW_STOCK' },
  { name: 'available 1 with reorder level 0', onHand: 1, reserved: 0, reorder: 0, available: 1, status: 'IN_STOCK' },
  { name: 'available zero with reorder level 0', onHand: 0, reserved: 0, reorder: 0, available: 0, status: 'OUT_OF_STOCK' },
  { name: 'available zero with reorder level 5', onHand: 0, reserved: 0, reorder: 5, available: 0, status: 'OUT_OF_STOCK' },
  { name: 'available zero by reservation with reorder level 5', onHand: 4, reserved: 4, reorder: 5, available: 0, status: 'OUT_OF_STOCK' },
  { name: 'available zero with no reorder level', onHand: 0, reserved: 0, reorder: null, available: 0, status: 'OUT_OF_STOCK' },
  { name: 'available negative with reorder level 5', onHand: 1, reserved: 3, reorder: 5, available: -2, status: 'OUT_OF_STOCK' },
  { name: 'available negative with no reorder level', onHand: 0, reserved: 2, reorder: null, available: -2, status: 'OUT_OF_STOCK' },
  { name: 'no reorder level and available 1', onHand: 1, reserved: 0, reorder: null, available: 1, status: 'IN_STOCK' },
  { name: 'no reorder level and a large stock', onHand: 1000, reserved: 10, reorder: null, available: 990, status: 'IN_STOCK' },
];

describe('stock_status at every boundary', () => {
  for (const c of CASES) {
    test(`${c.name}: ${c.status}`, async () => {
      const productName = uniqueTag('Status ');
      const record = await recordWith(c.onHand, c.reserved, c.reorder, productName);
      assert.equal(record.quantity_available, c.available);
      assert.equal(record.reorder_level, c.reorder);
      assert.equal(record.stock_status, c.status);
      // The list computes the same status, and its filter agrees with it.
      const listed = await t.admin.get(`${INVENTORY}?search=${encodeURIComponent(productName)}`);
      assert.equal(listed.body.data.length, 1);
      assert.equal(listed.body.data[0].stock_status, c.status);
      for (const status of ['IN_STOCK', 'LOW_STOCK', 'OUT_OF_STOCK']) {
        const filtered = await t.admin.get(`${INVENTORY}?search=${encodeURIComponent(productName)}&stock_status=${status}`);
        assert.equal(filtered.status, 200, filtered.text);
        assert.equal(filtered.body.data.length, status === c.status ? 1 : 0, `filter ${status}`);
      }
    });
  }
});

describe('stock_status follows every write', () => {
  test('reserve, release, adjust and reorder changes each recompute the status', async () => {
    const variant = await createVariant(t.admin);
    const v = variant.variantPublicId;
    const statusAfter = async (response: Promise<{ status: number; body: any; text: string }>) => {
      const r = await response;
      assert.equal(r.status, 200, r.text);
      return [r.body.data.quantity_available, r.body.data.stock_status];
    };
    assert.deepEqual((await createRecord(t.admin, v, 10, 3)).stock_status, 'IN_STOCK');
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: 6 })), [4, 'IN_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: 1 })), [3, 'LOW_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: -3 })), [0, 'OUT_OF_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: -2 })), [-2, 'OUT_OF_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: 12 })), [5, 'IN_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}`, { reorder_level: 5 })), [5, 'LOW_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: -1 })), [6, 'IN_STOCK']);
    assert.deepEqual(await statusAfter(t.admin.patch(`${INVENTORY}/${v}`, { reorder_level: null })), [6, 'IN_STOCK']);
  });
});
