import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inventoryKeys, orderKeys, productKeys, reportKeys, statsKeys, couponKeys, accountKeys } from '../src/api/query-keys';
import { changedByMove, statusChange, stepEffects, stepTo, units } from '../src/features/orders/steps';

const order = {
  items: [
    { sku: 'MUG-1', quantity: 2 },
    { sku: 'MUG-2', quantity: 1 },
    { sku: 'MUG-1', quantity: 1 },
  ],
  coupon_code: 'KEEP10',
};

describe('order steps', () => {
  test('units are counted per SKU, lines of one variant together', () => {
    assert.equal(units(order.items), '3 × MUG-1, 1 × MUG-2');
  });

  test('each step says what it does to stock, the coupon and the payment', () => {
    assert.deepEqual(stepEffects('CONFIRMED', order), ['Stock stays reserved for this order: 3 × MUG-1, 1 × MUG-2.']);
    assert.deepEqual(stepEffects('SHIPPED', order), [
      'Shipping takes 3 × MUG-1, 1 × MUG-2 out of on hand and reserved stock.',
      'The customer is emailed the carrier and tracking number.',
    ]);
    assert.deepEqual(stepEffects('CANCELLED', order), [
      'Cancelling releases 3 × MUG-1, 1 × MUG-2 back to available stock.',
      'The use of coupon KEEP10 is released: it counts as unused again.',
      'The payment is marked refunded. A cancelled order cannot be reopened.',
    ]);
    assert.equal(stepEffects('CANCELLED', { ...order, coupon_code: null }).length, 2, 'no coupon, no coupon line');
    assert.deepEqual(stepEffects('FULFILLED', order), ['No stock change.']);
  });

  test('a move the API lists is named for its button; one the console has no words for reads as its status', () => {
    assert.deepEqual(stepTo('CANCELLED'), { to: 'CANCELLED', label: 'Cancel order', color: 'red' });
    assert.deepEqual(stepTo('SHIPPED'), { to: 'SHIPPED', label: 'Ship' });
    assert.deepEqual(stepTo('PLACED'), { to: 'PLACED', label: 'Placed' });
  });

  test('the change sent: the carrier and tracking only when shipping, blank fields left out', () => {
    const values = { carrier: ' DHL ', tracking_number: ' JD01 ', note: '  ' };
    assert.deepEqual(statusChange(stepTo('SHIPPED'), values), { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'JD01' });
    assert.deepEqual(statusChange(stepTo('SHIPPED'), { ...values, tracking_number: '' }), { status: 'SHIPPED', carrier: 'DHL' });
    assert.deepEqual(statusChange(stepTo('CANCELLED'), { ...values, note: ' called ' }), { status: 'CANCELLED', note: 'called' });
  });

  test('a move refreshes what it changes: stock on shipping and cancelling, coupons, reports and accounts on cancelling', () => {
    const refreshed = (to: Parameters<typeof changedByMove>[0]) => changedByMove(to).map((key) => key[0]);
    assert.deepEqual(refreshed('CONFIRMED'), [orderKeys.all[0], statsKeys.all[0]]);
    assert.deepEqual(refreshed('FULFILLED'), [orderKeys.all[0], statsKeys.all[0]]);
    assert.deepEqual(refreshed('SHIPPED'), [orderKeys.all[0], statsKeys.all[0], inventoryKeys.all[0], productKeys.all[0]]);
    assert.deepEqual(refreshed('CANCELLED'), [
      orderKeys.all[0],
      statsKeys.all[0],
      inventoryKeys.all[0],
      productKeys.all[0],
      couponKeys.all[0],
      reportKeys.all[0],
      accountKeys.all[0],
    ]);
  });
});
