import { pageNumber } from '$lib/page-number';
import { productsById } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

/** Reviews a page: as the orders page, newest first. */
const PER_PAGE = 20;

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const page = pageNumber(event.url);
    const reviews = await shop.api.reviews.mine({ page, limit: PER_PAGE });
    const products = await productsById(
      shop,
      reviews.data.map((r) => r.product_public_id),
    );
    const names: Record<string, { name: string; slug: string }> = Object.fromEntries(
      [...products.values()].map((p) => [p.public_id, { name: p.name, slug: p.slug }]),
    );
    return { reviews: reviews.data, meta: reviews.meta, products: names };
  });
