/**
 * What text the API accepts. The request validator applies `isPlainText` to
 * every string (src/lib/validation.ts); schemas only say which fields may
 * span several lines, and which must show something a reader can see.
 */

/** Schema option (an OpenAPI extension) marking a field that may hold tabs and line breaks: comments, notes, descriptions. */
export const MULTILINE = 'x-multiline';
export const multiline = { [MULTILINE]: true } as const;

export type TextKind = 'line' | 'multiline';

// C0 controls, DEL and C1 controls; a single line also refuses the Unicode line and paragraph separators.
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/* eslint-enable no-control-regex */

/** Null when `value` is acceptable text of that kind, else why not (a validation message). */
export function isPlainText(value: string, kind: TextKind): string | null {
  if (!value.isWellFormed()) return 'must be valid Unicode text';
  if ((kind === 'line' ? CONTROL_IN_LINE : CONTROL_IN_TEXT).test(value)) {
    return kind === 'line' ? 'must not contain control characters or line breaks' : 'must not contain control characters';
  }
  return null;
}

/**
 * Pattern of a required text field: at least one letter, digit, punctuation
 * mark or symbol, so a value of only spaces or invisible characters
 * (zero-width spaces, joiners, format marks) counts as blank.
 */
export const VISIBLE = '[\\p{L}\\p{N}\\p{P}\\p{S}]';
