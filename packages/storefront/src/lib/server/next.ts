const HERE = 'http://this-shop.invalid';

/**
 * Where to go after signing in: a path on this site only. The value is resolved the way a browser
 * resolves a Location header (WHATWG URL: tabs and newlines dropped, backslashes read as slashes), so
 * `//evil.example`, `/\evil.example` and `/<tab>/evil.example` all leave the site and fall back; what is
 * returned is the resolved path, percent-encoded, so it is a valid header value too.
 */
export function safeNext(value: string | null | undefined, fallback = '/account'): string {
  if (!value || !value.startsWith('/') || value.length > 1000) return fallback;
  let url: URL;
  try {
    url = new URL(value, HERE);
  } catch {
    return fallback;
  }
  // A path that resolves to `//...` (`/.//x`) would read as another host in a Location header.
  return url.origin === HERE && !url.pathname.startsWith('//') ? url.pathname + url.search + url.hash : fallback;
}

/** Why the sign-in page was shown, as the shopper reads it. */
export const SIGN_IN_REASONS: Record<string, string> = {
  expired: 'Your session has ended. Please sign in again; your cart is saved.',
  checkout: 'Sign in or create an account to check out. Your cart comes with you.',
  review: 'Sign in to write a review.',
  account: 'Please sign in to see your account.',
  order: 'Sign in to see your order.',
  reset: 'Your password has been changed. Sign in with the new one.',
};
