import { pageNumber } from './page-number.js';
import type { QueryOf } from '@commerce/client';
import { searchWords } from './search-words.js';

/** The sorts a shopper can choose, as the API names them. */
export const SORTS = [
  { value: '-created_at', label: 'Newest' },
  { value: 'price', label: 'Price: low to high' },
  { value: '-price', label: 'Price: high to low' },
  { value: '-rating', label: 'Best rated' },
  { value: 'name', label: 'Name' },
] as const;
/** A search's own first order: how well each product's name matches its words (the API's relevance). */
const BEST_MATCH = { value: 'relevance', label: 'Best match' } as const;

/** The sorts a listing offers, its default first: a search's best matches, else the newest. */
export const sortsFor = (q: string): readonly { value: string; label: string }[] => (q ? [BEST_MATCH, ...SORTS] : SORTS);
export const PAGE_SIZE = 24;
const MONEY = /^\d{1,8}(\.\d{1,2})?$/;

/**
 * A price as typed in a filter, read as a shopper means it: a currency sign before it ("$30"), a
 * decimal comma as a phone's keypad offers it in much of the world ("29,99"), a thousands comma
 * ("1,250"). What is still no amount after that is dropped (the filter is left out).
 */
function typedPrice(typed: string): string {
  let price = typed.replace(/^\p{Sc}/u, '').replace(/\s/g, '');
  price = /^\d+,\d{1,2}$/.test(price) ? price.replace(',', '.') : price.replace(/,(?=\d{3}\b)/g, '');
  return MONEY.test(price) ? price : '';
}
export interface Filters {
  q: string;
  min: string;
  max: string;
  inStock: boolean;
  sort: string;
  page: number;
  category: string;
}

/**
 * A listing's filters, sort and page from its URL, each checked: a value the API would refuse is
 * dropped, so a hand-edited or old shared link still shows a page instead of an error.
 */
export function filtersOf(url: URL): Filters {
  const get = (name: string) => (url.searchParams.get(name) ?? '').trim();
  const q = searchWords(get('q'));
  const sort = get('sort');
  const sorts = sortsFor(q);
  let min = typedPrice(get('min'));
  let max = typedPrice(get('max'));
  if (min && max && Number(min) > Number(max)) [min, max] = [max, min];
  return {
    q,
    min,
    max,
    inStock: get('in_stock') === '1',
    // The first sort is the listing's own order: asked for by name, it is no choice (the panel stays closed, nothing "applied").
    sort: sorts.some((s) => s.value === sort) && sort !== sorts[0]!.value ? sort : '',
    page: pageNumber(url),
    category: get('category').slice(0, 100),
  };
}

/**
 * What the price filters made of what was typed, said beside the results so nothing is changed unsaid:
 * a price that is no amount is left out, and a range typed the wrong way round is turned round.
 */
export function priceNotes(url: URL): string[] {
  const typed = (name: string) => (url.searchParams.get(name) ?? '').trim();
  const notes: string[] = [];
  for (const [name, label] of [
    ['min', 'From'],
    ['max', 'To'],
  ] as const) {
    const text = typed(name);
    if (text && !typedPrice(text)) notes.push(`“${[...text].slice(0, 20).join('')}” is not a price, so the ${label} price is left out.`);
  }
  const [min, max] = [typedPrice(typed('min')), typedPrice(typed('max'))];
  if (min && max && Number(min) > Number(max)) notes.push('The From price was above the To price, so the two are swapped.');
  return notes;
}

/** The API query for those filters (the category is the caller's: a slug in the URL, an ID for the API). */
export function apiQuery(filters: Filters): NonNullable<QueryOf<'/api/v1/products'>> {
  return {
    page: filters.page,
    limit: PAGE_SIZE,
    ...(filters.q ? { search: filters.q } : {}),
    ...(filters.min ? { min_price: filters.min } : {}),
    ...(filters.max ? { max_price: filters.max } : {}),
    ...(filters.inStock ? { in_stock: 'true' as const } : {}),
    ...(filters.sort
      ? { sort: filters.sort as NonNullable<QueryOf<'/api/v1/products'>>['sort'] }
      : filters.q
        ? { sort: 'relevance' as const }
        : {}),
  };
}

/** What a search suggestion is asked under: the search and the filters, not the page or the sort. */
export function suggestionFilters(query: NonNullable<QueryOf<'/api/v1/products'>>) {
  const { search = '', min_price, max_price, in_stock } = query;
  return { search, ...(min_price ? { min_price } : {}), ...(max_price ? { max_price } : {}), ...(in_stock ? { in_stock } : {}) };
}

/** How many choices narrow or order the list (a price range counts once; the search words are no filter). */
export const appliedCount = (f: Filters) => [f.min || f.max, f.inStock, f.sort, f.category].filter(Boolean).length;

/** Whether the shopper narrowed or sorted the list. */
export const isFiltered = (f: Filters) => appliedCount(f) > 0;
