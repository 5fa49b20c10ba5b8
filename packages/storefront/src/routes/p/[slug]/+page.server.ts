import { randomUUID } from 'node:crypto';
import { pageNumber } from '$lib/page-number';
import { ApiError } from '@commerce/client';
import { error, redirect } from '@sveltejs/kit';
import { addedNotice, type AddedLine } from '$lib/server/added-notice';
import { sentWithoutJavaScript } from '$lib/server/form-notices';
import { addToCart, GuestCartFull, quantityInCart, shortOf, SignedOut } from '$lib/server/cart';
import { MAX_QUANTITY, type GuestLine } from '$lib/server/guest-cart';
import { typedQuantity } from '$lib/server/quantity';
import { categoryTree, type Product, type VariantStock } from '$lib/server/catalog';
import { formFailure, invalid, loading } from '$lib/server/errors';
import { choiceFrom, chosenVariant, optionNames } from '$lib/variants';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

const REVIEWS_PER_PAGE = 5;

/** A product by its slug, the variant the URL chooses, and a page of its approved reviews. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const product = await shop.api.products.bySlug(event.params.slug);
    const reviewPage = pageNumber(event.url, 'reviews', 1000);
    const [reviews, stock, tree, user, cart] = await Promise.all([
      shop.api.products.reviews(product.public_id, { page: reviewPage, limit: REVIEWS_PER_PAGE, sort: '-created_at' }),
      shop.api.products.stock(product.public_id),
      categoryTree(shop),
      shop.user(),
      shop.accountCart(),
    ]);
    const choice = choiceFrom(event.url.searchParams, optionNames(product.variants));
    const byId = event.url.searchParams.get('variant');
    const selected = product.variants.find((v) => v.public_id === byId) ?? chosenVariant(product.variants, choice);
    if (stockSaysNoMore(product, stock)) shop.sharedCache.acceptLive('/stock');
    const category = product.categories[0];
    return {
      product,
      selectedId: selected?.public_id ?? null,
      trail: category ? tree.trail(category.public_id).map((c) => ({ name: c.name, slug: c.slug })) : [],
      reviews,
      /** Each variant's stock now: the status, and how many are left when few are. */
      stock: Object.fromEntries(stock.map((s) => [s.variant_public_id, { status: s.stock_status, left: s.quantity_left }])),
      csrf: user ? await shop.csrf() : null,
      /** This rendering's add: a form sent twice (a double click without JavaScript) adds once. */
      addKey: user ? randomUUID() : null,
      /** What the account's cart holds of each of this product's variants now, sent with the add (`add_held`). */
      held: cart ? heldOf(product, cart.items) : null,
      /** What a form sent without JavaScript just added (it was redirected here). */
      added: addedLine(product, addedNotice.take(event)),
    };
  });

/**
 * The Idempotency-Key of an account's add: the rendering's key with what it adds, so the same form
 * sent twice adds once, and a choice changed on the same rendering is an add of its own.
 */
function addKeyOf(form: FormData, line: { variant: string; quantity: number }): string | undefined {
  const key = form.get('add_key');
  return typeof key === 'string' && ADD_KEY.test(key) ? `product-add-${key}-${line.variant}-${line.quantity}` : undefined;
}
const ADD_KEY = /^[0-9a-f-]{36}$/;

function heldOf(product: Product, items: readonly { variant_public_id: string; quantity: number }[]): Record<string, number> {
  const ours = new Set(product.variants.map((v) => v.public_id));
  return Object.fromEntries(
    items.filter((item) => ours.has(item.variant_public_id)).map((item) => [item.variant_public_id, item.quantity]),
  );
}

/**
 * This very form's add made already (it was sent again after its answer: a reload, a resend, a double
 * click whose first press has finished): the cart holds what it held when the page was made (the
 * form's `add_held`) plus this quantity, and the form has its key. Then the storefront's own checks
 * (stock, the 999 of a line) are not made again, which would refuse it against the add it made: the
 * keyed add answers as the first did, adding nothing.
 */
function sentAgain(form: FormData, key: string | undefined, heldNow: number, quantity: number): boolean {
  const before = String(form.get('add_held') ?? '');
  return key !== undefined && /^\d{1,3}$/.test(before) && heldNow === Number(before) + quantity;
}

/** Why adding `line` to a cart holding `held` of it would ask too much (a line's 999, the stock left); null when it would not. */
async function addRefusal(shop: App.Locals['shop'], line: GuestLine, held: number): Promise<string | null> {
  if (held + line.quantity > MAX_QUANTITY) return `Your cart already has ${held}: a line holds at most ${MAX_QUANTITY}.`;
  const short = await shortOf(shop, line, held);
  if (!short) return null;
  return short.inCart > 0
    ? `Only ${short.left} left, and your cart already has ${short.inCart}.`
    : `Only ${short.left} left: choose ${short.left} or fewer.`;
}

function addedLine(product: Product, added: AddedLine | null) {
  const variant = added && product.variants.find((v) => v.public_id === added.variant);
  return variant ? { name: product.name, variant: variant.name, quantity: added.quantity, again: added.again } : null;
}

/**
 * Whether the live stock says no more than the product itself: each variant in stock or not, which the
 * product's own key purges when it changes. Then a shared cache may keep the page; a count ("only 3
 * left") moves with every sale, so a page showing one may not be kept.
 */
function stockSaysNoMore(product: Product, stock: readonly VariantStock[]): boolean {
  const inStock = new Map(product.variants.map((v) => [v.public_id, v.in_stock]));
  return stock.every((s) => s.stock_status !== 'LOW_STOCK' && (s.stock_status === 'IN_STOCK') === inStock.get(s.variant_public_id));
}

export const actions: Actions = {
  /** Adds the chosen variant: to the account's cart when signed in, else to the guest cart. */
  add: async (event) => {
    const form = await formOf(event);
    const variantId = String(form.get('variant') ?? '');
    const typed = String(form.get('quantity') ?? '1').trim();
    const values = { quantity: typed };
    const parsed = typedQuantity(typed, 'add');
    if ('refusal' in parsed) return invalid(parsed.refusal, { quantity: parsed.refusal }, values);
    const { quantity } = parsed;
    try {
      const product = await event.locals.shop.api.products.bySlug(event.params.slug);
      const variant = product.variants.find((v) => v.public_id === variantId);
      if (!variant) return invalid('Please choose an option first.', {}, values);
      if (!variant.in_stock) return invalid(`Sorry, ${variant.name} is out of stock.`, {}, values, 409);
      const line = { product: product.public_id, variant: variant.public_id, quantity };
      const held = await quantityInCart(event.locals.shop, variant.public_id);
      const key = addKeyOf(form, line);
      // The add this form made already is answered again as it was, not checked against itself.
      if (!sentAgain(form, key, held, quantity)) {
        const refusal = await addRefusal(event.locals.shop, line, held);
        if (refusal) return invalid(refusal, { quantity: refusal }, values, 409);
      }
      const { again } = await addToCart(event.locals.shop, form.get('csrf'), line, key);
      if (sentWithoutJavaScript(event)) {
        // Sent without JavaScript: back to the page by GET, so a reload there adds nothing again.
        addedNotice.keep(event, { variant: variant.public_id, quantity, again });
        const back = new URL(event.url);
        back.searchParams.delete('/add');
        redirect(303, `${back.pathname}${back.search}#buy`);
      }
      return { added: { name: product.name, variant: variant.name, quantity, again } };
    } catch (e) {
      if (e instanceof GuestCartFull || ApiError.is(e, 'CART_FULL'))
        return invalid('Your cart is full. Check out or remove something first.', {}, values, 409);
      if (e instanceof SignedOut) return invalid('You were signed out. Sign in to add this to your cart.', {}, values, 401);
      if (ApiError.is(e, 'NOT_FOUND')) error(404, { message: 'This product is no longer available.', code: 'NOT_FOUND' });
      return formFailure(e, event, values);
    }
  },
};
