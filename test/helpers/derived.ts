import { sql } from 'kysely';
import type { Executor } from '../../src/db/database.js';

/**
 * Every derived store of src/db/DERIVED.md recomputed from its sources and
 * compared with what is stored: the keys whose stored value differs, by
 * store. Empty lists everywhere means the triggers kept everything.
 * `fromProductId` limits the per-product stores to products from that ID on
 * (the ones a test made), so a test that checks after each of many rounds
 * does not recompute every earlier round's documents; the counters are
 * always checked whole.
 */
export async function staleDerived(
  db: Executor,
  { fromProductId = 0 }: { fromProductId?: number } = {},
): Promise<Record<string, string[]>> {
  const run = async (query: ReturnType<typeof sql<{ key: string }>>) => (await query.execute(db)).rows.map((row) => String(row.key));
  return {
    price_range: await run(sql`
      SELECT p.public_id AS key FROM products p,
        LATERAL (SELECT min(v.price) AS low, max(v.price) AS high FROM variants v WHERE v.product_id = p.id AND v.status = 'ACTIVE' AND v.deleted_at IS NULL) r
      WHERE p.id >= ${fromProductId} AND (p.price_min, p.price_max) IS DISTINCT FROM (r.low, r.high)`),
    rating: await run(sql`
      SELECT p.public_id AS key FROM products p,
        LATERAL (SELECT coalesce(round(avg(r.rating), 2), 0) AS average, count(*)::int AS count
                 FROM reviews r WHERE r.product_id = p.id AND r.status = 'APPROVED' AND r.deleted_at IS NULL) r
      WHERE p.id >= ${fromProductId} AND (p.rating_average, p.rating_count) IS DISTINCT FROM (r.average, r.count)`),
    inventory_keys: await run(sql`
      SELECT i.variant_public_id AS key FROM inventory i JOIN variants v ON v.id = i.variant_id JOIN products p ON p.id = v.product_id
      WHERE p.id >= ${fromProductId} AND (i.variant_public_id, i.product_public_id, i.product_name, i.sku, i.variant_deleted)
            IS DISTINCT FROM (v.public_id, p.public_id, p.name, v.sku, v.deleted_at IS NOT NULL)`),
    inventory_products: await run(sql`
      SELECT p.public_id AS key FROM products p LEFT JOIN inventory_products ip ON ip.product_id = p.id
      WHERE p.id >= ${fromProductId} AND (ip.name, ip.live_records) IS DISTINCT FROM (
        p.name, (SELECT count(*)::int FROM inventory i JOIN variants v ON v.id = i.variant_id WHERE v.product_id = p.id AND NOT i.variant_deleted))`),
    inventory_totals: await run(sql`
      SELECT 'live_records' AS key FROM inventory_totals
      WHERE live_records <> (SELECT count(*) FROM inventory WHERE NOT variant_deleted)`),
    storefront_totals: await run(sql`
      SELECT 'products' AS key FROM storefront_totals
      WHERE products <> (SELECT count(*) FROM products WHERE status = 'ACTIVE' AND deleted_at IS NULL)`),
    product_documents: await staleDocuments(db, fromProductId),
  };
}

/**
 * Products from `fromProductId` on whose stored document is not the one built
 * now: a row missing, a public product's document null or different, or a
 * document kept for a product that is not public (whose row holds null).
 */
export async function staleDocuments(db: Executor, fromProductId = 0): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    SELECT p.public_id AS key
    FROM products p
    LEFT JOIN product_documents d ON d.product_id = p.id
    LEFT JOIN product_documents_of(ARRAY(SELECT id FROM products WHERE id >= ${fromProductId})) built ON built.product_id = p.id
    WHERE p.id >= ${fromProductId} AND (d.product_id IS NULL OR d.document::text IS DISTINCT FROM built.document::text)`.execute(db);
  return rows.map((row) => row.key);
}

/** The stale keys of every store, empty when all are consistent (for assert.deepEqual against `consistent`). */
export const consistent = {
  price_range: [],
  rating: [],
  inventory_keys: [],
  inventory_products: [],
  inventory_totals: [],
  storefront_totals: [],
  product_documents: [],
};
