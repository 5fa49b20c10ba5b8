import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suggestSearch } from '../../src/catalog/search-suggestion.js';

/** The catalog's words as the service reads them: lower case, the most used first. */
const WORDS = ['shirt', 'linen', 'boot', 'trail', 'waterproof', 'hoodie', 'dress', 'socks', 'wool', 'mug', 'tee'];

test('a mistyped word is replaced by the closest word of the catalog, the others kept as typed', () => {
  assert.equal(suggestSearch('shrit', WORDS), 'shirt');
  assert.equal(suggestSearch('lnen shirt', WORDS), 'linen shirt');
  assert.equal(suggestSearch('Waterprof  BOOTS', WORDS), 'waterproof boots');
  // As typed, or as its stem: a plural mistyped.
  assert.equal(suggestSearch('hodies', WORDS), 'hoodie');
  assert.equal(suggestSearch('shrits', WORDS), 'shirt');
});

test('nothing to offer: every word known, too short to guess, a SKU, or too far from any', () => {
  assert.equal(suggestSearch('linen shirts', WORDS), null);
  assert.equal(suggestSearch('mgu', WORDS), null);
  assert.equal(suggestSearch('TS-0042', WORDS), null);
  assert.equal(suggestSearch('bicycle', WORDS), null);
  assert.equal(suggestSearch('shrit', []), null);
});

test('a word two edits from the catalog is guessed only when long enough to tell', () => {
  // Four letters: one edit ("woel" for "wool"), never two ("weel").
  assert.equal(suggestSearch('woel', WORDS), 'wool');
  assert.equal(suggestSearch('weel', WORDS), null);
  // Five and more: two, a swap of two letters among them.
  assert.equal(suggestSearch('trial', WORDS), 'trail');
  assert.equal(suggestSearch('waterporof', WORDS), 'waterproof');
});
