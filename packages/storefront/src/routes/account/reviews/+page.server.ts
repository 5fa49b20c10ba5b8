import { ApiError } from '@commerce/client';
import { loading } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const reviews = await shop.api.reviews.mine({ limit: 100 });
    const products = await Promise.all(
      [...new Set(reviews.data.map((r) => r.product_public_id))].map((id) =>
        shop.api.products.get(id).catch((e: unknown) => {
          if (ApiError.is(e, 'NOT_FOUND')) return null;
          throw e;
        }),
      ),
    );
    const names = Object.fromEntries(products.flatMap((p) => (p ? [[p.public_id, { name: p.name, slug: p.slug }]] : [])));
    return { reviews: reviews.data, products: names as Record<string, { name: string; slug: string }> };
  });
