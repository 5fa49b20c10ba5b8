import type { ProductRow, VariantRow } from '../db/schema.js';

/** The fields an audit entry records for a product or variant (no derived or internal columns). */
export const productAudit = (p: ProductRow) => ({
  name: p.name,
  slug: p.slug,
  description: p.description,
  brand: p.brand,
  status: p.status,
  images: p.images,
});
export const variantAudit = (v: VariantRow) => ({
  sku: v.sku,
  name: v.name,
  options: v.options,
  price: v.price,
  compare_at_price: v.compare_at_price,
  cost_price: v.cost_price,
  status: v.status,
  position: v.position,
});
