import type { RunningApp } from './app.js';
import type { Client } from './client.js';
import { INVENTORY, createRecord, createVariant, stockedVariant, uniqueTag, type VariantRef } from './inventory.js';

/** The GET /admin/inventory list tests' shared fixture and readers. */

/** One record of the sort fixture, as made. */
export interface SortRecord {
  ref: VariantRef;
  onHand: number;
  reserved: number;
  updated: string;
}

type Key = (f: SortRecord) => string | number;
/** The sort fields of the list, each with the fixture value it sorts by. */
export const KEYS: Record<string, Key> = {
  product_name: (f) => f.ref.productName,
  sku: (f) => f.ref.sku,
  quantity_on_hand: (f) => f.onHand,
  quantity_available: (f) => f.onHand - f.reserved,
  last_stock_update: (f) => Date.parse(f.updated),
};

/** GET /admin/inventory?`query` as the file's ADMIN, bound to its app: `const list = inventoryLister(t)`. */
export const inventoryLister = (t: { readonly admin: Client }) => (query: string) => t.admin.get(`${INVENTORY}?${query}`);
export const ids = (response: { body: any }) => (response.body.data as { variant_public_id: string }[]).map((r) => r.variant_public_id);

/**
 * The sort fixture: three products, five records, with ties on product name
 * (two variants of one product), on quantity_on_hand (three 5s), on
 * quantity_available (two 2s) and on last_stock_update (set equal in the database).
 * `seed` makes it (a file's useApp seed); `fixture` then holds its records in the order made.
 */
export function sortFixture() {
  const TAG = uniqueTag('srt');
  const SKU_TAG = TAG.toUpperCase();
  const fixture: SortRecord[] = [];

  async function seed(t: RunningApp & { readonly admin: Client }) {
    const alpha = await createVariant(t.admin, { productName: `${TAG} Alpha`, sku: `${SKU_TAG}-A1` });
    const bravo = await createVariant(t.admin, { productName: `${TAG} Bravo`, sku: `${SKU_TAG}-B1` });
    const charlie = await createVariant(t.admin, { productName: `${TAG} Charlie`, sku: `${SKU_TAG}-C1` });
    const rows: [VariantRef, number, number, string][] = [
      [charlie, 5, 3, '2024-01-01T10:00:00.000Z'],
      [
        await createVariant(t.admin, { productPublicId: alpha.productPublicId, productName: alpha.productName, sku: `${SKU_TAG}-A2` }),
        5,
        0,
        '2024-01-01T09:00:00.000Z',
      ],
      [alpha, 5, 0, '2024-01-01T11:00:00.000Z'],
      [bravo, 3, 1, '2024-01-01T09:00:00.000Z'],
      [
        await createVariant(t.admin, { productPublicId: charlie.productPublicId, productName: charlie.productName, sku: `${SKU_TAG}-C2` }),
        0,
        0,
        '2024-01-01T08:00:00.000Z',
      ],
    ];
    for (const [ref, onHand, reserved, updated] of rows) {
      await stockedVariant(t.admin, onHand, { reserved }); // a record outside the search, which must never show up
      await createRecord(t.admin, ref.variantPublicId, Math.max(onHand, reserved));
      if (reserved) await t.admin.patch(`${INVENTORY}/${ref.variantPublicId}/reservation`, { change: reserved });
      const variant = await t.db.selectFrom('variants').select('id').where('public_id', '=', ref.variantPublicId).executeTakeFirstOrThrow();
      await t.db
        .updateTable('inventory')
        .set({ last_stock_update: new Date(updated) })
        .where('variant_id', '=', variant.id)
        .execute();
      fixture.push({ ref, onHand, reserved, updated });
    }
  }

  /** The expected order: the key, then variant_public_id, both in the sort's direction (byte order, as the C collation). */
  function expected(sort: string): string[] {
    const desc = sort.startsWith('-');
    const key = KEYS[desc ? sort.slice(1) : sort]!;
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    return [...fixture]
      .sort((a, b) => (desc ? -1 : 1) * (cmp(key(a), key(b)) || cmp(a.ref.variantPublicId, b.ref.variantPublicId)))
      .map((f) => f.ref.variantPublicId);
  }

  return { TAG, SKU_TAG, fixture, seed, expected };
}
