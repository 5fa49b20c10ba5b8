import { ApiError, NetworkError, type ErrorCode } from '@commerce/client';

/**
 * The API's refusals as people read them. A refusal is the client's ApiError, whose `code` is one of
 * the API's closed set of codes (ErrorCode); anything else is a lost request (NetworkError) or a
 * failure of the console itself.
 */

/**
 * The request ID of an unexpected failure (5xx), which lets support find its log line; an expected
 * refusal (a wrong password, a taken code) is the person's to act on, and an ID there is only noise.
 */
const supportReference = (error: ApiError): string => (error.status >= 500 && error.request_id ? ` (request ${error.request_id})` : '');

/** One sentence a person can act on, with a request ID for support when the failure was unexpected. */
/** Said where a write was refused because the session ended (the console asks to sign in again over the screen). */
const SESSION_ENDED = 'Your session had ended, so this was not done. Once you are signed in again, try it once more.';
const sessionEnded = (error: unknown) => ApiError.is(error, 'UNAUTHENTICATED');

export function describe(error: unknown): string {
  if (sessionEnded(error)) return SESSION_ENDED;
  if (error instanceof ApiError) return `${error.message}${supportReference(error)}`;
  if (error instanceof NetworkError) return 'The service cannot be reached. Check the connection and try again.';
  return error instanceof Error ? error.message : 'Something went wrong';
}

/** `describe` without the request ID, for a message shown next to one input. */
export const describeBriefly = (error: unknown): string => describe(error).replace(/ \(request [^)]+\)$/, '');

/**
 * The API's field errors keyed by form field, for Mantine's `form.setErrors`. Fields are named as the
 * API names them (`body.price` and `price` both map to `price`); the rest of the message goes to a toast.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  for (const detail of error.details) {
    if (!detail.field) continue;
    const field = detail.field
      .replace(/^(body|query|params)[./]/, '')
      .replaceAll('/', '.')
      .replace(/^\./, '');
    out[field] ??= detail.message;
  }
  return out;
}

/** The key under which `placeErrors` keeps what belongs to no input; `FormErrors` shows it. */
export const FORM_ERROR = '_form';

export interface Placement {
  /** Form paths that have an input on screen: a name, or a pattern such as /^images\.\d+\.alt_text$/. */
  inputs: readonly (string | RegExp)[];
  /**
   * Refusal codes that concern one input, e.g. { SLUG_TAKEN: 'slug' }: the API's message goes next to
   * it, or the one given ({ INVALID_PASSWORD: ['current_password', 'This is not your current password'] }).
   */
  codes?: Partial<Record<ErrorCode, string | [field: string, message: string]>>;
  /** The form's name for an API field when they differ, e.g. options.size → options, quantity_on_hand → stock. */
  rename?: (field: string) => string;
  /** How to name a field that has no input, e.g. images.0.url → "Image 1"; else a readable form of its path. */
  label?: (field: string) => string | undefined;
}

/** `images.0.url` → "Images 1 url": a person reads the field's name, not its path. */
function readable(field: string): string {
  const words = field
    .replace(/\.(\d+)(?=\.|$)/g, (_m, n: string) => ` ${Number(n) + 1}`)
    .replaceAll(/[._]/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The API's refusal as errors for a Mantine form: each field error next to its input, and everything
 * that has no input on this form (`images.0.url`, a refusal without field details) under FORM_ERROR,
 * so `<FormErrors>` shows it. Nothing the API said is dropped.
 */
export function placeErrors(error: unknown, { inputs, codes = {}, rename = (field) => field, label }: Placement): Record<string, string> {
  if (sessionEnded(error)) return { [FORM_ERROR]: SESSION_ENDED };
  const refusal = ApiError.is(error) ? error : null;
  const out: Record<string, string> = {};
  const elsewhere: string[] = [];
  const hasInput = (field: string) => inputs.some((input) => (typeof input === 'string' ? input === field : input.test(field)));
  for (const [apiField, message] of Object.entries(fieldErrors(error))) {
    const field = rename(apiField);
    if (hasInput(field)) out[field] ??= capitalised(message);
    else {
      const name = label?.(field) ?? readable(field);
      // API messages read on from the field's name ("is required"); others stand alone.
      elsewhere.push(/^[a-z]/.test(message) ? `${name} ${message}` : `${name}: ${message}`);
    }
  }
  const coded = refusal ? codes[refusal.code] : undefined;
  const [codedField, codedMessage] = typeof coded === 'string' ? [coded, refusal!.message] : (coded ?? []);
  if (codedField && hasInput(codedField)) out[codedField] = codedMessage!;
  else if (Object.keys(out).length === 0 || elsewhere.length > 0) {
    const said = refusal ? `${refusal.message.replace(/[.!?]?$/, '.')} ${elsewhere.map((e) => `${e}.`).join(' ')}`.trim() : describe(error);
    out[FORM_ERROR] = refusal ? `${said}${supportReference(refusal)}` : said;
  }
  return out;
}

const capitalised = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);
