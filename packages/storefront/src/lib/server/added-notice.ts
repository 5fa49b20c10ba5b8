import type { Cookies } from '@sveltejs/kit';

/**
 * "Added to your cart" after a form sent without JavaScript. That post is answered with a redirect to
 * the product's page (post, redirect, get), so reloading the page it lands on never adds the item
 * again; the notice rides along in a cookie the page reads once, scoped to that product's path, never
 * in the URL (where any link could say it).
 */
export const ADDED_COOKIE = 'added';

const VALUE = /^([a-z]{3}_[A-Za-z0-9_-]{8,64})~(\d{1,3})$/;

export function rememberAdded(cookies: Cookies, path: string, variant: string, quantity: number, secure: boolean): void {
  cookies.set(ADDED_COOKIE, `${variant}~${quantity}`, { path, httpOnly: true, sameSite: 'lax', secure, maxAge: 60 });
}

/** The variant and quantity just added, once (the cookie is gone after), or null. */
export function takeAdded(cookies: Cookies, path: string, secure: boolean): { variant: string; quantity: number } | null {
  const raw = cookies.get(ADDED_COOKIE);
  if (raw === undefined) return null;
  cookies.delete(ADDED_COOKIE, { path, secure });
  const match = VALUE.exec(raw);
  return match ? { variant: match[1]!, quantity: Number(match[2]) } : null;
}
