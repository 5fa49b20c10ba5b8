import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filtersOf, isFiltered } from '../../packages/storefront/src/lib/listing.js';

const at = (query: string) => filtersOf(new URL(`http://shop.test/search?${query}`));

test("the listing's default order, asked for by name, is no filter: the panel stays closed and counts nothing", () => {
  // What the filter form sends when only "In stock" was ticked: every field, the sort at its first option.
  const ticked = at('q=linen&category=&min=&max=&in_stock=1&sort=-created_at');
  assert.equal(ticked.sort, '');
  assert.equal(ticked.inStock, true);
  assert.equal(isFiltered(at('q=linen&category=&min=&max=&sort=-created_at')), false);
  assert.equal(at('sort=-price').sort, '-price');
  assert.equal(at('sort=nonsense').sort, '');
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
