import { closestMatch } from 'leven';
import { stem } from './search-terms.js';

/** Words shorter than this are left as typed: "tee" and "tea" are both words, and a guess between them is noise. */
const MIN_WORD = 4;

/** How far a typed word may be from the shop's word taken for it: one edit in a four-letter word, two in a longer (a swap of two letters is two). */
const reach = (word: string): number => (word.length <= 4 ? 1 : 2);

/**
 * A search like `search`, in the shop's own words: each word of letters that no word of the catalog
 * contains (read as the search reads a word: its stem, anywhere in a word) is replaced by the closest
 * catalog word within reach ("shrit" by "shirt", "lnen" by "linen"); null when no word is replaced.
 * `words`: the catalog's distinct words, lower case, the most used first (the first of two as close wins).
 */
export function suggestSearch(search: string, words: readonly string[]): string | null {
  let replaced = false;
  const suggested = search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      if (!/^\p{L}+$/u.test(word) || [...word].length < MIN_WORD) return word;
      const wanted = stem(word);
      if (words.some((known) => known.includes(wanted))) return word;
      // As typed ("hodies" is two edits from "hoodie"), else as its stem ("shrits" cut to "shrit", two from "shirt").
      const near = (target: string) => closestMatch(target, words, { maxDistance: reach(target) });
      const closest = near(word) ?? (wanted !== word && wanted.length >= MIN_WORD ? near(wanted) : undefined);
      if (closest === undefined) return word;
      replaced = true;
      return closest;
    });
  return replaced ? suggested.join(' ') : null;
}
