import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromCents, isMoney, toCents } from '../../packages/storefront/src/lib/server/money.js';

/** The storefront's only sums (a visitor's cart, checkout's check of the total it showed): exact, in cents. */
test('amounts as the API writes them are read exactly, and written back the same', () => {
  assert.equal(toCents('0'), 0);
  assert.equal(toCents('19.9'), 1990);
  assert.equal(toCents('19.09'), 1909);
  assert.equal(toCents('1234567.89'), 123456789);
  fc.assert(fc.property(fc.integer({ min: 0, max: 1e14 - 1 }), (cents) => toCents(fromCents(cents)) === cents));
});

test('anything else is refused, never read as something close', () => {
  for (const text of ['', '1.234', '-1.00', 'abc', '1e3', '0x10', ' 1.00', '1.', '.50', 'NaN']) {
    assert.equal(isMoney(text), false, text);
    assert.throws(() => toCents(text), /Not an amount of money/, text);
  }
});
