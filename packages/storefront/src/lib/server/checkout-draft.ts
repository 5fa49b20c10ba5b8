import { STOREFRONT_COOKIES } from './cookie-names';
import { readOnceCookie } from './read-once';

/**
 * What a shopper had filled in at checkout when their session ended under them (the address chosen,
 * a coupon, a note to the shop): kept across the sign-in and read once when checkout opens again, so
 * signing in again does not cost them their note.
 */
export interface CheckoutDraft {
  address: string;
  coupon: string;
  notes: string;
}

const LIMITS: Record<keyof CheckoutDraft, number> = { address: 40, coupon: 50, notes: 1000 };

function bounded(parts: Partial<Record<keyof CheckoutDraft, unknown>>): CheckoutDraft {
  const text = (key: keyof CheckoutDraft) => {
    const value = parts[key];
    return typeof value === 'string' ? value.slice(0, LIMITS[key]) : '';
  };
  return { address: text('address'), coupon: text('coupon'), notes: text('notes') };
}

export const checkoutDraft = readOnceCookie<CheckoutDraft>({
  name: STOREFRONT_COOKIES.checkoutDraft,
  path: '/checkout',
  maxAgeSeconds: 30 * 60,
  write: (draft) => JSON.stringify(bounded(draft)),
  read(raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'object' && parsed !== null ? bounded(parsed) : null;
    } catch {
      return null;
    }
  },
});
