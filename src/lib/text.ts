/**
 * What text the API accepts. The request validator applies `isPlainText` to
 * every string (src/lib/validation.ts); schemas only say which fields may
 * span several lines, and which must show something a reader can see.
 */

/** Schema option (an OpenAPI extension) marking a field that may hold tabs and line breaks: comments, notes, descriptions. */
export const MULTILINE = 'x-multiline';
export const multiline = { [MULTILINE]: true } as const;

/** OpenAPI's `password` format marks a secret (kind `secret` below); clients hide what is typed. */
export const secret = { format: 'password' } as const;

/**
 * `line`: names, addresses, SKUs, codes, titles, search terms; `multiline`:
 * comments, notes, descriptions; `secret`: a password, one line that is
 * never shown, so any printable character may be part of it.
 */
export type TextKind = 'line' | 'multiline' | 'secret';

// C0 controls, DEL and C1 controls; a single line also refuses the Unicode line and paragraph separators.
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/* eslint-enable no-control-regex */

/**
 * Characters that let a single line disguise itself: bidirectional
 * embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which
 * reorder the text after them (`abc\u202Etxt.exe` shows as `abcexe.txt`,
 * and spills into whatever a page shows next), and zero-width or invisible
 * characters (U+200B-U+200D, U+2060-U+2064, U+FEFF), which make two
 * different values look the same. The implicit marks (U+200E, U+200F) stay:
 * they only settle the direction of neutral characters, and right-to-left
 * writers type them.
 */
const DISGUISING = /[\u200b-\u200d\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** Null when `value` is acceptable text of that kind, else why not (a validation message). */
export function isPlainText(value: string, kind: TextKind): string | null {
  if (!value.isWellFormed()) return 'must be valid Unicode text';
  if ((kind === 'multiline' ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value)) {
    return kind === 'multiline' ? 'must not contain control characters' : 'must not contain control characters or line breaks';
  }
  if (kind === 'line' && DISGUISING.test(value)) {
    return 'must not contain bidirectional controls or zero-width characters (U+202A-U+202E, U+2066-U+2069, U+200B-U+200D, U+2060-U+2064, U+FEFF)';
  }
  return null;
}

/**
 * Pattern of a required text field: at least one letter, digit, punctuation
 * mark or symbol, so a value of only spaces or invisible characters
 * (zero-width spaces, joiners, format marks) counts as blank.
 */
export const VISIBLE = '[\\p{L}\\p{N}\\p{P}\\p{S}]';
