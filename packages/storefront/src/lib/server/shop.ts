import { createCommerceClient, type CommerceClient, type DataOf } from '@commerce/client';
import type { RequestEvent } from '@sveltejs/kit';
import { keptAnswers } from './answer-cache';
import { API_COOKIES } from './cookie-names';
import { relayingJar } from './cookies';
import { readGuestCart, readGuestCartId, writeGuestCart, type GuestLine } from './guest-cart';
import { sharedCacheRecord } from './shared-cache';
import { apiTransport, type ApiTransport } from './transport';

export type SessionUser = NonNullable<DataOf<'/api/v1/auth/session', 'get'>['user']>;
export type AccountCart = DataOf<'/api/v1/cart', 'get'>;

const SESSION_COOKIE = API_COOKIES.session;
const RELAYED_COOKIES: ReadonlySet<string> = new Set(Object.values(API_COOKIES));

/**
 * Everything a page or form action needs to act for this shopper, made once per request (hooks.server.ts)
 * and never shared: API clients on the shopper's cookies, who is signed in, the CSRF token for the
 * page's forms, the guest cart.
 */
export function createShop(event: RequestEvent) {
  const transport: ApiTransport = apiTransport(event);
  const jar = relayingJar(event, RELAYED_COOKIES);
  const sharedCache = sharedCacheRecord();
  // Public answers of the catalog's current version come from this process (answer-cache.ts); each is still recorded.
  const reading = sharedCache.recording(keptAnswers(transport, transport.fetch));
  let cart: Promise<AccountCart | null> | undefined;
  // Any write may change the cart: the next page read asks again.
  const fetch: typeof reading = (input, init) => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method !== 'GET' && method !== 'HEAD') cart = undefined;
    return reading(input, init);
  };
  const client = (headers: Record<string, string> = {}, through: typeof fetch = fetch) =>
    createCommerceClient({
      baseUrl: transport.baseUrl,
      fetch: through,
      cookies: jar,
      headers: { ...transport.headers, ...headers },
    });
  let api: CommerceClient | undefined;
  let session: Promise<SessionUser | null> | undefined;
  const secure = event.url.protocol === 'https:';

  return {
    transport,
    /** What this page was built from, as a shared cache needs to know it (shared-cache.ts). */
    sharedCache,
    /** Reads, and follow-up writes of the storefront's own (their CSRF token fetched as needed). */
    get api(): CommerceClient {
      return (api ??= client());
    },
    /**
     * For a write the shopper asked for with a form: it sends the token the form carried and never
     * fetches one, so a forged form (no token, or another session's) is refused by the API.
     * `onAnswer` sees each response whole (its headers), for what a body does not say.
     */
    asForm(token: FormDataEntryValue | null, onAnswer?: (response: Response) => void): CommerceClient {
      const through: typeof fetch = onAnswer ? (input, init) => fetch(input, init).then((r) => (onAnswer(r), r)) : fetch;
      return client({ 'x-csrf-token': typeof token === 'string' ? token : '' }, through);
    },
    /** The signed-in account, or null; asked of the API once per request, and only when a session cookie came. */
    user(): Promise<SessionUser | null> {
      session ??= (async () => {
        if (!jar.has(SESSION_COOKIE)) return null;
        const state = await this.api.auth.session();
        if (!state.authenticated) event.cookies.delete(SESSION_COOKIE, { path: '/', secure });
        return state.authenticated ? (state.user ?? null) : null;
      })();
      return session;
    },
    /**
     * The signed-in account's cart (null for a visitor), read once for what this request shows: the
     * layout's count and the page's own lines share one read. A write through this shop reads it anew.
     */
    accountCart(): Promise<AccountCart | null> {
      cart ??= this.user().then((user) => (user ? this.api.cart.get() : null));
      return cart;
    },
    /** Forget what this request learnt about the session (after signing in or out). */
    forgetUser(): void {
      session = undefined;
      api = undefined;
      cart = undefined;
    },
    /** The CSRF token for this shopper's forms (fetching it sets the pre-session cookie for a visitor). */
    csrf(): Promise<string> {
      return this.api.csrfToken();
    },
    guestCart(): GuestLine[] {
      return readGuestCart(event.cookies);
    },
    /** The visitor's cart's own ID (guest-cart.ts), null before it has one. */
    guestCartId(): string | null {
      return readGuestCartId(event.cookies);
    },
    /** The visitor's cart, changed (a new cart ID) or, with `keepId`, written back by the merge. */
    saveGuestCart(lines: readonly GuestLine[], keepId = false): void {
      writeGuestCart(event.cookies, lines, secure, keepId);
    },
  };
}

export type Shop = ReturnType<typeof createShop>;
