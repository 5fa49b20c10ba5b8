import { ApiError, type DataOf, type ItemOf } from '@commerce/client';
import { cached } from './cache';
import type { Shop } from './shop';

export type Category = ItemOf<'/api/v1/categories'>;
export type Product = DataOf<'/api/v1/products/{product_public_id}', 'get'>;
export type Variant = Product['variants'][number];
export type VariantStock = DataOf<'/api/v1/products/{product_public_id}/stock', 'get'>[number];
export type StoreSettings = DataOf<'/api/v1/store', 'get'>;

export interface CategoryNode extends Category {
  children: CategoryNode[];
}

export interface CategoryTree {
  roots: CategoryNode[];
  bySlug: Map<string, CategoryNode>;
  byId: Map<string, CategoryNode>;
  /** A category and its ancestors, root first. */
  trail(id: string): CategoryNode[];
  /** The API's ETag the tree was read under (its catalog version), for the page's own validator. */
  etag?: string | null;
}

/** How stale the navigation may be after a category changes. */
export const CATEGORY_TTL_MS = 10_000;
const SETTINGS_TTL_MS = 60_000;
const MAX_CATEGORIES = 1000;

/** The shop's settings (fixed for the API's life: they come from its configuration). */
export function storeSettings(shop: Shop): Promise<StoreSettings> {
  shop.sharedCache.addKeys('store');
  return cached(shop.transport.instance, 'settings', SETTINGS_TTL_MS, () => shop.api.store());
}

/**
 * The category tree. The tree last read is kept with its ETag (the catalog's version) and checked
 * against the API's before it is used again (a 304 costs the API one version read); it is read whole
 * only when it changed. A check is trusted for CATEGORY_TTL_MS by every page (`fresh` checks now);
 * behind a purged shared cache only by the request that made it (its layout and page), so no page is
 * built on a tree older than the purge that made the cache ask for it.
 */
export function categoryTree(shop: Shop, options: { fresh?: boolean } = {}): Promise<CategoryTree> {
  shop.sharedCache.addKeys('categories');
  const owner = shop.transport.sharedCache ? shop : shop.transport.instance;
  let check = checks.get(owner);
  if (!check || options.fresh || Date.now() - check.at >= CATEGORY_TTL_MS) {
    const made = { at: Date.now(), tree: checkedTree(shop) };
    checks.set(owner, (check = made));
    // A failed check is not trusted: the next page checks again.
    made.tree.catch(() => checks.get(owner) === made && checks.delete(owner));
  }
  return check.tree.then((tree) => {
    shop.sharedCache.addValidator(tree.etag ?? null);
    return tree;
  });
}

/** Checks trusted for a while: per API, or per request (its Shop) behind a purged shared cache. */
const checks = new WeakMap<object, { at: number; tree: Promise<CategoryTree> }>();
/** Per API: the newest tree read, the ETag it was read under, and the order its check started in. */
const known = new WeakMap<object, { etag: string | null; tree: CategoryTree; started: number }>();
let checksStarted = 0;

async function checkedTree(shop: Shop): Promise<CategoryTree> {
  const { instance } = shop.transport;
  const started = ++checksStarted;
  const last = known.get(instance);
  // In-process the service says the catalog's version without a request: the known tree is current when its
  // ETag is that version's (what the first page of categories would answer with a 304, as below).
  const { catalog } = shop.transport;
  if (last?.etag && catalog && (await catalog.tag().catch(() => null)) === last.etag) {
    // As the 304 below would have been recorded: public, with the API's lifetimes (the keys and ETag are added above).
    shop.sharedCache.addPolicy(catalog.policy);
    return last.tree;
  }
  // The first page of categories answers whether the known tree is current.
  const { response } = await shop.api.raw.GET('/api/v1/categories', {
    params: { query: { limit: 1 } },
    headers: last?.etag ? { 'if-none-match': last.etag } : {},
  });
  if (last && response.status === 304) return last.tree;
  // Read after the ETag was: the tree is never older than its ETag says.
  const tree: CategoryTree = { ...(await loadTree(shop)), etag: response.ok ? response.headers.get('etag') : null };
  // A check that started earlier and ended later never replaces a newer tree.
  if ((known.get(instance)?.started ?? 0) < started)
    known.set(instance, { etag: response.ok ? response.headers.get('etag') : null, tree, started });
  return tree;
}

async function loadTree(shop: Shop): Promise<CategoryTree> {
  const all: Category[] = [];
  for await (const category of shop.api.items('/api/v1/categories', { params: { query: { limit: 100 } } })) {
    all.push(category);
    if (all.length >= MAX_CATEGORIES) break;
  }
  return buildTree(all);
}

export function buildTree(categories: readonly Category[]): CategoryTree {
  const byId = new Map<string, CategoryNode>(categories.map((c) => [c.public_id, { ...c, children: [] }]));
  const roots: CategoryNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parent_public_id ? byId.get(node.parent_public_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const order = (nodes: CategoryNode[]) => {
    nodes.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
    for (const node of nodes) order(node.children);
  };
  order(roots);
  return {
    roots,
    byId,
    bySlug: new Map([...byId.values()].map((node) => [node.slug, node])),
    trail(id) {
      const path: CategoryNode[] = [];
      for (let node = byId.get(id); node && path.length < 20; node = node.parent_public_id ? byId.get(node.parent_public_id) : undefined)
        path.unshift(node);
      return path;
    },
  };
}

/** Only what a product card shows, so a listing page's data stays small. */
export function card(product: Product) {
  const image = product.images[0];
  const reduced = product.variants
    .filter((v) => v.compare_at_price !== null && Number(v.compare_at_price) > Number(v.price))
    .sort((a, b) => Number(a.price) - Number(b.price));
  // The price it was, beside the price shown: the cheapest reduced variant's, when that is the price the card shows.
  const was = reduced[0] && reduced[0].price === product.price_min ? reduced[0].compare_at_price : null;
  return {
    public_id: product.public_id,
    name: product.name,
    slug: product.slug,
    brand: product.brand,
    image: image ? { url: image.url, alt: image.alt_text ?? product.name } : null,
    price_min: product.price_min,
    price_max: product.price_max,
    rating: product.rating,
    in_stock: product.variants.some((v) => v.in_stock),
    on_sale: reduced.length > 0,
    was,
  };
}
export type ProductCard = ReturnType<typeof card>;

/** The public products of some IDs, one read per distinct product in parallel; a product no longer on sale is missing. */
export async function productsById(shop: Shop, ids: readonly string[]): Promise<Map<string, Product>> {
  const found = await Promise.all(
    [...new Set(ids)].map((id) =>
      shop.api.products.get(id).catch((e: unknown) => {
        if (ApiError.is(e, 'NOT_FOUND')) return null;
        throw e;
      }),
    ),
  );
  return new Map(found.filter((p): p is Product => p !== null).map((p) => [p.public_id, p]));
}

/** Every product the signed-in shopper has reviewed (all their reviews, page by page). */
export async function reviewedProductIds(shop: Shop): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const review of shop.api.items('/api/v1/users/me/reviews', { params: { query: { limit: 100 } } }))
    ids.add(review.product_public_id);
  return ids;
}
