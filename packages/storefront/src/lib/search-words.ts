const MAX_SEARCH = 200;

/*
 * What search words may not hold, as the API's text rules say (src/lib/text.ts): control characters and
 * line breaks, bidirectional controls and the characters a page shows as nothing. Direction marks,
 * variation selectors and the joiners stay (Persian and emoji need them; the API places them).
 */
/* eslint-disable no-control-regex -- matching control characters is the point */
const NOT_SEARCHABLE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|(?![\u061c\u200c-\u200f\p{Variation_Selector}])[\p{Default_Ignorable_Code_Point}\u2800]/gu;
/* eslint-enable no-control-regex */

/**
 * The words to search for, as typed or as a link carries them: what the API would refuse becomes a
 * space, spaces collapse, and the length is cut at 200 without splitting a character in two.
 */
export function searchWords(raw: string): string {
  const words = raw.toWellFormed().replace(NOT_SEARCHABLE, ' ').replace(/\s+/g, ' ').trim();
  if (words.length <= MAX_SEARCH) return words;
  let cut = '';
  for (const character of words) {
    if (cut.length + character.length > MAX_SEARCH) break;
    cut += character;
  }
  return cut.trim();
}
