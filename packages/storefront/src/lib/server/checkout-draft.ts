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

/**
 * A draft as it comes back: `notesLost` when the note did not fit in the cookie (a browser keeps 4 KB), so the
 * page asks for it again; `dropped`, a coupon that applied until another code was tried and refused.
 */
export type KeptDraft = CheckoutDraft & { notesLost?: true; dropped?: string };

type TextKey = 'address' | 'coupon' | 'notes' | 'dropped';
const LIMITS: Record<TextKey, number> = { address: 40, coupon: 50, notes: 1000, dropped: 50 };
/**
 * Characters of cookie value a draft may take: browsers keep a cookie of at most 4,096 bytes, name and
 * attributes' share included, and drop a bigger one without a word. A thousand-character note in a
 * script of three bytes a character does not fit; then the rest is kept and the note asked for again.
 */
const VALUE_BUDGET = 3_800;

function bounded(parts: Partial<Record<keyof KeptDraft, unknown>>): KeptDraft {
  const text = (key: TextKey) => {
    const value = parts[key];
    return typeof value === 'string' ? value.slice(0, LIMITS[key]) : '';
  };
  return {
    address: text('address'),
    coupon: text('coupon'),
    notes: text('notes'),
    ...(parts.notesLost === true ? { notesLost: true } : {}),
    ...(text('dropped') ? { dropped: text('dropped') } : {}),
  };
}

/** JSON in base64url: letters the Cookie header carries as they are (percent-encoding would triple every non-ASCII byte). */
const encoded = (draft: KeptDraft) => Buffer.from(JSON.stringify(draft)).toString('base64url');

export const checkoutDraft = readOnceCookie<KeptDraft>({
  name: STOREFRONT_COOKIES.checkoutDraft,
  path: '/checkout',
  maxAgeSeconds: 30 * 60,
  write(value) {
    const draft = bounded(value);
    const whole = encoded(draft);
    return whole.length <= VALUE_BUDGET ? whole : encoded({ ...draft, notes: '', notesLost: true });
  },
  read(raw) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString());
      return typeof parsed === 'object' && parsed !== null ? bounded(parsed) : null;
    } catch {
      return null;
    }
  },
});
