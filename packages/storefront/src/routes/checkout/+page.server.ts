import { randomUUID } from 'node:crypto';
import { ApiError, type ErrorDetail } from '@commerce/client';
import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import { addressFrom, addressKey, missingAddressFields } from '$lib/server/addresses';
import { accountCart } from '$lib/server/cart';
import { checkoutAddress, checkoutCoupon, couponCode } from '$lib/server/checkout-choices';
import { checkoutDraft, type CheckoutDraft, type KeptDraft } from '$lib/server/checkout-draft';
import { addressAddedNotice, placedNotice, sentWithoutJavaScript } from '$lib/server/form-notices';
import { money } from '$lib/format';
import { isMoney } from '$lib/server/money';
import { storeSettings } from '$lib/server/catalog';
import { formFailure, invalid, loading, signInPath, type FieldMap } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

/**
 * Checkout for a signed-in shopper: the cart as the API prices it, the address book, a coupon and
 * the mock payment, with the total the API quotes (a coupon applied to it before placing). Each
 * visit makes a new Idempotency-Key, carried in the form: resending the same form (a double click,
 * a retry, a refresh) replays the first order instead of placing another.
 */
const COUPON_SENTENCES = {
  INVALID_COUPON: 'That coupon cannot be used for this order.',
  COUPON_EXHAUSTED: 'That coupon has been used up.',
};
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, signInPath(event, 'checkout'));
    const kept: Partial<KeptDraft> = checkoutDraft.take(event) ?? {};
    const { notesLost = false, dropped = null, ...taken } = kept;
    // A coupon applied without JavaScript comes back in the address (post, redirect, get); one applied before is
    // kept (checkout-choices.ts), so a reload or Back prices the order as it was shown.
    const inAddress = event.url.searchParams.get('coupon');
    const coupon = inAddress === null ? checkoutCoupon.read(event) : couponCode(inAddress);
    const [cart, addresses, settings, { quote, couponProblem }] = await Promise.all([
      shop.accountCart().then((read) => read ?? shop.api.cart.get()),
      shop.api.addresses.list({ limit: 100 }),
      storeSettings(shop),
      quoteWith(shop, event, coupon, taken),
    ]);
    // Kept while it applies; a refused one is let go, as the total shown is without it.
    if (quote.coupon_code) checkoutCoupon.keep(event, coupon);
    else checkoutCoupon.forget(event);
    if (inAddress !== null && quote.coupon_code) {
      // A link that carries a coupon (`/checkout?coupon=SPRING`) applies it and is done: from here the kept coupon is
      // the one, so a coupon changed later is not overruled by an old address on a reload. What was filled in waits.
      checkoutDraft.keep(event, {
        address: taken.address ?? '',
        coupon: '',
        notes: taken.notes ?? '',
        ...(notesLost ? { notesLost } : {}),
      });
      redirect(303, '/checkout');
    }
    // A first address starts from the account's own name and phone, as the person buying is most often the one receiving.
    const profile = addresses.data.length === 0 ? await shop.api.account.get() : null;
    // The address chosen before (kept, checkout-choices.ts), while it is still in the book.
    const keptAddress = checkoutAddress.read(event);
    return {
      cart: await accountCart(shop, cart),
      addresses: addresses.data,
      chosenAddress: addresses.data.some((a) => a.public_id === keptAddress) ? keptAddress : null,
      /** The coupon that applied until a code tried without JavaScript was refused: said to be gone. */
      droppedCoupon: dropped,
      /** Added by a form sent without JavaScript, said once. */
      addressAdded: addressAddedNotice.take(event),
      newAddress: profile
        ? { recipient_name: `${profile.first_name} ${profile.last_name}`.trim(), phone_number: profile.phone_number ?? '' }
        : {},
      settings,
      quote,
      /** The lines this page shows, sent back with the order so a cart changed meanwhile is not ordered unseen. */
      agreedLines: linesOf(cart),
      csrf: await shop.csrf(),
      key: randomUUID(),
      /** What was filled in before: when the session ended at the last try (kept across the sign-in), or with a coupon applied. */
      draft: { ...taken, ...(coupon ? { coupon } : {}) },
      /** The note did not fit in what keeps the draft: asked for again at its field. */
      notesLost,
      /** The coupon in the address could not be applied: why, at its field. */
      couponProblem,
    };
  });

/**
 * formFailure for the checkout's forms, which carry a coupon (its refusals said at the coupon's field): a coupon
 * refused for a subtotal under its minimum is said with the minimum as the shop writes money ($100.00), where
 * the API's reason gives it as a decimal and a currency code, and the facts beside it.
 */
function checkoutFailure(
  e: unknown,
  event: RequestEvent,
  values: Record<string, string>,
  sentences: Partial<Record<string, string>> = COUPON_SENTENCES,
  fields: FieldMap = { coupon_code: 'coupon' },
) {
  const failure = formFailure(e, event, values, sentences, fields);
  const detail = e instanceof ApiError ? e.details.find((d) => d.field === 'coupon_code') : undefined;
  const [minimum, currency] = [detail?.minimum_order_amount, detail?.currency];
  if (typeof minimum === 'string' && isMoney(minimum) && typeof currency === 'string' && /^[A-Z]{3}$/.test(currency)) {
    failure.data.errors.coupon = `the order subtotal must be at least ${money(minimum, currency)}`;
  }
  return failure;
}

/** The quote with `coupon` applied; when it cannot be, the quote without it and the reason, as the Apply button says it. */
async function quoteWith(shop: App.Locals['shop'], event: RequestEvent, coupon: string, draft: Partial<CheckoutDraft>) {
  if (!coupon) return { quote: await shop.api.cart.quote(), couponProblem: null };
  try {
    return { quote: await shop.api.cart.quote(coupon), couponProblem: null };
  } catch (e) {
    if (!ApiError.is(e, 'INVALID_COUPON') && !ApiError.is(e, 'COUPON_EXHAUSTED')) throw e;
    const { data } = checkoutFailure(e, event, { ...draft, coupon });
    return { quote: await shop.api.cart.quote(), couponProblem: data };
  }
}

/** The cart's lines as the page lists them (variant and quantity), in one string the place form carries back. */
const linesOf = (cart: { items: readonly { variant_public_id: string; quantity: number }[] }) =>
  cart.items
    .map((item) => `${item.variant_public_id}:${item.quantity}`)
    .sort()
    .join(',');

/**
 * Whether the cart now holds other lines or quantities than the place form showed, so a change made
 * in another tab is not ordered unseen. A form without them (made before they were added) is not
 * checked, nor an empty cart (the API answers it: the order this form's key placed, or CART_EMPTY).
 * The total is the API's to check: the order is sent with the total the shopper agreed to pay.
 */
async function cartMovedFrom(shop: App.Locals['shop'], form: FormData): Promise<boolean> {
  const lines = form.get('agreed_lines');
  if (typeof lines !== 'string') return false;
  const cart = await shop.api.cart.get();
  return cart.items.length > 0 && linesOf(cart) !== lines;
}

/** The total the place form showed, as the API's `expected_total` (absent from a form made before it was added). */
function agreedTotal(form: FormData): { expected_total?: string } {
  const total = form.get('agreed_total');
  return typeof total === 'string' && isMoney(total) ? { expected_total: total } : {};
}

const CART_MOVED = 'Your cart changed since this page was shown. Check your order and its total below, then place it again.';

/**
 * The same lines and coupon now cost more than the total shown: a price, the coupon's value or the
 * shop's shipping or tax moved meanwhile. Said with both totals when the refusal gives them (and the
 * shop's currency can be read); else as a changed cart.
 */
async function totalRose(shop: App.Locals['shop'], detail: ErrorDetail | undefined): Promise<string> {
  const [shown, now] = [detail?.expected_total, detail?.total];
  if (typeof shown !== 'string' || typeof now !== 'string') return CART_MOVED;
  const currency = await storeSettings(shop).then(
    (settings) => settings.currency,
    () => null,
  );
  if (currency === null) return CART_MOVED;
  return `Your order's total went up since this page was shown: it now costs ${money(now, currency)}, not ${money(shown, currency)}. Check it below, then place it again.`;
}

/** What the place form carries besides its tokens, as its two buttons (Apply, Place order) send it. */
const placeValues = (form: FormData) => ({
  address: String(form.get('address') ?? ''),
  coupon: String(form.get('coupon') ?? '').trim(),
  notes: String(form.get('notes') ?? '').trim(),
});

export const actions: Actions = {
  place: async (event) => {
    const { shop } = event.locals;
    const form = await formOf(event);
    const values = placeValues(form);
    const { address, coupon, notes } = values;
    const key = String(form.get('key') ?? '');
    if (!address) return invalid('Choose where to send your order.', { address: 'Choose an address, or add one.' }, values);
    if (!/^[A-Za-z0-9-]{1,255}$/.test(key)) return invalid('This checkout form had expired. Please try again.', {}, values);
    let orderId: string;
    try {
      if (await cartMovedFrom(shop, form)) return invalid(CART_MOVED, {}, values, 409);
      const order = await shop.asForm(form.get('csrf')).orders.place(
        {
          address_public_id: address,
          payment_method: 'mock',
          ...(coupon ? { coupon_code: coupon } : {}),
          ...(notes ? { notes } : {}),
          ...agreedTotal(form),
        },
        { idempotencyKey: key },
      );
      orderId = order.public_id;
    } catch (e) {
      // The session ended under the form: what was filled in waits for the shopper's return (formFailure sends them to sign in).
      if (e instanceof ApiError && e.status === 401 && e.code === 'UNAUTHENTICATED') checkoutDraft.keep(event, values);
      if (ApiError.is(e, 'TOTAL_CHANGED')) {
        // Dearer than the total shown: a coupon typed (or cleared) since it was quoted, or prices that moved.
        const otherCoupon = coupon.toUpperCase() !== String(form.get('agreed_coupon') ?? '').toUpperCase();
        return otherCoupon
          ? invalid(
              'The total shown was for another coupon. Press Apply to see the total with this one, then place the order.',
              { coupon: 'Press Apply to see the total with this coupon.' },
              values,
              409,
            )
          : invalid(await totalRose(shop, e.details[0]), {}, values, 409);
      }
      if (ApiError.is(e, 'INSUFFICIENT_STOCK')) {
        return invalid(
          'Some items sold out while you were checking out. Your cart shows what is left; adjust it and try again.',
          { stock: e.details.map((d) => `${String(d.sku ?? '')}: only ${String(d.available ?? 0)} left`).join('; ') },
          values,
          409,
        );
      }
      const refusal = checkoutFailure(
        e,
        event,
        values,
        {
          CART_EMPTY: 'Your cart is empty. If you just placed this order, it is in your order history.',
          VARIANT_UNAVAILABLE: 'Something in your cart is no longer on sale. Remove it from your cart and try again.',
          NOT_FOUND: 'That address is no longer in your address book. Choose another.',
          IDEMPOTENCY_KEY_REUSED: 'This checkout was already submitted with other details. Please check your orders before trying again.',
          ...COUPON_SENTENCES,
        },
        { coupon_code: 'coupon', address_public_id: 'address' },
      );
      // Said at the coupon's field, as Apply says it, and that the order waits for it (the press was Place order).
      const couponRefused = ApiError.is(e, 'INVALID_COUPON') || ApiError.is(e, 'COUPON_EXHAUSTED');
      if (!couponRefused) return refusal;
      checkoutCoupon.forget(event);
      return fail(refusal.status, { ...refusal.data, notPlaced: true });
    }
    placedNotice.keep(event, orderId);
    checkoutCoupon.forget(event);
    checkoutAddress.forget(event);
    redirect(303, `/orders/${orderId}`);
  },

  /** Applies the coupon to the quoted total without placing the order (the place form's other button). */
  coupon: async (event) => {
    const { shop } = event.locals;
    const values = placeValues(await formOf(event));
    const withoutJavaScript = sentWithoutJavaScript(event);
    let refusedCode = '';
    // The coupon that applied before: a refused code lets go of it, which the page then says.
    const before = checkoutCoupon.read(event);
    const dropped = before && before.toUpperCase() !== values.coupon.toUpperCase() ? before : null;
    try {
      const quote = await shop.api.cart.quote(values.coupon || undefined);
      checkoutCoupon.keep(event, values.coupon);
      if (!withoutJavaScript) return { quote, values };
    } catch (e) {
      const refused = ApiError.is(e, 'INVALID_COUPON') || ApiError.is(e, 'COUPON_EXHAUSTED');
      // Refused: no coupon applies now (the page reads the quote again without one).
      if (refused) checkoutCoupon.forget(event);
      if (!refused || !withoutJavaScript) {
        const failure = checkoutFailure(e, event, values);
        return refused && dropped ? fail(failure.status, { ...failure.data, droppedCoupon: dropped }) : failure;
      }
      refusedCode = values.coupon;
    }
    // Without JavaScript: back to the checkout by GET with the rest kept once, so the history holds no page made by a
    // post (Back after placing the order asks to send nothing again). A refused code goes in the address, where the
    // page says why at its field; either way the page comes back at the field (#coupon), where it says what happened.
    checkoutDraft.keep(event, { ...values, ...(refusedCode && dropped ? { dropped } : {}) });
    redirect(303, refusedCode ? `/checkout?coupon=${encodeURIComponent(refusedCode)}#coupon` : '/checkout#coupon');
  },

  /**
   * Remembers the address chosen (the page sends it when a shopper picks one, with JavaScript), so a reload or a
   * trip to the cart does not put the default back under their order. Only kept, never trusted: the order
   * is sent with the address its form shows, and the API checks it is the shopper's.
   */
  choose: async (event) => {
    const address = String((await formOf(event)).get('address') ?? '');
    if (/^adr_[A-Za-z0-9]{1,60}$/.test(address)) checkoutAddress.keep(event, address);
    return { chose: true };
  },

  address: async (event) => {
    const { shop } = event.locals;
    const form = await formOf(event);
    const { values, body } = addressFrom(form);
    const missing = missingAddressFields(values);
    if (Object.keys(missing).length > 0) return invalid('Please fill in the highlighted fields.', missing, values);
    try {
      const created = await shop.asForm(form.get('csrf')).addresses.create(body, { idempotencyKey: addressKey(form, body) });
      checkoutAddress.keep(event, created.public_id);
      if (!sentWithoutJavaScript(event)) return { addressAdded: created.public_id };
      addressAddedNotice.keep(event, created.public_id);
    } catch (e) {
      return formFailure(e, event, values, { ADDRESS_BOOK_FULL: 'Your address book is full. Remove an address in your account first.' });
    }
    // Without JavaScript: back to the checkout by GET, at the addresses (the new one chosen), so a reload sends nothing again.
    redirect(303, '/checkout#ship-to');
  },
};
