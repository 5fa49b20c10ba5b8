import type { DataOf, ItemOf } from '@commerce/client';
import { cached } from './cache';
import type { Shop } from './shop';

export type Category = ItemOf<'/api/v1/categories'>;
export type Product = DataOf<'/api/v1/products/{product_public_id}', 'get'>;
export type Variant = Product['variants'][number];
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
}

/** How stale the navigation may be after a category changes. */
export const CATEGORY_TTL_MS = 10_000;
const SETTINGS_TTL_MS = 60_000;
const MAX_CATEGORIES = 1000;

export function storeSettings(shop: Shop): Promise<StoreSettings> {
  return cached(shop.transport.instance, 'settings', SETTINGS_TTL_MS, () => shop.api.store());
}

/** The category tree, cached for CATEGORY_TTL_MS; `fresh` asks the API now (and refreshes the cache). */
export function categoryTree(shop: Shop, options: { fresh?: boolean } = {}): Promise<CategoryTree> {
  return cached(
    shop.transport.instance,
    'categories',
    CATEGORY_TTL_MS,
    async () => {
      const all: Category[] = [];
      for await (const category of shop.api.items('/api/v1/categories', { params: { query: { limit: 100 } } })) {
        all.push(category);
        if (all.length >= MAX_CATEGORIES) break;
      }
      return buildTree(all);
    },
    options.fresh ? 0 : CATEGORY_TTL_MS,
  );
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
  const onSale = product.variants.some((v) => v.compare_at_price !== null && Number(v.compare_at_price) > Number(v.price));
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
    on_sale: onSale,
  };
}
export type ProductCard = ReturnType<typeof card>;
