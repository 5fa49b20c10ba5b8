import { STOREFRONT_COOKIES } from './cookie-names';
import { readOnceCookie } from './read-once';

/**
 * "Added to your cart" after a form sent without JavaScript. That post is answered with a redirect to
 * the product's page (post, redirect, get), so reloading the page it lands on never adds the item
 * again; the notice rides along to that product's page only.
 */
export const addedNotice = readOnceCookie<AddedLine>({
  name: STOREFRONT_COOKIES.added,
  path: 'this page',
  maxAgeSeconds: 60,
  write: ({ variant, quantity, again }) => `${variant}~${quantity}${again ? '~again' : ''}`,
  read(raw) {
    const match = /^([a-z]{3}_[A-Za-z0-9_-]{8,64})~(\d{1,3})(~again)?$/.exec(raw);
    return match ? { variant: match[1]!, quantity: Number(match[2]), again: match[3] !== undefined } : null;
  },
});

/** A line added; `again` when the form had added it before and this send added nothing (add-to-cart's `again`). */
export interface AddedLine {
  variant: string;
  quantity: number;
  again: boolean;
}
