import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fromCents, percentOf, toCents } from '../../src/lib/money.js';

/** The reference for half-up rounding: exact rational arithmetic in BigInt. */
function halfUp(numerator: bigint, denominator: bigint): bigint {
  const sign = numerator < 0n ? -1n : 1n;
  const n = numerator * sign;
  const q = n / denominator;
  return sign * (2n * (n % denominator) >= denominator ? q + 1n : q);
}

describe('money: decimal strings and integer cents', () => {
  test('examples', () => {
    assert.equal(toCents('0'), 0);
    assert.equal(toCents('10'), 1000);
    assert.equal(toCents('10.5'), 1050);
    assert.equal(toCents('10.05'), 1005);
    assert.equal(toCents('-3.10'), -310);
    assert.equal(toCents(' 7.99 '), 799);
    assert.equal(fromCents(1050), '10.50');
    assert.equal(fromCents(5), '0.05');
    assert.equal(fromCents(-310), '-3.10');
    assert.equal(fromCents(0), '0.00');
  });

  test('anything that is not a two-place decimal is refused, never guessed', () => {
    for (const bad of ['', '.5', '1.234', '1e3', '1,00', 'ten', '--1', '1.-1', '0x10', 'Infinity', 'NaN']) {
      assert.throws(() => toCents(bad), /not a money amount/, bad);
    }
  });

  test('fromCents and toCents are inverse for every amount up to a trillion', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000_000_000, max: 100_000_000_000_000 }), (cents) => toCents(fromCents(cents)) === cents),
      { numRuns: 2000 },
    );
  });

  test('percentOf rounds half up exactly, for any percentage with up to four decimals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 4 }),
        (cents, whole, fraction, places) => {
          const digits = places === 0 ? '' : String(fraction).padStart(4, '0').slice(0, places);
          const percent = digits ? `${whole}.${digits}` : String(whole);
          const scale = 10n ** BigInt(digits.length);
          const expected = halfUp(BigInt(cents) * (BigInt(whole) * scale + BigInt(digits || '0')), 100n * scale);
          return BigInt(percentOf(cents, percent)) === expected;
        },
      ),
      { numRuns: 2000 },
    );
    assert.equal(percentOf(1005, '10'), 101, '100.5 cents rounds up');
    assert.equal(percentOf(1004, '10'), 100);
    assert.equal(percentOf(999, '8.875'), 89, '88.66 cents');
  });
});
