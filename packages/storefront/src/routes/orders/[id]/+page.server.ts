import { ApiError } from '@commerce/client';
import { redirect } from '@sveltejs/kit';
import { productsById, reviewedProductIds } from '$lib/server/catalog';
import { formFailure, loading, signInPath } from '$lib/server/errors';
import { cancelledNotice, placedNotice, sentWithoutJavaScript } from '$lib/server/form-notices';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

/** One of the shopper's orders: the page the order emails link to. Another account's order is not found. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, signInPath(event, 'order'));
    // Read (and so spent) before anything that could fail, and only for the order it names.
    const placed = placedNotice.take(event) === event.params.id;
    const order = await shop.api.orders.get(event.params.id);
    // Product pages for the lines still on sale (to buy again or review).
    const products = await productsById(
      shop,
      order.items.map((item) => item.product_public_id),
    );
    const slugs = Object.fromEntries([...products.values()].map((p) => [p.public_id, p.slug]));
    // A delivered order offers a review of each product, except those the shopper has reviewed already.
    const delivered = order.status === 'SHIPPED' || order.status === 'FULFILLED';
    const reviewed = delivered ? [...(await reviewedProductIds(shop))] : [];
    const cancelled = cancelledNotice.take(event) === true;
    return { order, slugs, reviewed, placed, csrf: await shop.csrf(), cancelled };
  });

export const actions: Actions = {
  /** The first press asks (with or without JavaScript); only the second, carrying `confirm`, cancels. */
  cancel: async (event) => {
    const form = await formOf(event);
    if (form.get('confirm') !== 'yes') return { confirming: true };
    try {
      await event.locals.shop.asForm(form.get('csrf')).orders.cancel(event.params.id);
    } catch (e) {
      if (!ApiError.is(e, 'INVALID_TRANSITION')) return formFailure(e, event);
      // Not cancellable now: say why as the order stands (a second press, or another tab, may have cancelled it already).
      const now = await event.locals.shop.api.orders.get(event.params.id).catch(() => null);
      if (now?.status !== 'CANCELLED') return formFailure(e, event, {}, { INVALID_TRANSITION: notCancellable(now?.status) });
    }
    if (!sentWithoutJavaScript(event)) return { cancelled: true };
    cancelledNotice.keep(event, true);
    redirect(303, event.url.pathname);
  },
};

/** Why an order cannot be cancelled, by its status now. */
function notCancellable(status: string | undefined): string {
  if (status === 'SHIPPED' || status === 'FULFILLED') return 'This order can no longer be cancelled: it has already shipped.';
  return 'This order can no longer be cancelled. Reload the page to see where it stands.';
}
