/**
 * Every cookie a page can depend on, named in one place. A request carrying none of them is a visitor
 * nobody knows yet: their page is everyone's, whatever other cookies they bring (an analytics or
 * consent cookie set by the shop's own scripts), so it may be kept and shared (page-cache.ts,
 * hooks.server.ts, and deploy/varnish/commerce.vcl, which lists the same names; a test holds the
 * three lists and the API's cookies together).
 */

/** The API's cookies, relayed between the browser and the API: the session, and the pre-session cookie a visitor's CSRF tokens are bound to. */
export const API_COOKIES = { session: 'session', presession: 'presession' } as const;

/** The storefront's own cookies, never relayed to the API: the guest cart, and the read-once notices (read-once.ts). */
export const STOREFRONT_COOKIES = {
  guestCart: 'cart',
  added: 'added',
  merged: 'merged',
  cartNotice: 'cart_notice',
  cancelled: 'cancelled',
  checkoutDraft: 'checkout_draft',
  placed: 'placed',
} as const;

export const OWN_COOKIES: ReadonlySet<string> = new Set(Object.values(STOREFRONT_COOKIES));
export const PERSONAL_COOKIES: ReadonlySet<string> = new Set([...Object.values(API_COOKIES), ...OWN_COOKIES]);

/**
 * Whether a Cookie header carries any cookie a page can depend on: a `name=value` pair of one of them
 * (names are case-sensitive; a pair without `=` is no cookie to SvelteKit or the API either).
 */
export function carriesPersonalCookie(header: string | null): boolean {
  if (!header) return false;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && PERSONAL_COOKIES.has(pair.slice(0, eq).trim())) return true;
  }
  return false;
}
