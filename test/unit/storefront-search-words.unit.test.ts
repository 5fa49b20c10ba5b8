import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { searchWords } from '../../packages/storefront/src/lib/search-words.js';
import { isPlainText } from '../../src/lib/text.js';

/** The search words a listing's URL carries (packages/storefront/src/lib/search-words.ts), against the API's text rules. */
test('words as typed are kept; controls and invisible characters become spaces', () => {
  assert.equal(searchWords('  linen   shirt '), 'linen shirt');
  assert.equal(searchWords('a\u0000b'), 'a b');
  assert.equal(searchWords('abc\u202Etxt'), 'abc txt');
  assert.equal(searchWords('\u200B\u200B'), '');
  assert.equal(searchWords('می\u200Cخواهم'), 'می\u200Cخواهم');
  assert.equal(searchWords('\u2764\uFE0F mug'), '\u2764\uFE0F mug');
});

test('the cut at 200 never splits a character', () => {
  const emoji = '\u{1F600}';
  assert.equal(searchWords('a'.repeat(199) + emoji), 'a'.repeat(199));
  assert.equal(searchWords('a'.repeat(198) + emoji), 'a'.repeat(198) + emoji);
});

test('whatever a link carries, the words are text the API takes, unless a joiner is where no spelling needs it', () => {
  const noise = fc.constantFrom(
    '\u0000',
    '\u0007',
    '\u007f',
    '\u0085',
    '\u2028',
    '\u202E',
    '\u2066',
    '\u200B',
    '\u00AD',
    '\u3164',
    '\u2800',
    '\uFE0F',
  );
  const text = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), noise), { maxLength: 40 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 260 })), (raw) => {
      const words = searchWords(raw);
      assert.ok(words.length <= 200);
      if (!/[\u200c\u200d]/.test(words)) assert.equal(isPlainText(words, 'line'), null, JSON.stringify([raw, words]));
    }),
    { numRuns: 3000 },
  );
});
