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
  // One statement: the product's row always, joined to its variants when it has any (a product with
  // none is one row whose variant columns are null).
  const rows = await db
    .selectFrom('products as p')
    .leftJoin('variants as v', (join) =>
      join.onRef('v.product_id', '=', 'p.id').on('v.status', '=', 'ACTIVE').on('v.deleted_at', 'is', null),
    )
    .leftJoin('inventory as i', 'i.variant_id', 'v.id')
    .select(['v.public_id', (eb) => eb('i.quantity_on_hand', '-', eb.ref('i.quantity_reserved')).as('available'), 'i.reorder_level'])
    .where('p.public_id', '=', productPublicId)
    .where('p.status', '=', 'ACTIVE')
    .where('p.deleted_at', 'is', null)
    .orderBy('v.position')
    .orderBy('v.public_id')
    .execute();
  if (rows.length === 0) return undefined;
  return rows.flatMap((row) => (row.public_id === null ? [] : [{ ...row, public_id: row.public_id }]));
}
