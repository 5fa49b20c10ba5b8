import { productsById } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const reviews = await shop.api.reviews.mine({ limit: 100 });
    const products = await productsById(
      shop,
      reviews.data.map((r) => r.product_public_id),
    );
    const names: Record<string, { name: string; slug: string }> = Object.fromEntries(
      [...products.values()].map((p) => [p.public_id, { name: p.name, slug: p.slug }]),
    );
    return { reviews: reviews.data, products: names };
  });
