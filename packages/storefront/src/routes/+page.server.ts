import { card } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

/**
 * Browsing pages ship no JavaScript: every link and the filter form are plain HTML, so there is
 * nothing to make smoother, and a phone renders them without parsing or hydrating a script
 * (Lighthouse's blocking time on a slow phone). Product, cart, checkout and account pages keep it.
 */
export const csr = false;

/** The home page: the newest products and the best rated, beside the category tree the layout loads. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { api } = event.locals.shop;
    const [fresh, rated] = await Promise.all([
      api.products.list({ sort: '-created_at', limit: 8 }),
      api.products.list({ sort: '-rating', limit: 8, in_stock: 'true' }),
    ]);
    return { fresh: fresh.data.map(card), featured: rated.data.map(card) };
  });
