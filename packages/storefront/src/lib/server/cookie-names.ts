/**
 * Every cookie a page can depend on, named in one place. A request carrying none of them is a visitor
 * nobody knows yet: their page is everyone's, whatever other cookies they bring (an analytics or
 * consent cookie set by the shop's own scripts), so it may be kept and shared (page-cache.ts,
 * hooks.server.ts, and deploy/varnish/commerce.vcl, which lists the same names; a test holds the
 * three lists and the API's cookies together).
 */

/** The API's cookies, relayed between the browser and the API: the session, and the pre-session cookie a visitor's CSRF tokens are bound to. */
export const API_COOKIES = { session: 'session', presession: 'presession' } as const;

/** The storefront's own cookies, never relayed to the API: the guest cart, the coupon and address chosen at checkout, and the read-once notices (read-once.ts). */
export const STOREFRONT_COOKIES = {
  guestCart: 'cart',
  added: 'added',
  merged: 'merged',
  cartNotice: 'cart_notice',
  cancelled: 'cancelled',
  checkoutDraft: 'checkout_draft',
  checkoutCoupon: 'checkout_coupon',
  checkoutAddress: 'checkout_address',
  addressAdded: 'address_added',
  placed: 'placed',
} as const;

export const OWN_COOKIES: ReadonlySet<string> = new Set(Object.values(STOREFRONT_COOKIES));
export const PERSONAL_COOKIES: ReadonlySet<string> = new Set([...Object.values(API_COOKIES), ...OWN_COOKIES]);

/**
 * A Cookie header's `name=value` pairs, read as SvelteKit and the API read them: split at `;`, the
 * name before the first `=` (case-sensitive, trimmed); a pair without `=` is no cookie.
 */
export function* cookiePairs(header: string | null): Generator<[name: string, value: string]> {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) yield [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
  }
}

/** Whether a Cookie header carries any cookie a page can depend on. */
export function carriesPersonalCookie(header: string | null): boolean {
  for (const [name] of cookiePairs(header)) if (PERSONAL_COOKIES.has(name)) return true;
  return false;
}

/** Whether the only cookie a page can depend on that a Cookie header carries is `only` (any number of times). */
export function carriesOnlyPersonalCookie(header: string | null, only: string): boolean {
  let found = false;
  for (const [name] of cookiePairs(header)) {
    if (name === only) found = true;
    else if (PERSONAL_COOKIES.has(name)) return false;
  }
  return found;
}
