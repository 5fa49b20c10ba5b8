import type { ImageJson, ProductRow } from '../db/schema.js';
import { stockStatus, toInventoryRecord } from '../inventory/mappers.js';
import type { AdminProduct, AdminVariant, PublicVariant } from './schemas.js';
import type { VariantWithStock } from './listing-repository.js';

type CategoryRef = { public_id: string; name: string; slug: string };

const images = (list: ImageJson[]) => list.map((image) => ({ url: image.url, alt_text: image.alt_text ?? null, position: image.position }));

export function toPublicVariant(v: VariantWithStock): PublicVariant {
  const available = (v.quantity_on_hand ?? 0) - (v.quantity_reserved ?? 0);
  return {
    public_id: v.public_id,
    sku: v.sku,
    name: v.name,
    options: v.options,
    price: v.price,
    compare_at_price: v.compare_at_price,
    status: v.status,
    in_stock: v.quantity_on_hand !== null && available > 0,
    images: images(v.images),
  };
}

export function toAdminVariant(v: VariantWithStock): AdminVariant {
  return {
    ...toPublicVariant(v),
    product_public_id: v.product_public_id,
    cost_price: v.cost_price,
    position: v.position,
    inventory:
      v.quantity_on_hand === null || v.quantity_reserved === null || !v.inventory_created_at || !v.last_stock_update
        ? null
        : toInventoryRecord({
            inventory_id: 0,
            variant_id: v.id,
            variant_public_id: v.public_id,
            product_public_id: v.product_public_id,
            product_name: v.product_name,
            sku: v.sku,
            quantity_on_hand: v.quantity_on_hand,
            quantity_reserved: v.quantity_reserved,
            quantity_available: v.quantity_on_hand - v.quantity_reserved,
            reorder_level: v.reorder_level,
            stock_status: stockStatus(v.quantity_on_hand - v.quantity_reserved, v.reorder_level),
            created_at: v.inventory_created_at,
            last_stock_update: v.last_stock_update,
          }),
    created_at: v.created_at.toISOString(),
    updated_at: v.updated_at.toISOString(),
    deleted_at: v.deleted_at ? new Date(v.deleted_at).toISOString() : null,
  };
}

function productBase(p: ProductRow, categories: CategoryRef[]) {
  return {
    public_id: p.public_id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    brand: p.brand,
    status: p.status,
    categories,
    images: images(p.images),
    price_min: p.price_min,
    price_max: p.price_max,
    rating: { average: Number(p.rating_average), count: p.rating_count },
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

/** Groups the variant and category rows of a page under their products, keeping the page's order. */
export function assembleProducts<V>(
  products: ProductRow[],
  variants: VariantWithStock[],
  categories: (CategoryRef & { product_id: number })[],
  mapVariant: (v: VariantWithStock) => V,
) {
  const variantsBy = new Map<number, V[]>();
  for (const v of variants) {
    const list = variantsBy.get(v.product_id) ?? [];
    list.push(mapVariant(v));
    variantsBy.set(v.product_id, list);
  }
  const categoriesBy = new Map<number, CategoryRef[]>();
  for (const c of categories) {
    const list = categoriesBy.get(c.product_id) ?? [];
    list.push({ public_id: c.public_id, name: c.name, slug: c.slug });
    categoriesBy.set(c.product_id, list);
  }
  return products.map((p) => ({ product: p, base: productBase(p, categoriesBy.get(p.id) ?? []), variants: variantsBy.get(p.id) ?? [] }));
}

export const toAdminProducts = (
  products: ProductRow[],
  variants: VariantWithStock[],
  categories: (CategoryRef & { product_id: number })[],
): AdminProduct[] =>
  assembleProducts(products, variants, categories, toAdminVariant).map(({ product, base, variants: vs }) => ({
    ...base,
    variants: vs,
    deleted_at: product.deleted_at ? new Date(product.deleted_at).toISOString() : null,
  }));
