import { categoryTree, storeSettings, type CategoryNode } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import type { LayoutServerLoad } from './$types';

export interface NavCategory {
  name: string;
  slug: string;
  children: NavCategory[];
}

const nav = (nodes: CategoryNode[]): NavCategory[] => nodes.map((n) => ({ name: n.name, slug: n.slug, children: nav(n.children) }));

/** Every page: the shop's settings, the category tree for navigation, who is signed in and how full the cart is. */
export const load: LayoutServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const [store, tree, user] = await Promise.all([storeSettings(shop), categoryTree(shop), shop.user()]);
    const cartCount = user ? (await shop.api.cart.get()).item_count : shop.guestCart().reduce((sum, line) => sum + line.quantity, 0);
    return {
      /** The shop's public origin: canonical URLs and Open Graph are built on it. */
      origin: shop.transport.publicBaseUrl,
      store,
      nav: nav(tree.roots),
      user: user ? { email: user.email, verified: user.email_verified } : null,
      cartCount,
    };
  });
