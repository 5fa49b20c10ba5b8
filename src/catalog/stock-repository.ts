import type { Executor } from '../db/database.js';

export interface PublicVariantStock {
  public_id: string;
  available: number | null;
  reorder_level: number | null;
}

/**
 * The live stock of a public product's variants (ACTIVE and not deleted, in their order), or
 * undefined when the product is not public. Read from the inventory records as they are now, not
 * from the product document (which keeps only whether each variant is in stock).
 */
export async function publicVariantStock(db: Executor, productPublicId: string): Promise<PublicVariantStock[] | undefined> {
  const product = await db
    .selectFrom('products')
    .select('id')
    .where('public_id', '=', productPublicId)
    .where('status', '=', 'ACTIVE')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!product) return undefined;
  return db
    .selectFrom('variants as v')
    .leftJoin('inventory as i', 'i.variant_id', 'v.id')
    .select(['v.public_id', (eb) => eb('i.quantity_on_hand', '-', eb.ref('i.quantity_reserved')).as('available'), 'i.reorder_level'])
    .where('v.product_id', '=', product.id)
    .where('v.status', '=', 'ACTIVE')
    .where('v.deleted_at', 'is', null)
    .orderBy('v.position')
    .orderBy('v.public_id')
    .execute();
}
