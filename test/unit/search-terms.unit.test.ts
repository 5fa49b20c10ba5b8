import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SEARCH_WORDS, searchTerms } from '../../src/catalog/search-terms.js';

test('search words: lower case, each once, plurals cut to a stem their singular contains', () => {
  assert.deepEqual(searchTerms('Boots'), ['boot']);
  assert.deepEqual(searchTerms('hoodies accessories dresses boxes tees'), ['hood', 'accessor', 'dress', 'box', 'tee']);
  assert.deepEqual(searchTerms('glass bus'), ['glass', 'bus'], 'a double s, and a stem shorter than three letters, stay whole');
  assert.deepEqual(searchTerms('  trail   BOOT boot '), ['trail', 'boot']);
  assert.deepEqual(searchTerms('NW-TEE-S t-shirts 10s'), ['nw-tee-s', 't-shirts', '10s'], 'a word with a digit or a sign is as typed');
});

test(`at most ${MAX_SEARCH_WORDS} words, the longest kept`, () => {
  const many = searchTerms('a bb ccc dddd eeeee ffffff ggggggg hhhhhhhh iiiiiiiii jjjjjjjjjj');
  assert.equal(many.length, MAX_SEARCH_WORDS);
  assert.ok(!many.includes('a') && !many.includes('bb'));
});

test('a one-character word is left out beside a longer one, and kept alone', () => {
  assert.deepEqual(searchTerms('a linen shirt'), ['linen', 'shirt']);
  assert.deepEqual(searchTerms('T shirt'), ['shirt']);
  assert.deepEqual(searchTerms('x'), ['x']);
  assert.deepEqual(searchTerms('3 7'), ['3', '7']);
});
