import { card, categoryTree, type CategoryNode } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import { apiQuery, filtersOf, sortsFor, suggestionFilters } from '$lib/listing';
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
    // A search that found nothing is no dead end: the same search spelt as the catalog spells it, when that finds
    // something here ("Did you mean ...?"), and the best rated products in stock.
    const missed = page.meta.total === 0 && filters.q !== '';
    const [suggested, didYouMean] = missed
      ? await Promise.all([
          shop.api.products.list({ sort: '-rating', limit: 4, in_stock: 'true' }).then((best) => best.data.map(card)),
          shop.api.products
            .searchSuggestion({ ...suggestionFilters(apiQuery(filters)), ...(category ? { category: category.public_id } : {}) })
            // A suggestion is a courtesy: the page stands without it.
            .catch(() => null),
        ])
      : [[], null];
    return {
      products: page.data.map(card),
      meta: page.meta,
      filters,
      categories: flatten(tree.roots),
      sorts: sortsFor(filters.q),
      suggested,
      didYouMean,
    };
  });
