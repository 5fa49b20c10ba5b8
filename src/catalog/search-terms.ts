/**
 * The words a product search looks for. Each word must appear in the product's name, brand,
 * description or a SKU (in any order, anywhere: "boot waterproof" finds "Waterproof Trail Boot"), and a plural finds
 * its singular ("boots" finds "Boot", "hoodies" "Hoodie", "dresses" "Dress", "accessories"
 * "Accessory"): each word is cut to a stem that both forms contain. A word with a digit or a sign in
 * it (a SKU, "t-shirt") is taken as typed.
 */
export const MAX_SEARCH_WORDS = 8;

/** Shortest stem a plural is cut to: "tees" stays "tee", never "te". */
const MIN_STEM = 3;

export function searchTerms(search: string): string[] {
  const typed = search.toLowerCase().split(/\s+/).filter(Boolean);
  // A one-character word ("a linen shirt", "t shirt") is in nearly every description: it narrows nothing and
  // costs a scan of its own, so it is left out beside a longer word (alone, it is what was asked for).
  const longer = typed.filter((word) => [...word].length > 1);
  const words = longer.length > 0 ? longer : typed;
  const terms = [...new Set(words.map(stem))];
  // Past the limit, the longest words (the likeliest to narrow) are kept.
  return terms.length <= MAX_SEARCH_WORDS ? terms : [...terms].sort((a, b) => b.length - a.length).slice(0, MAX_SEARCH_WORDS);
}

/** A word as a search looks for it: a plural cut to the stem its singular contains; a word with a digit or a sign as typed. */
export function stem(word: string): string {
  if (!/^\p{L}+$/u.test(word)) return word;
  if (word.endsWith('ies') && word.length - 3 >= MIN_STEM) return word.slice(0, -3); // accessories -> accessor(y)
  if (/(ss|sh|ch|x|z)es$/.test(word) && word.length - 2 >= MIN_STEM) return word.slice(0, -2); // dresses -> dress
  if (word.endsWith('s') && !word.endsWith('ss') && word.length - 1 >= MIN_STEM) return word.slice(0, -1); // boots -> boot
  return word;
}
