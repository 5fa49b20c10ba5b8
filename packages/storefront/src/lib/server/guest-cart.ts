import { createHash, randomBytes } from 'node:crypto';
import type { Cookies } from '@sveltejs/kit';
import { STOREFRONT_COOKIES } from './cookie-names';
import { readOnceCookie } from './read-once';

/**
 * A visitor's cart before they sign in. The API keeps carts for accounts only, so until then the
 * lines live in a cookie of the storefront's own (product, variant and quantity: no prices, which
 * always come fresh from the API). Signing in or registering moves them into the account's cart.
 */
export const GUEST_CART_COOKIE = STOREFRONT_COOKIES.guestCart;
export const MAX_GUEST_LINES = 30;
export const MAX_QUANTITY = 999;

export interface GuestLine {
  product: string;
  variant: string;
  quantity: number;
}

const ID = /^[a-z]{3}_[A-Za-z0-9_-]{8,64}$/;

/**
 * The cart's own ID, its first entry (`id~<value>`; the line parser skips it, as it skips anything
 * that is not a line): a new one whenever the visitor changes the cart, kept only when the merge into
 * an account's cart writes back the lines it did not move. The merge builds its Idempotency-Keys from
 * it, so a merge sent twice (a form pressed twice, a retry after an answer lost) adds each line once,
 * while the same line added again later, in a cart changed since, is added again.
 */
const CART_ID = /^id~([A-Za-z0-9_-]{16,32})$/;

export function readGuestCartId(cookies: Cookies): string | null {
  const raw = cookies.get(GUEST_CART_COOKIE);
  if (!raw) return null;
  // A cart written before carts had an ID is known by its contents until it is next written (with that as its ID).
  return CART_ID.exec(raw.split('.')[0] ?? '')?.[1] ?? createHash('sha256').update(raw).digest('base64url').slice(0, 22);
}

/** `prd~var~qty` lines joined by dots: characters public IDs never contain. Anything malformed is dropped. */
export function readGuestCart(cookies: Cookies): GuestLine[] {
  const raw = cookies.get(GUEST_CART_COOKIE);
  if (!raw) return [];
  const lines: GuestLine[] = [];
  for (const entry of raw
    .split('.')
    .filter((entry) => !entry.startsWith('id~'))
    .slice(0, MAX_GUEST_LINES)) {
    const [product = '', variant = '', quantity = ''] = entry.split('~');
    const count = Number(quantity);
    if (!ID.test(product) || !ID.test(variant) || !Number.isInteger(count) || count < 1) continue;
    if (lines.some((line) => line.variant === variant)) continue;
    lines.push({ product, variant, quantity: Math.min(count, MAX_QUANTITY) });
  }
  return lines;
}

/** Writes the visitor's cart: under a new ID, unless `keepId` (the merge's write-back of what it did not move). */
export function writeGuestCart(cookies: Cookies, lines: readonly GuestLine[], secure: boolean, keepId = false): void {
  if (lines.length === 0) {
    cookies.delete(GUEST_CART_COOKIE, { path: '/', secure });
    return;
  }
  const id = (keepId ? readGuestCartId(cookies) : null) ?? randomBytes(12).toString('base64url');
  const value = [`id~${id}`, ...lines.map((line) => `${line.product}~${line.variant}~${line.quantity}`)].join('.');
  cookies.set(GUEST_CART_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: 60 * 60 * 24 * 30,
    encode: (text: string) => text,
  });
}

/** Adds to the variant's line (as the API's cart does), or a new line; false when the cart is full. */
export function addGuestLine(lines: GuestLine[], line: GuestLine): boolean {
  const existing = lines.find((l) => l.variant === line.variant);
  if (existing) {
    existing.quantity = Math.min(existing.quantity + line.quantity, MAX_QUANTITY);
    return true;
  }
  if (lines.length >= MAX_GUEST_LINES) return false;
  lines.push({ ...line, quantity: Math.min(line.quantity, MAX_QUANTITY) });
  return true;
}

/** The cart's word about the sign-in that just merged a guest cart (counts; Merged in cart.ts says what each is). */
export interface MergeNotice {
  saved: number;
  unavailable: number;
  capped: number;
  kept: number;
  /** The account's cart was full (the API's line cap, this many lines), so new products were kept; 0 when it was not. */
  full: number;
}
export const NO_MERGE_NOTICE: MergeNotice = { saved: 0, unavailable: 0, capped: 0, kept: 0, full: 0 };

export const mergeNotice = readOnceCookie<MergeNotice>({
  name: STOREFRONT_COOKIES.merged,
  path: '/cart',
  maxAgeSeconds: 60,
  write: ({ saved, unavailable, capped, kept, full }) => `${saved}.${unavailable}.${capped}.${kept}.${full}`,
  read(raw) {
    const [saved = 0, unavailable = 0, capped = 0, kept = 0, full = 0] = raw
      .split('.')
      .map((n) => (/^\d{1,4}$/.test(n) ? Math.min(Number(n), 999) : 0));
    return { saved, unavailable, capped, kept, full };
  },
});
