import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiQuery, filtersOf, isFiltered, priceNotes } from '../../packages/storefront/src/lib/listing.js';

const at = (query: string) => filtersOf(new URL(`http://shop.test/search?${query}`));

test("the listing's default order, asked for by name, is no filter: the panel stays closed and counts nothing", () => {
  // What the filter form sends when only "In stock" was ticked: every field, the sort at its first option.
  const ticked = at('category=&min=&max=&in_stock=1&sort=-created_at');
  assert.equal(ticked.sort, '');
  assert.equal(ticked.inStock, true);
  assert.equal(isFiltered(at('category=&min=&max=&sort=-created_at')), false);
  assert.equal(at('sort=-price').sort, '-price');
  assert.equal(at('sort=nonsense').sort, '');
  // A search's first order is its best matches: that is its default, the newest first a choice.
  assert.equal(isFiltered(at('q=linen&category=&min=&max=&sort=relevance')), false);
  assert.equal(at('q=linen&sort=-created_at').sort, '-created_at');
  assert.equal(at('sort=relevance').sort, '', 'nothing to rank without a search');
});

test('a search asks the API for its best matches unless another order was chosen', () => {
  assert.equal(apiQuery(at('q=linen')).sort, 'relevance');
  assert.equal(apiQuery(at('q=linen&sort=-price')).sort, '-price');
  assert.equal(apiQuery(at('in_stock=1')).sort, undefined, "the API's own default");
});

test('a price typed as shoppers type it is read as they mean it; anything else is left out, never guessed', () => {
  const cases: [string, string][] = [
    ['29.99', '29.99'],
    ['29,99', '29.99'],
    ['29,9', '29.9'],
    ['$30', '30'],
    ['€ 12,50', '12.50'],
    ['1,250', '1250'],
    ['1,250.50', '1250.50'],
    ['-5', ''],
    ['abc', ''],
    ['', ''],
    ['12.345', ''],
  ];
  for (const [typed, read] of cases) assert.equal(at(`min=${encodeURIComponent(typed)}`).min, read, typed);
});

test('a price filter that was left out or turned round is said, never changed unsaid', () => {
  const notes = (query: string) => priceNotes(new URL(`http://shop.test/search?${query}`));
  assert.deepEqual(notes('min=abc&max=40'), ['“abc” is not a price, so the From price is left out.']);
  assert.deepEqual(notes('min=50&max=20'), ['The From price was above the To price, so the two are swapped.']);
  assert.deepEqual(notes('min=%2430&max=1%2C250'), [], 'typed as shoppers type prices');
  assert.deepEqual(notes('min=&max='), []);
  assert.equal(notes(`max=${'9'.repeat(40)}x`)[0], `“${'9'.repeat(20)}” is not a price, so the To price is left out.`);
});
