import { error } from '@sveltejs/kit';
import { card, categoryTree } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import { apiQuery, filtersOf, sortsFor } from '$lib/listing';
import type { PageServerLoad } from './$types';

/** A browsing page: no JavaScript (why: routes/+page.server.ts). */
export const csr = false;

/** A category (its subcategories' products included), with filters, sort and page in the URL. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    let tree = await categoryTree(shop);
    // A category made since the tree was cached is found by asking again once.
    if (!tree.bySlug.has(event.params.slug)) tree = await categoryTree(shop, { fresh: true });
    const category = tree.bySlug.get(event.params.slug);
    if (!category) error(404, { message: 'This category is no longer in the shop.', code: 'NOT_FOUND' });
    const filters = filtersOf(event.url);
    filters.category = '';
    const page = await shop.api.categories.products(category.public_id, apiQuery(filters));
    return {
      category: { name: category.name, slug: category.slug, description: category.description },
      trail: tree.trail(category.public_id).map((node) => ({ name: node.name, slug: node.slug })),
      children: category.children.map((child) => ({ name: child.name, slug: child.slug })),
      products: page.data.map(card),
      meta: page.meta,
      filters,
      sorts: sortsFor(filters.q),
    };
  });
