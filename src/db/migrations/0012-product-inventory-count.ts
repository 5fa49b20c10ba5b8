import { sql, type Kysely } from 'kysely';

/**
 * Each product's number of live inventory records (records whose variant is
 * not deleted), kept by triggers. The admin inventory search by product name
 * totals these over the matching products instead of visiting every
 * matching record (bench/NOTES.md, finding 25). Stock changes never touch
 * it: inserts and deletes are counted per statement, and an update fires
 * only when `variant_deleted` flips (a WHEN clause checked without calling
 * the function).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE products ADD COLUMN live_inventory_records integer NOT NULL DEFAULT 0 CHECK (live_inventory_records >= 0);
    UPDATE products p SET live_inventory_records = c.n
    FROM (SELECT v.product_id, count(*) AS n FROM inventory i JOIN variants v ON v.id = i.variant_id
          WHERE NOT i.variant_deleted GROUP BY v.product_id) c
    WHERE c.product_id = p.id;

    CREATE FUNCTION product_inventory_follow_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE products p SET live_inventory_records = p.live_inventory_records + c.n
        FROM (SELECT v.product_id, count(*) AS n FROM new_rows r JOIN variants v ON v.id = r.variant_id
              WHERE NOT r.variant_deleted GROUP BY v.product_id) c
        WHERE p.id = c.product_id;
      ELSE
        UPDATE products p SET live_inventory_records = p.live_inventory_records - c.n
        FROM (SELECT v.product_id, count(*) AS n FROM old_rows r JOIN variants v ON v.id = r.variant_id
              WHERE NOT r.variant_deleted GROUP BY v.product_id) c
        WHERE p.id = c.product_id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER product_inventory_on_insert AFTER INSERT ON inventory
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_inventory_follow_rows();
    CREATE TRIGGER product_inventory_on_delete AFTER DELETE ON inventory
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_inventory_follow_rows();

    CREATE FUNCTION product_inventory_follow_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE products SET live_inventory_records = live_inventory_records + CASE WHEN NEW.variant_deleted THEN -1 ELSE 1 END
      WHERE id = (SELECT product_id FROM variants WHERE id = NEW.variant_id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER product_inventory_on_deletion AFTER UPDATE OF variant_deleted ON inventory
      FOR EACH ROW WHEN (OLD.variant_deleted IS DISTINCT FROM NEW.variant_deleted)
      EXECUTE FUNCTION product_inventory_follow_deletion();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER product_inventory_on_insert ON inventory;
    DROP TRIGGER product_inventory_on_delete ON inventory;
    DROP TRIGGER product_inventory_on_deletion ON inventory;
    DROP FUNCTION product_inventory_follow_rows(), product_inventory_follow_deletion();
    ALTER TABLE products DROP COLUMN live_inventory_records;
  `.execute(db);
}
