import { ApiError } from '@commerce/client';
import { cartView, keepMergeNotice, mergeGuestCart, removeLine, setQuantity, SignedOut } from '$lib/server/cart';
import { mergeNotice, NO_MERGE_NOTICE } from '$lib/server/guest-cart';
import { storeSettings } from '$lib/server/catalog';
import { formFailure, invalid, loading } from '$lib/server/errors';
import { toCents } from '$lib/server/money';
import { cartNotice, sentWithoutJavaScript } from '$lib/server/form-notices';
import { typedQuantity } from '$lib/server/quantity';
import { redirect, type RequestEvent } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const [cart, settings, user] = await Promise.all([cartView(shop), storeSettings(shop), shop.user()]);
    return {
      cart,
      freeShippingFrom: settings.free_shipping_from,
      // The API's rule (shipping is free from this subtotal), in exact cents on the server, not in the browser's floats.
      shipsFree: toCents(cart.subtotal) >= toCents(settings.free_shipping_from),
      csrf: user ? await shop.csrf() : null,
      // Left by the sign-in that just merged carts (afterMerge in cart.ts): what to tell the shopper, once.
      merged: mergeNotice.take(event) ?? NO_MERGE_NOTICE,
      /** Lines of the visitor's cart a sign-in could not move, still waiting in it: offered again (the merge action). */
      waiting: user ? shop.guestCart().length : 0,
      /** What a form sent without JavaScript just did (it was redirected here). */
      notice: cartNotice.take(event),
    };
  });

/**
 * The line a cart form names: a variant's public ID, or '' for anything else (no line has it). It
 * keys the line's error, so a name such as `__proto__` must never get that far.
 */
const variantOf = (form: FormData) => {
  const value = form.get('variant');
  return typeof value === 'string' && /^var_[0-9A-Za-z]{1,60}$/.test(value) ? value : '';
};

/** Done: without JavaScript, back to /cart by GET with the word kept for it; with it, the result. */
function done<T>(event: RequestEvent, what: 'updated' | 'removed', result: T): T {
  if (!sentWithoutJavaScript(event)) return result;
  cartNotice.keep(event, what);
  redirect(303, '/cart');
}

/** A cart form refused: made for an account whose session has since ended (nothing changed), or by the API. */
const refused = (e: unknown, event: RequestEvent) =>
  e instanceof SignedOut ? invalid('You were signed out. Sign in to see your cart.', {}, {}, 401) : formFailure(e, event);

export const actions: Actions = {
  /** The visitor's lines a sign-in could not move, tried again at the shopper's press, with the form's token. */
  merge: async (event) => {
    const { shop } = event.locals;
    const form = await formOf(event);
    if (!(await shop.user())) return invalid('You were signed out. Sign in to add these items to your cart.', {}, {}, 401);
    const merged = await mergeGuestCart(shop, shop.asForm(form.get('csrf')));
    // What the account's cart held before is no news here; what was left out, cut down or kept again is said, else that it is done.
    if (!keepMergeNotice(event, { ...merged, saved: 0 })) cartNotice.keep(event, 'updated');
    redirect(303, '/cart');
  },
  /** The visitor's waiting lines let go: the shopper does not want them after all. */
  discard: async (event) => {
    const { shop } = event.locals;
    if (!(await shop.user())) return invalid('You were signed out. Sign in to see your cart.', {}, {}, 401);
    shop.saveGuestCart([]);
    redirect(303, '/cart');
  },
  update: async (event) => {
    const form = await formOf(event);
    const variant = variantOf(form);
    // An empty box is no quantity (Number('') is 0): only an explicit 0, or the Remove button, removes.
    const typed = typedQuantity(form.get('quantity'), 'change');
    if ('refusal' in typed) return invalid(typed.refusal, { [variant]: typed.refusal });
    const { quantity } = typed;
    try {
      if (quantity === 0) await removeLine(event.locals.shop, form.get('csrf'), variant);
      else await setQuantity(event.locals.shop, form.get('csrf'), variant, quantity);
    } catch (e) {
      // NOT_FOUND: the line was gone already.
      if (!ApiError.is(e, 'NOT_FOUND')) return refused(e, event);
    }
    return quantity === 0 ? done(event, 'removed', { removed: true }) : done(event, 'updated', { updated: variant });
  },
  remove: async (event) => {
    const form = await formOf(event);
    try {
      await removeLine(event.locals.shop, form.get('csrf'), variantOf(form));
    } catch (e) {
      if (!ApiError.is(e, 'NOT_FOUND')) return refused(e, event);
    }
    return done(event, 'removed', { removed: true });
  },
};
