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
 * and spills into whatever a page shows next), and every character Unicode
 * says a renderer may show as nothing (Default_Ignorable_Code_Point: zero-width
 * spaces and joiners, the soft hyphen, the Hangul fillers, tags), plus the
 * blank Braille pattern (U+2800, a symbol that shows as a space), which make
 * two different values look the same or a blank one look filled. What stays,
 * though ignorable: the implicit direction marks (U+200E, U+200F, U+061C),
 * which only settle the direction of neutral characters and right-to-left
 * writers type, and the variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF,
 * Mongolian U+180B-U+180D, U+180F), which choose how the character before
 * them looks (the red heart emoji is U+2764 U+FE0F).
 */
const DISGUISING = /(?![\u061c\u200e\u200f\p{Variation_Selector}])[\p{Default_Ignorable_Code_Point}\u2800]/u;

/**
 * Joiners where a spelling or an emoji needs them, which a single line keeps: the zero-width
 * non-joiner and joiner between letters (or marks) of scripts that join, where they choose a
 * letter's form (Persian writes می‌خواهم with U+200C; Indic scripts pick conjuncts with them), and the
 * joiner inside an emoji sequence (👩‍💻, a family, a flag), after an optional emoji variation selector
 * or skin tone. Between Latin, Greek or Cyrillic letters no spelling needs one, and there they would
 * only make two names look the same: refused, as everywhere else.
 */
const NEEDED_JOINER =
  /(?<=(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])[\p{L}\p{M}])[\u200c\u200d](?=(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])[\p{L}\p{M}])|(?<=\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;
const JOINER = /[\u200c\u200d]/;

/** Null when `value` is acceptable text of that kind, else why not (a validation message). */
export function isPlainText(value: string, kind: TextKind): string | null {
  if (!value.isWellFormed()) return 'must be valid Unicode text';
  if ((kind === 'multiline' ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value)) {
    return kind === 'multiline' ? 'must not contain control characters' : 'must not contain control characters or line breaks';
  }
  if (kind === 'line' && DISGUISING.test(JOINER.test(value) ? value.replace(NEEDED_JOINER, '') : value)) {
    return 'must not contain bidirectional controls or zero-width or other invisible characters (such as U+202E, U+2066, U+200B, U+00AD, U+3164)';
  }
  return null;
}

/**
 * Pattern of a required text field: at least one letter, digit, punctuation
 * mark or symbol, so a value of only spaces or invisible characters
 * (zero-width spaces, joiners, format marks) counts as blank; the Hangul
 * fillers and the blank Braille pattern, a letter and a symbol to Unicode,
 * show as nothing and count as blank too.
 */
export const VISIBLE = '(?![\\u115f\\u1160\\u3164\\uffa0\\u2800])[\\p{L}\\p{N}\\p{P}\\p{S}]';

/**
 * Pattern of a new password: at least two kinds of character (lower case, upper case, digits,
 * symbols), which is the same as holding one kind and something not of that kind. In the schema, so
 * a weak password is refused with every other field's problem in one answer (identity/rules.ts keeps
 * the rule's own statement, and the services still apply it).
 */
export const MIXED_PASSWORD =
  '^(?:(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[^a-z])|(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[^A-Z])|(?=[\\s\\S]*[0-9])(?=[\\s\\S]*[^0-9]))';
export const MIXED_PASSWORD_MESSAGE = 'must mix at least two of lower case, upper case, digits and symbols';
