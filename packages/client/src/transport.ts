import type { CookieStore } from './cookies.js';
import { apiErrorOf, jsonOf, NetworkError, ResponseError, safeJson } from './errors.js';
import { IDEMPOTENT_OPERATIONS } from './generated/operations.js';

/**
 * What every request goes through, below openapi-fetch: cookies (outside the
 * browser), the CSRF token, Idempotency-Keys and retries. openapi-fetch
 * builds the typed request; this sends it.
 */
type Credentials = 'include' | 'same-origin' | 'omit';

export interface TransportOptions {
  fetch: typeof fetch;
  cookies: CookieStore | null;
  credentials: Credentials;
  /** Retries after a network failure, for reads and for writes sent with an Idempotency-Key. */
  retries: number;
  /** Milliseconds before the first retry; doubled for each further one. */
  retryDelay: number;
  csrfUrl: string;
}

const CSRF_HEADER = 'x-csrf-token';
const IDEMPOTENCY_HEADER = 'idempotency-key';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `/api/v1/orders/{order_public_id}` as a pattern matching `/api/v1/orders/ord_x`. */
const IDEMPOTENT = IDEMPOTENT_OPERATIONS.map((operation) => {
  const [method = '', path = ''] = operation.split(' ');
  return { method, pattern: new RegExp('^' + path.replace(/\{[^}]+\}/g, '[^/]+') + '$') };
});

/**
 * A successful write here may start or end the caller's session, so the CSRF token bound to it is spent: sign up,
 * sign in, accepting a staff invitation (it signs the new account in), sign out, revoking one session (perhaps
 * this one) and a password reset (which signs out every session of the account). Revoking the other sessions,
 * asking for a reset email or changing the password keep this session.
 */
const SESSION_WRITES = /\/auth\/(login|register|session|sessions\/[^/]+|password-reset\/verify|staff-invitations\/accept)$/;

/** A version 4 UUID from `crypto.getRandomValues` (present in browsers, Node 20+, Bun, Deno and edge runtimes, secure context or not). */
export function uuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTransport(options: TransportOptions) {
  let token: Promise<string> | null = null;

  /** One request with the cookie store's cookies; a changed cookie spends the CSRF token, except on the token's own fetch. */
  async function exchange(url: URL, init: RequestInit & { headers: Headers }, fetchingToken = false): Promise<Response> {
    if (options.cookies) {
      const cookie = await options.cookies.get(url);
      if (cookie) init.headers.set('cookie', cookie);
    }
    const response = await options.fetch(url.href, { ...init, credentials: options.credentials });
    if (options.cookies && typeof response.headers.getSetCookie === 'function') {
      // The token's own answer sets the pre-session cookie it is bound to: that token is the fresh one, keep it.
      if ((await options.cookies.set(url, response.headers.getSetCookie())) && !fetchingToken) token = null;
    }
    return response;
  }

  /** The CSRF token for the current cookies, fetched once and shared by concurrent writes. */
  function csrfToken(): Promise<string> {
    token ??= (async () => {
      let response: Response;
      let text: string;
      try {
        response = await exchange(
          new URL(options.csrfUrl, (globalThis as { location?: { href: string } }).location?.href),
          { method: 'GET', headers: new Headers() },
          true,
        );
        text = await response.text();
      } catch (error) {
        throw new NetworkError('Could not reach the service for a CSRF token', error);
      }
      // Refused (429, 503...): the service's own error, with its code and Retry-After.
      if (!response.ok) throw apiErrorOf(response, safeJson(text));
      const value = (jsonOf(response, text, 'GET /api/v1/auth/csrf-token') as { data?: { csrf_token?: unknown } } | undefined)?.data
        ?.csrf_token;
      if (typeof value !== 'string')
        throw new ResponseError(
          'GET /api/v1/auth/csrf-token: the answer carries no csrf_token',
          response.status,
          response.headers.get('content-type'),
          response.headers.get('x-request-id'),
          value,
        );
      return value;
    })();
    // A failed fetch is forgotten (unless a newer one took its place), so the next write asks again.
    const fetching = token;
    fetching.catch(() => {
      if (token === fetching) token = null;
    });
    return fetching;
  }

  async function isStaleToken(response: Response): Promise<boolean> {
    if (response.status !== 403) return false;
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string } } | null;
    return body?.error?.code === 'CSRF_TOKEN_INVALID';
  }

  /** Sends `request` with cookies, CSRF token and Idempotency-Key; retries network failures that are safe to retry. */
  async function send(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const write = !SAFE.has(method);
    const body = request.body ? await request.arrayBuffer() : undefined;
    const headers = new Headers(request.headers);
    if (IDEMPOTENT.some((op) => op.method === method && op.pattern.test(url.pathname)) && !headers.has(IDEMPOTENCY_HEADER)) {
      headers.set(IDEMPOTENCY_HEADER, uuid());
    }
    const retryable = !write || headers.has(IDEMPOTENCY_HEADER);
    let staleRetried = false;
    for (let attempt = 0; ; attempt++) {
      const attemptHeaders = new Headers(headers);
      if (write && !attemptHeaders.has(CSRF_HEADER)) attemptHeaders.set(CSRF_HEADER, await csrfToken());
      let response: Response;
      try {
        response = await exchange(url, { method, headers: attemptHeaders, body, signal: request.signal, redirect: request.redirect });
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (retryable && attempt < options.retries) {
          await sleep(options.retryDelay * 2 ** attempt);
          continue;
        }
        throw new NetworkError(`${method} ${url.pathname} failed: ${error instanceof Error ? error.message : String(error)}`, error);
      }
      if (write && !headers.has(CSRF_HEADER) && !staleRetried && (await isStaleToken(response))) {
        staleRetried = true;
        token = null;
        attempt--;
        continue;
      }
      if (write && response.ok && SESSION_WRITES.test(url.pathname)) token = null;
      return response;
    }
  }

  return {
    send,
    csrfToken,
    /** Forgets the CSRF token: the next write fetches a new one. */
    resetCsrf: () => {
      token = null;
    },
  };
}

export type Transport = ReturnType<typeof createTransport>;
