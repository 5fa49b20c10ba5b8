import { ApiError, NetworkError, ResponseError } from '@commerce/client';
import { error, fail, isHttpError, isRedirect, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';

/** What a form action answers when the API refused: a sentence, field errors by field, the values to put back. */
export interface FormProblem {
  message: string;
  code?: string;
  errors: Record<string, string>;
  values: Record<string, string>;
}

const BUSY = 'The shop is busy right now. Please try again in a moment.';

export function waitSentence(seconds: number | null | undefined): string {
  if (!seconds || seconds <= 60) return 'Please wait a minute and try again.';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `Please try again in ${minutes} minutes.`;
  const hours = Math.round(minutes / 60);
  return `Please try again in about ${hours} ${hours === 1 ? 'hour' : 'hours'}.`;
}

/** The API could not be reached or did not answer as the API: the page says try again (503). */
const unavailable = (e: unknown) => e instanceof NetworkError || e instanceof ResponseError || (e instanceof ApiError && e.status === 503);

export function signInPath(event: Pick<RequestEvent, 'url'>, reason?: string): string {
  // Back to the page, not to the form action it posted to (`?/place`).
  const back = new URLSearchParams([...event.url.searchParams].filter(([name]) => !name.startsWith('/')));
  const params = new URLSearchParams({ next: event.url.pathname + (back.size > 0 ? `?${back}` : '') });
  if (reason) params.set('reason', reason);
  return `/login?${params}`;
}

/**
 * For loads: turns a refusal of the API into the page the shopper should see. 404 is the not-found
 * page, 400 a page that says the link is wrong, 401 the sign-in page (and back here after), 429 and 503 their own pages; anything else is
 * unexpected and left to the error handler (a 500 with the request ID, no detail).
 */
export function pageError(e: unknown, event: Pick<RequestEvent, 'url'>): never {
  if (isHttpError(e) || isRedirect(e)) throw e;
  if (e instanceof ApiError) {
    if (e.status === 404) error(404, { message: 'We could not find that page.', code: e.code });
    // A load asks only for what its URL says, so a refusal means the link carries something the shop cannot read.
    if (e.status === 400)
      error(400, { message: 'This link asks for something the shop cannot read. Check it, or search again.', code: e.code });
    if (e.status === 401) redirect(303, signInPath(event, 'expired'));
    if (e.status === 429)
      error(429, { message: `Too many requests. ${waitSentence(e.retryAfter)}`, code: e.code, retryAfter: e.retryAfter ?? undefined });
  }
  if (unavailable(e)) error(503, { message: BUSY, code: 'SERVICE_UNAVAILABLE', retryAfter: 5 });
  throw e;
}

/** Runs a load's work, mapping the API's refusals with pageError. */
export async function loading<T>(event: Pick<RequestEvent, 'url'>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    pageError(e, event);
  }
}

/** Field names the API reports (`new_password`, `items.0.quantity`) mapped to the form's own names. */
export type FieldMap = Record<string, string>;

/**
 * For actions: a refusal becomes a form failure (field errors next to their fields, a sentence for the
 * rest, the typed values back except passwords); a lost session goes to sign-in; the unexpected rethrows.
 */
export function formFailure(
  e: unknown,
  event: Pick<RequestEvent, 'url'>,
  values: Record<string, string> = {},
  sentences: Partial<Record<string, string>> = {},
  fields: FieldMap = {},
): ActionFailure<FormProblem> {
  if (isHttpError(e) || isRedirect(e)) throw e;
  if (e instanceof ApiError) {
    if (e.status === 401 && e.code === 'UNAUTHENTICATED') redirect(303, signInPath(event, 'expired'));
    const errors: Record<string, string> = {};
    for (const detail of e.details) {
      const field = fields[detail.field] ?? detail.field;
      errors[field] ??= fieldSentence(detail.message);
    }
    const message =
      sentences[e.code] ??
      (e.status === 429
        ? `Too many attempts. ${waitSentence(e.retryAfter)}`
        : e.code === 'CSRF_TOKEN_INVALID'
          ? 'This form had expired. Please try again.'
          : e.status === 503
            ? BUSY
            : Object.keys(errors).length > 0
              ? 'Please check the highlighted fields.'
              : sentenceCase(e.message));
    return fail(e.status === 503 ? 503 : e.status, { message, code: e.code, errors, values });
  }
  if (unavailable(e)) return fail(503, { message: BUSY, code: 'SERVICE_UNAVAILABLE', errors: {}, values });
  throw e;
}

/** The API's field messages are for developers ("must NOT have fewer than 8 characters"); these read as advice. */
export function fieldSentence(message: string): string {
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/^(is required|must not be blank)$/i, () => 'Please fill this in.'],
    [/^must NOT have fewer than (\d+) characters?$/i, (m) => `Use at least ${m[1]} characters.`],
    [/^must NOT have more than (\d+) characters?$/i, (m) => `Use at most ${m[1]} characters.`],
    [/^must match format "email"$/i, () => 'Enter an email address like name@example.com.'],
    [/^must match pattern/i, () => 'This is not in a format we can use.'],
    [/^must be >= (\S+)$/i, (m) => `Use ${m[1]} or more.`],
    [/^must be <= (\S+)$/i, (m) => `Use ${m[1]} or less.`],
  ];
  for (const [pattern, say] of rules) {
    const match = pattern.exec(message.trim());
    if (match) return say(match);
  }
  return sentenceCase(message);
}

const sentenceCase = (text: string) => {
  const trimmed = text.trim();
  const sentence = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
};

/** A failure of the storefront's own checks, in the same shape. */
export const invalid = (
  message: string,
  errors: Record<string, string> = {},
  values: Record<string, string> = {},
  status = 400,
): ActionFailure<FormProblem> => fail(status, { message, errors, values });
