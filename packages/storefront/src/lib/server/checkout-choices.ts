import { STOREFRONT_COOKIES } from './cookie-names.js';
import type { CookieEvent } from './read-once.js';

/** The API's longest coupon code. */
const MAX_CODE = 50;

/** A code as typed or as a link carries it: trimmed, at most as long as the API takes. */
export const couponCode = (raw: string) => raw.trim().slice(0, MAX_CODE);

const scope = (event: CookieEvent) => ({ path: '/checkout', secure: event.url.protocol === 'https:' });

/**
 * A choice a shopper made at checkout, kept until they change it or the order is placed: a reload,
 * Back from another page, or the page read again after a refusal all show the order as they left it.
 * A cookie of the storefront's own, httpOnly and scoped to the checkout (never relayed to the API,
 * never on a page a cache may keep); a day at most, as a cart left overnight is checked out afresh.
 */
function checkoutChoice(name: string, maxLength: number) {
  const choice = {
    read(event: CookieEvent): string {
      return (event.cookies.get(name) ?? '').trim().slice(0, maxLength);
    },
    keep(event: CookieEvent, value: string): void {
      if (!value) return choice.forget(event);
      event.cookies.set(name, value.slice(0, maxLength), { ...scope(event), httpOnly: true, sameSite: 'lax', maxAge: 24 * 60 * 60 });
    },
    forget(event: CookieEvent): void {
      if (event.cookies.get(name) !== undefined) event.cookies.delete(name, scope(event));
    },
  };
  return choice;
}

/** The coupon applied: the total is quoted with it. */
export const checkoutCoupon = checkoutChoice(STOREFRONT_COOKIES.checkoutCoupon, MAX_CODE);

/** The address the order goes to, when it is not the default: chosen among the book's, or added there. */
export const checkoutAddress = checkoutChoice(STOREFRONT_COOKIES.checkoutAddress, 64);
