import { ApiError, NetworkError, ResponseError, type CommerceClient, type DataOf } from '@commerce/client';
import { productsById, storeSettings, type Product } from './catalog';
import { addGuestLine, MAX_QUANTITY, mergeNotice, type GuestLine } from './guest-cart';
import type { CookieEvent } from './read-once';
import { fromCents, toCents } from './money';
import type { Shop } from './shop';

export interface CartLineView {
  variant: string;
  product: string;
  name: string;
  slug: string | null;
  image: { url: string; alt: string } | null;
  variantName: string;
  unitPrice: string | null;
  quantity: number;
  lineTotal: string | null;
  /** On sale with enough stock for this quantity now. */
  available: boolean;
  /** How many can be bought now, when the line asks for more and the shop says how many there are; else null. */
  left: number | null;
}

export interface CartView {
  lines: CartLineView[];
  subtotal: string;
  currency: string;
  itemCount: number;
  /** A visitor's cart (kept by the storefront until they sign in). */
  guest: boolean;
}

type ApiCart = DataOf<'/api/v1/cart', 'get'>;

/** The guest cart is full (the storefront keeps at most MAX_GUEST_LINES lines for a visitor). */
export class GuestCartFull extends Error {}

/** A line's picture: its variant's own (a colour's photo) when it has one, else the product's first. */
const imageOf = (product: Product | undefined, variant: Product['variants'][number] | undefined) => {
  const image = variant?.images[0] ?? product?.images[0];
  return image && product ? { url: image.url, alt: image.alt_text ?? product.name } : null;
};

/** The cart as the cart page shows it: the API's cart (and totals) when signed in, else the guest cart. */
export async function cartView(shop: Shop): Promise<CartView> {
  const cart = await shop.accountCart();
  if (cart) return accountCart(shop, cart);
  return guestCart(shop, shop.guestCart());
}

export async function accountCart(shop: Shop, cart: ApiCart): Promise<CartView> {
  const products = await productsById(
    shop,
    cart.items.map((line) => line.product_public_id),
  );
  return {
    lines: cart.items.map((line) => {
      const product = products.get(line.product_public_id);
      const variant = product?.variants.find((v) => v.public_id === line.variant_public_id);
      return {
        variant: line.variant_public_id,
        product: line.product_public_id,
        name: line.product_name,
        slug: product?.slug ?? null,
        image: imageOf(product, variant),
        variantName: variant?.name ?? Object.values(line.options).join(' / '),
        unitPrice: line.unit_price,
        quantity: line.quantity,
        lineTotal: line.line_total,
        available: line.available,
        left: line.quantity_available,
      };
    }),
    subtotal: cart.subtotal,
    currency: cart.currency,
    itemCount: cart.item_count,
    guest: false,
  };
}

/** What the API says of each line of a visitor's cart, as it says it of an account's cart lines: by variant. */
async function availabilityOf(shop: Shop, lines: readonly GuestLine[]): Promise<Map<string, LineAvailability>> {
  if (lines.length === 0) return new Map();
  const answer = await shop.api.cart.availability(lines.map((line) => ({ variant_public_id: line.variant, quantity: line.quantity })));
  return new Map(answer.items.map((item) => [item.variant_public_id, item]));
}
type LineAvailability = DataOf<'/api/v1/cart/availability', 'post'>['items'][number];

async function guestCart(shop: Shop, lines: readonly GuestLine[]): Promise<CartView> {
  const productIds = lines.map((line) => line.product);
  const [products, availability, settings] = await Promise.all([
    productsById(shop, productIds),
    availabilityOf(shop, lines),
    storeSettings(shop),
  ]);
  let subtotal = 0;
  const views = lines.map((line): CartLineView => {
    const product = products.get(line.product);
    const variant = product?.variants.find((v) => v.public_id === line.variant);
    const total = variant ? toCents(variant.price) * line.quantity : null;
    if (total !== null) subtotal += total;
    return {
      variant: line.variant,
      product: line.product,
      name: product?.name ?? 'No longer available',
      slug: product?.slug ?? null,
      image: imageOf(product, variant),
      variantName: variant?.name ?? '',
      unitPrice: variant?.price ?? null,
      quantity: line.quantity,
      lineTotal: total === null ? null : fromCents(total),
      available: Boolean(variant) && (availability.get(line.variant)?.available ?? false),
      left: variant ? (availability.get(line.variant)?.quantity_available ?? null) : null,
    };
  });
  return {
    lines: views,
    subtotal: fromCents(subtotal),
    currency: settings.currency,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    guest: true,
  };
}

/** How many of a variant the shopper's cart holds now. */
export async function quantityInCart(shop: Shop, variant: string): Promise<number> {
  const cart = await shop.accountCart();
  if (cart) return cart.items.find((line) => line.variant_public_id === variant)?.quantity ?? 0;
  return shop.guestCart().find((line) => line.variant === variant)?.quantity ?? 0;
}

/**
 * Whether adding `line` would ask for more than there is, with what the cart already holds: the
 * count a cart line would give (the API gives it only when the quantity asked is more), refused at the
 * quantity rather than at the cart page.
 */
export async function shortOf(shop: Shop, line: GuestLine, held: number): Promise<{ left: number; inCart: number } | null> {
  const [answer] = (
    await shop.api.cart.availability([{ variant_public_id: line.variant, quantity: Math.min(line.quantity + held, MAX_QUANTITY) }])
  ).items;
  return answer !== undefined && answer.quantity_available !== null ? { left: answer.quantity_available, inCart: held } : null;
}

/**
 * Adds a line for the shopper: the account's cart with the form's CSRF token (and `idempotencyKey`,
 * so the form sent twice adds once), or the guest cart.
 */
/**
 * Adds a line to the shopper's cart. `again`: the API answered with the add this key made before (a
 * form sent a second time) and added nothing now.
 */
export async function addToCart(
  shop: Shop,
  csrf: FormDataEntryValue | null,
  line: GuestLine,
  idempotencyKey?: string,
): Promise<{ again: boolean }> {
  if ((await cartFormFor(shop, csrf)) === 'account') {
    let again = false;
    const noteReplay = (response: Response) => (again = response.headers.get('idempotent-replayed') === 'true');
    await shop
      .asForm(csrf, noteReplay)
      .cart.add({ variant_public_id: line.variant, quantity: line.quantity }, idempotencyKey ? { idempotencyKey } : {});
    return { again };
  }
  const lines = shop.guestCart();
  if (!addGuestLine(lines, line)) throw new GuestCartFull();
  shop.saveGuestCart(lines);
  return { again: false };
}

/** A cart form made for a signed-in shopper came after their session ended (signed out in another tab, or expired). */
export class SignedOut extends Error {}

/**
 * Whose cart a cart or product page's form changes. Only a signed-in shopper's forms carry a CSRF
 * token (cart/+page.server.ts, p/[slug]/+page.server.ts), so a form with one and no session was made
 * for an account: the guest cart is not the cart it meant, and nothing is changed.
 */
async function cartFormFor(shop: Shop, csrf: FormDataEntryValue | null): Promise<'account' | 'guest'> {
  if (await shop.user()) return 'account';
  if (csrf !== null) throw new SignedOut();
  return 'guest';
}

export async function setQuantity(shop: Shop, csrf: FormDataEntryValue | null, variant: string, quantity: number): Promise<void> {
  if ((await cartFormFor(shop, csrf)) === 'account') {
    await shop.asForm(csrf).cart.setQuantity(variant, quantity);
    return;
  }
  shop.saveGuestCart(shop.guestCart().map((line) => (line.variant === variant ? { ...line, quantity } : line)));
}

export async function removeLine(shop: Shop, csrf: FormDataEntryValue | null, variant: string): Promise<void> {
  if ((await cartFormFor(shop, csrf)) === 'account') {
    await shop.asForm(csrf).cart.remove(variant);
    return;
  }
  shop.saveGuestCart(shop.guestCart().filter((line) => line.variant !== variant));
}

export interface Merged {
  /** Lines added to the account's cart. */
  moved: number;
  /** Lines whose variant is gone or no longer on sale: left out. */
  unavailable: number;
  /** Lines cut down (or left out, when the account's line was full) so the line holds at most MAX_QUANTITY. */
  capped: number;
  /** Lines not moved for another reason (refused, or not reached when the API failed): kept in the visitor's cart, offered on the cart page. */
  kept: number;
  /** Items the account's cart held before: the shopper is shown the cart they now have together. */
  saved: number;
  /** The account's cart held as many lines as the API allows (this many), so lines of new products were kept; else 0. */
  full: number;
}

/** The API failed or was not reached: the merge stops there, and what it did not move is kept. */
const interrupts = (e: unknown) => e instanceof ApiError || e instanceof NetworkError || e instanceof ResponseError;

/**
 * After sign-in or registration: the guest cart's lines go into the account's cart (added to any line
 * already there, as the API adds, up to MAX_QUANTITY with what the line holds). A line whose variant is
 * gone or no longer on sale is left out; one refused for another reason, or not reached because the API
 * failed part-way, stays in the visitor's cart (offered on the cart page). Signing in has happened by then, so
 * a failure of the API is counted, not thrown; the visitor's cart is rewritten with exactly the lines not
 * moved, whatever happens. `api` is the session's own (right after signing in) or, for a shopper's
 * press of "Add them to your cart" (cart/+page.server.ts), the one carrying that form's CSRF token.
 */
export async function mergeGuestCart(shop: Shop, api: CommerceClient = shop.api): Promise<Merged> {
  const lines = shop.guestCart();
  const cartId = shop.guestCartId();
  const merged: Merged = { moved: 0, unavailable: 0, capped: 0, kept: 0, saved: 0, full: 0 };
  if (lines.length === 0) return merged;
  const refused: GuestLine[] = [];
  let next = 0;
  try {
    const before = await api.cart.get();
    merged.saved = before.item_count;
    const held = new Map(before.items.map((line) => [line.variant_public_id, line.quantity]));
    for (; next < lines.length; next++) {
      const line = lines[next]!;
      const room = MAX_QUANTITY - (held.get(line.variant) ?? 0);
      if (room <= 0) {
        // The account's line is full already: nothing of this one fits.
        merged.capped++;
        continue;
      }
      try {
        const quantity = Math.min(line.quantity, room);
        // Sent twice (a merge pressed twice, or retried after its answer was lost), the line is added once.
        const idempotencyKey = cartId ? `guest-cart-${cartId}-${line.variant}-${quantity}` : undefined;
        await api.cart.add({ variant_public_id: line.variant, quantity }, idempotencyKey ? { idempotencyKey } : {});
        merged.moved++;
        if (line.quantity > room) merged.capped++;
      } catch (e) {
        if (ApiError.is(e, 'NOT_FOUND') || ApiError.is(e, 'VARIANT_UNAVAILABLE')) merged.unavailable++;
        // Refused for another reason (a full cart, the line over 999 since the cart was read): kept. A 429, a 5xx or no answer stops the merge.
        else if (e instanceof ApiError && e.status < 500 && e.status !== 429) {
          refused.push(line);
          if (ApiError.is(e, 'CART_FULL')) merged.full = fullAt(e);
        } else throw e;
      }
    }
  } catch (e) {
    if (!interrupts(e)) throw e;
  } finally {
    const rest = [...refused, ...lines.slice(next)];
    merged.kept = rest.length;
    // Under the same cart ID: a line whose add was made but whose answer was lost is not added again next time.
    shop.saveGuestCart(rest, true);
  }
  return merged;
}

/**
 * Where a shopper goes once signed in: where they were going, unless the merge needs a word first
 * (lines left out, cut down or kept, or a cart now made of two). Then it is the cart, which says it (cart/+page.svelte).
 */
export function afterMerge(event: CookieEvent, merged: Merged, next: string): string {
  return keepMergeNotice(event, merged) ? '/cart' : next;
}

/** Keeps the cart's word about a merge for the cart page, when it needs one; false when it does not. */
export function keepMergeNotice(event: CookieEvent, merged: Merged): boolean {
  const { unavailable, capped, kept, full } = merged;
  const saved = merged.moved > 0 ? merged.saved : 0;
  if (unavailable === 0 && capped === 0 && kept === 0 && saved === 0) return false;
  mergeNotice.keep(event, { saved, unavailable, capped, kept, full });
  return true;
}

/** The line cap a CART_FULL refusal names (its `details`), so the shopper is told the number. */
function fullAt(e: ApiError): number {
  const limit = e.details[0]?.limit;
  return typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : 1;
}
