import { card, categoryTree, type CategoryNode } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import { apiQuery, filtersOf, SORTS } from '$lib/listing';
import type { PageServerLoad } from './$types';

const flatten = (nodes: CategoryNode[], depth = 0): { slug: string; name: string; depth: number }[] =>
  nodes.flatMap((node) => [{ slug: node.slug, name: node.name, depth }, ...flatten(node.children, depth + 1)]);

/** A browsing page: no JavaScript (why: routes/+page.server.ts). */
export const csr = false;

/** All products, and search: the query, filters, sort and page all in the URL. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const filters = filtersOf(event.url);
    const tree = await categoryTree(shop);
    const category = filters.category ? tree.bySlug.get(filters.category) : undefined;
    if (!category) filters.category = '';
    const page = await shop.api.products.list({ ...apiQuery(filters), ...(category ? { category: category.public_id } : {}) });
    // A search that found nothing is no dead end: the best rated products in stock are offered instead.
    const suggested =
      page.meta.total === 0 && filters.q
        ? (await shop.api.products.list({ sort: '-rating', limit: 4, in_stock: 'true' })).data.map(card)
        : [];
    return { products: page.data.map(card), meta: page.meta, filters, categories: flatten(tree.roots), sorts: SORTS, suggested };
  });
