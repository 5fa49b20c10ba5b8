import { STOREFRONT_COOKIES } from './cookie-names.js';
import type { CookieEvent } from './read-once.js';

const NAME = STOREFRONT_COOKIES.checkoutCoupon;
/** The API's longest coupon code. */
const MAX_CODE = 50;

/** A code as typed or as a link carries it: trimmed, at most as long as the API takes. */
export const couponCode = (raw: string) => raw.trim().slice(0, MAX_CODE);

const scope = (event: CookieEvent) => ({ path: '/checkout', secure: event.url.protocol === 'https:' });

/**
 * The coupon a shopper applied at checkout, kept until they change it or the order is placed: a reload,
 * Back from another page, or the quote read again after a refusal all price the order with it. A
 * cookie of the storefront's own, httpOnly and scoped to the checkout (never relayed to the API, never
 * on a page a cache may keep); a day at most, as a cart left overnight is priced afresh.
 */
export const checkoutCoupon = {
  read(event: CookieEvent): string {
    return couponCode(event.cookies.get(NAME) ?? '');
  },
  keep(event: CookieEvent, code: string): void {
    if (!code) return checkoutCoupon.forget(event);
    event.cookies.set(NAME, code.slice(0, MAX_CODE), { ...scope(event), httpOnly: true, sameSite: 'lax', maxAge: 24 * 60 * 60 });
  },
  forget(event: CookieEvent): void {
    if (event.cookies.get(NAME) !== undefined) event.cookies.delete(NAME, scope(event));
  },
};
