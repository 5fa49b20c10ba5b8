import { card, categoryTree, type CategoryNode } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import { apiQuery, filtersOf, SORTS } from '$lib/listing';
import type { PageServerLoad } from './$types';

const flatten = (nodes: CategoryNode[], depth = 0): { slug: string; name: string; depth: number }[] =>
  nodes.flatMap((node) => [{ slug: node.slug, name: node.name, depth }, ...flatten(node.children, depth + 1)]);

/** All products, and search: the query, filters, sort and page all in the URL. */
/**
 * Browsing pages ship no JavaScript: every link and the filter form are plain HTML, so there is
 * nothing to make smoother, and a phone renders them without parsing or hydrating a script
 * (Lighthouse's blocking time on a slow phone). Product, cart, checkout and account pages keep it.
 */
export const csr = false;

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const filters = filtersOf(event.url);
    const tree = await categoryTree(shop);
    const category = filters.category ? tree.bySlug.get(filters.category) : undefined;
    if (!category) filters.category = '';
    const page = await shop.api.products.list({ ...apiQuery(filters), ...(category ? { category: category.public_id } : {}) });
    return { products: page.data.map(card), meta: page.meta, filters, categories: flatten(tree.roots), sorts: SORTS };
  });
