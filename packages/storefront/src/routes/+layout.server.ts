import { ApiError, NetworkError, ResponseError } from '@commerce/client';
import { categoryTree, storeSettings, type CategoryNode, type CategoryTree, type StoreSettings } from '$lib/server/catalog';
import { loading } from '$lib/server/errors';
import { NavList, type NavCategory } from '$lib/nav';
import type { LayoutServerLoad } from './$types';

export type { NavCategory };

const entries = (nodes: CategoryNode[]): NavCategory[] => nodes.map((n) => ({ name: n.name, slug: n.slug, children: entries(n.children) }));

/** The navigation of a tree, made once per tree: a tree is kept and shared until the catalog moves (catalog.ts). */
const navs = new WeakMap<CategoryTree, NavList>();
function nav(tree: CategoryTree): NavList {
  let list = navs.get(tree);
  if (!list) navs.set(tree, (list = NavList.made(entries(tree.roots))));
  return list;
}

/** While the API cannot answer, the frame still renders (with no navigation), so the page's own error shows inside it. */
const UNREACHABLE: StoreSettings = {
  name: 'Shop',
  headline: '',
  introduction: '',
  currency: 'USD',
  shipping_flat: '0.00',
  free_shipping_from: '0.00',
  tax_rate: '0',
};
const unreachable = (e: unknown) => e instanceof NetworkError || e instanceof ResponseError || (e instanceof ApiError && e.status >= 500);

/** Every page: the shop's settings, the category tree for navigation, who is signed in and how full the cart is. */
export const load: LayoutServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const origin = shop.transport.publicBaseUrl;
    try {
      const [store, tree, user, cart] = await Promise.all([storeSettings(shop), categoryTree(shop), shop.user(), shop.accountCart()]);
      const cartCount = cart ? cart.item_count : shop.guestCart().reduce((sum, line) => sum + line.quantity, 0);
      return {
        /** The shop's public origin: canonical URLs and Open Graph are built on it. */
        origin,
        store,
        nav: nav(tree),
        user: user ? { email: user.email, verified: user.email_verified } : null,
        cartCount,
        /** False while the API cannot answer: the frame then states no shop facts it does not know. */
        reachable: true,
      };
    } catch (e) {
      if (!unreachable(e)) throw e;
      return { origin, store: UNREACHABLE, nav: [] as NavCategory[], user: null, cartCount: 0, reachable: false };
    }
  });
