import type { RequestEvent } from '@sveltejs/kit';
import { STOREFRONT_COOKIES } from './cookie-names';
import { readOnceCookie } from './read-once';

/**
 * A form sent without JavaScript is answered with a redirect to its page (post, redirect, get), so the
 * address bar never keeps the action (`/cart?/update`) and a reload never sends the form again; what
 * the form did is said there once, from one of these. With JavaScript the action's result says it.
 */
export const sentWithoutJavaScript = (event: Pick<RequestEvent, 'request'>) => !event.request.headers.has('x-sveltekit-action');

export const cartNotice = readOnceCookie<'updated' | 'removed'>({
  name: STOREFRONT_COOKIES.cartNotice,
  path: '/cart',
  maxAgeSeconds: 60,
  write: (what) => what,
  read: (raw) => (raw === 'updated' || raw === 'removed' ? raw : null),
});

/**
 * "Thank you, we have your order": said once, on the order page checkout sends the shopper to. Not a
 * query parameter, which a reload or a bookmark would say again.
 */
export const placedNotice = readOnceCookie<string>({
  name: STOREFRONT_COOKIES.placed,
  path: '/orders',
  maxAgeSeconds: 60,
  // The order it is about: another order's page, opened meanwhile, says nothing.
  write: (orderId) => orderId,
  read: (raw) => (/^ord_[A-Za-z0-9_-]{8,64}$/.test(raw) ? raw : null),
});

/** "Address saved and selected" at checkout: the address it is about, as the checkout keeps it chosen. */
export const addressAddedNotice = readOnceCookie<string>({
  name: STOREFRONT_COOKIES.addressAdded,
  path: '/checkout',
  maxAgeSeconds: 60,
  write: (addressId) => addressId,
  read: (raw) => (/^adr_[A-Za-z0-9]{1,60}$/.test(raw) ? raw : null),
});

/** On the cancelled order's own page only. */
export const cancelledNotice = readOnceCookie<true>({
  name: STOREFRONT_COOKIES.cancelled,
  path: 'this page',
  maxAgeSeconds: 60,
  write: () => '1',
  read: (raw) => (raw === '1' ? true : null),
});
