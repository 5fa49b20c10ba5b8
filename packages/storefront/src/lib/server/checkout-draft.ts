import type { Cookies } from '@sveltejs/kit';

/**
 * What a shopper had filled in at checkout when their session ended under them (the address chosen,
 * a coupon, a note to the shop): kept across the sign-in in a cookie of the storefront's own, scoped
 * to /checkout, read once when checkout opens again, so signing in again does not cost them their
 * note. Never forwarded to the API (shop.ts), never in the URL.
 */
export const DRAFT_COOKIE = 'checkout_draft';

export interface CheckoutDraft {
  address: string;
  coupon: string;
  notes: string;
}

const PATH = '/checkout';

export function keepDraft(cookies: Cookies, draft: CheckoutDraft, secure: boolean): void {
  const value = JSON.stringify({
    address: draft.address.slice(0, 40),
    coupon: draft.coupon.slice(0, 50),
    notes: draft.notes.slice(0, 1000),
  });
  cookies.set(DRAFT_COOKIE, value, { path: PATH, httpOnly: true, sameSite: 'lax', secure, maxAge: 30 * 60 });
}

/** The draft kept at the last sign-out by expiry, once (the cookie is gone after), or null. */
export function takeDraft(cookies: Cookies, secure: boolean): CheckoutDraft | null {
  const raw = cookies.get(DRAFT_COOKIE);
  if (raw === undefined) return null;
  cookies.delete(DRAFT_COOKIE, { path: PATH, secure });
  try {
    const parsed = JSON.parse(raw) as Partial<Record<keyof CheckoutDraft, unknown>>;
    const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
    return { address: text(parsed.address, 40), coupon: text(parsed.coupon, 50), notes: text(parsed.notes, 1000) };
  } catch {
    return null;
  }
}
