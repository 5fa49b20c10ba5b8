import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fromCents, percentOf, toCents } from '../../src/lib/money.js';

const cents = fc.integer({ min: -1e12, max: 1e12 });

test('amounts round-trip through cents exactly', () => {
  fc.assert(fc.property(cents, (c) => toCents(fromCents(c)) === c));
  assert.equal(fromCents(5), '0.05');
  assert.equal(fromCents(-1999), '-19.99');
  assert.equal(toCents('19.9'), 1990);
  assert.equal(toCents(' 7 '), 700);
});

test('anything but a two-place decimal is refused, not guessed', () => {
  for (const bad of ['', '1.234', '1e3', '0x10', 'NaN', '1,00', '--1', '.5', '1.']) {
    assert.throws(() => toCents(bad), /not a money amount/, bad);
  }
});

test('percentOf rounds half up, matching exact rational arithmetic', () => {
  const percent = fc
    .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 9999 }))
    .map(([whole, fraction]) => (fraction === 0 ? String(whole) : `${whole}.${String(fraction).padStart(4, '0')}`));
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e10 }), percent, (c, p) => {
      const [whole = '0', fraction = ''] = p.split('.');
      const scale = 10n ** BigInt(fraction.length);
      const numerator = BigInt(c) * (BigInt(whole) * scale + BigInt(fraction || '0'));
      const denominator = 100n * scale;
      // Half up: floor(x + 1/2) = floor((2n + d) / 2d).
      const expected = (2n * numerator + denominator) / (2n * denominator);
      return percentOf(c, p) === Number(expected);
    }),
  );
  assert.equal(percentOf(1, '50'), 1, 'half a cent rounds up');
  assert.equal(percentOf(1, '49.99'), 0);
  assert.equal(percentOf(1999, '8.25'), 165);
});
