import { sql, type Kysely } from 'kysely';

/**
 * The number of products the storefront shows (ACTIVE, not deleted), kept
 * by statement-level triggers instead of counted on every unfiltered page.
 * Counting them was most of the database's work for `GET /products`
 * (bench/NOTES.md, finding 15). Catalog writes are rare and change the count
 * only when a product enters or leaves the storefront; a statement that does
 * not (a rating, a price range) counts its transition rows and writes nothing.
 * The row is read in the same snapshot as the products, so a page and its
 * total always agree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE storefront_totals (
      singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      products   bigint NOT NULL CHECK (products >= 0)
    );
    INSERT INTO storefront_totals (products)
    SELECT count(*) FROM products WHERE status = 'ACTIVE' AND deleted_at IS NULL;

    CREATE FUNCTION storefront_totals_follow_products() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      delta bigint := 0;
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        delta := delta + (SELECT count(*) FROM new_rows WHERE status = 'ACTIVE' AND deleted_at IS NULL);
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        delta := delta - (SELECT count(*) FROM old_rows WHERE status = 'ACTIVE' AND deleted_at IS NULL);
      END IF;
      IF delta <> 0 THEN
        UPDATE storefront_totals SET products = products + delta;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER storefront_totals_on_insert AFTER INSERT ON products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_totals_follow_products();
    CREATE TRIGGER storefront_totals_on_update AFTER UPDATE ON products
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_totals_follow_products();
    CREATE TRIGGER storefront_totals_on_delete AFTER DELETE ON products
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storefront_totals_follow_products();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER storefront_totals_on_insert ON products;
    DROP TRIGGER storefront_totals_on_update ON products;
    DROP TRIGGER storefront_totals_on_delete ON products;
    DROP FUNCTION storefront_totals_follow_products();
    DROP TABLE storefront_totals;
  `.execute(db);
}
