import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromCents, percentOf, toCents } from '../../src/lib/money.js';
import { priceOrder } from '../../src/orders/pricing.js';

const RULES = { shippingFlat: '10.00', freeShippingFrom: '500.00', taxRate: '8.25' };

const lines = fc.array(
  fc.record({ unitPrice: fc.integer({ min: 0, max: 1_000_000 }).map(fromCents), quantity: fc.integer({ min: 1, max: 50 }) }),
  { minLength: 1, maxLength: 8 },
);

test('a total is subtotal - discount + shipping + tax, the discount never above the subtotal nor below zero', () => {
  fc.assert(
    fc.property(lines, fc.integer({ min: -1000, max: 10_000_000 }), (items, discount) => {
      const totals = priceOrder(items, discount, RULES);
      const subtotal = items.reduce((sum, line) => sum + toCents(line.unitPrice) * line.quantity, 0);
      assert.equal(totals.subtotal, subtotal);
      assert.ok(totals.discount >= 0 && totals.discount <= subtotal);
      assert.equal(totals.tax, percentOf(subtotal - totals.discount, RULES.taxRate), 'tax is on the discounted subtotal');
      assert.equal(totals.shipping, subtotal >= toCents(RULES.freeShippingFrom) ? 0 : toCents(RULES.shippingFlat));
      assert.equal(totals.total, totals.subtotal - totals.discount + totals.shipping + totals.tax);
    }),
  );
});

test('shipping is free from the threshold itself, charged a cent below it', () => {
  assert.equal(priceOrder([{ unitPrice: '500.00', quantity: 1 }], 0, RULES).shipping, 0);
  assert.equal(priceOrder([{ unitPrice: '499.99', quantity: 1 }], 0, RULES).shipping, 1000);
  // The threshold looks at the subtotal before the discount.
  assert.equal(priceOrder([{ unitPrice: '500.00', quantity: 1 }], 10_000, RULES).shipping, 0);
});

test('a worked example: 2 x 19.99 with 5.00 off at 8.25% tax', () => {
  const totals = priceOrder([{ unitPrice: '19.99', quantity: 2 }], 500, RULES);
  assert.deepEqual(Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, fromCents(value)])), {
    subtotal: '39.98',
    discount: '5.00',
    shipping: '10.00',
    tax: '2.89',
    total: '47.87',
  });
});
