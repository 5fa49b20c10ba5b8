import { sql, type Kysely } from 'kysely';

/**
 * A product whose stock turns scarce is purged from HTTP caches (docs/caching.md).
 *
 * A storefront page that says "In stock" may be kept by a shared cache; one that says "Only N left"
 * may not (the count moves with every sale). Going out of stock, or back, flips the product's
 * document, which purges itself (migration 0018); going from in stock to low (a sale, a count, a new
 * reorder level) changes no document, so the kept "In stock" page would outlive it until its
 * s-maxage. This purges the product's key on that transition, for live ACTIVE products only (a purge
 * moves the catalog version, and with it every ETag). Most stock writes cross no threshold and stop
 * at the first look.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION purge_from_inventory() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      scarce text[];
    BEGIN
      scarce := ARRAY(
        SELECT DISTINCT p.public_id
        FROM new_rows n
        JOIN old_rows o ON o.id = n.id
        JOIN products p ON p.public_id = n.product_public_id
        WHERE NOT n.variant_deleted
          AND stock_status(n.quantity_on_hand, n.quantity_reserved, n.reorder_level) = 'LOW_STOCK'
          AND stock_status(o.quantity_on_hand, o.quantity_reserved, o.reorder_level) = 'IN_STOCK'
          AND p.status = 'ACTIVE' AND p.deleted_at IS NULL
        ORDER BY 1);
      PERFORM purge_cache(scarce);
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_update AFTER UPDATE ON inventory
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_inventory();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER purge_on_update ON inventory;
    DROP FUNCTION purge_from_inventory();
  `.execute(db);
}
