import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fromCents } from '../../src/lib/money.js';
import { priceOrder } from '../../src/orders/pricing.js';

const RULES = { shippingFlat: '5.00', freeShippingFrom: '100.00', taxRate: '10' };

describe('order pricing', () => {
  test('a worked example: discount before tax, tax half up, flat shipping below the threshold', () => {
    const totals = priceOrder(
      [
        { unitPrice: '20.00', quantity: 2 },
        { unitPrice: '35.50', quantity: 1 },
      ],
      755,
      RULES,
    );
    assert.deepEqual(totals, { subtotal: 7550, discount: 755, shipping: 500, tax: 680, total: 7975 });
  });

  test('free shipping from the threshold exactly, not a cent below', () => {
    assert.equal(priceOrder([{ unitPrice: '100.00', quantity: 1 }], 0, RULES).shipping, 0);
    assert.equal(priceOrder([{ unitPrice: '99.99', quantity: 1 }], 0, RULES).shipping, 500);
  });

  test('for any cart and discount: the discount stays within the subtotal and the total adds up', () => {
    const line = fc.record({ cents: fc.integer({ min: 1, max: 1_000_000 }), quantity: fc.integer({ min: 1, max: 50 }) });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: -1000, max: 100_000_000 }),
        fc.integer({ min: 0, max: 30 }),
        (lines, discount, rate) => {
          const totals = priceOrder(
            lines.map((l) => ({ unitPrice: fromCents(l.cents), quantity: l.quantity })),
            discount,
            { ...RULES, taxRate: String(rate) },
          );
          const subtotal = lines.reduce((sum, l) => sum + l.cents * l.quantity, 0);
          assert.equal(totals.subtotal, subtotal);
          assert.ok(totals.discount >= 0 && totals.discount <= subtotal);
          assert.ok(totals.tax >= 0);
          assert.equal(totals.total, totals.subtotal - totals.discount + totals.shipping + totals.tax);
          assert.ok(totals.total >= totals.shipping, 'never below what shipping costs');
        },
      ),
      { numRuns: 1000 },
    );
  });
});
