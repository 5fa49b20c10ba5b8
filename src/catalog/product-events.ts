import type { Executor } from '../db/database.js';
import type { EventProduct } from '../events/catalog.js';
import { recordEvent, recordEvents } from '../events/repository.js';
import type { AdminProduct } from './schemas.js';

/**
 * A product as events carry it (src/events/catalog.ts): what a storefront,
 * search index or marketplace feed needs, without cost prices or stock counts
 * (stock has events of its own).
 */
export const toEventProduct = (p: AdminProduct): EventProduct => ({
  public_id: p.public_id,
  name: p.name,
  slug: p.slug,
  description: p.description,
  brand: p.brand,
  status: p.status,
  categories: p.categories,
  images: p.images,
  price_min: p.price_min,
  price_max: p.price_max,
  variants: p.variants
    .filter((v) => v.deleted_at === null)
    .map((v) => ({
      public_id: v.public_id,
      sku: v.sku,
      name: v.name,
      options: v.options,
      price: v.price,
      compare_at_price: v.compare_at_price,
      status: v.status,
      position: v.position,
      images: v.images,
    })),
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/** product.created or product.updated with the product as it is now, in the writing transaction. */
export const recordProductEvent = (trx: Executor, type: 'product.created' | 'product.updated', product: AdminProduct) =>
  recordEvent(trx, type, product.public_id, { product: toEventProduct(product) });

/** The same for many products at once (a catalog import), in a few statements. */
export const recordProductEvents = (trx: Executor, type: 'product.created' | 'product.updated', products: readonly AdminProduct[]) =>
  recordEvents(
    trx,
    type,
    products.map((product) => ({ orderingKey: product.public_id, data: { product: toEventProduct(product) } })),
  );

export const recordProductDeleted = (trx: Executor, product: { public_id: string; name: string; slug: string }, at: Date) =>
  recordEvent(trx, 'product.deleted', product.public_id, {
    product: { public_id: product.public_id, name: product.name, slug: product.slug },
    deleted_at: at.toISOString(),
  });
