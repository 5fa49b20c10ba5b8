import { sql, type Kysely } from 'kysely';

/**
 * The admin inventory search's index of product names: per product, its name
 * and its number of live inventory records (records whose variant is not
 * deleted), kept by triggers. A search by product name finds the names here
 * (a narrow table, so the trigram match reads few pages) and totals the
 * counts instead of visiting every matching record (bench/NOTES.md,
 * finding 25). Stock changes never touch it: inventory inserts and deletes
 * are counted per statement, and an update fires only when `variant_deleted`
 * flips (a WHEN clause checked without calling the function).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE inventory_products (
      product_id    bigint PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
      name          text NOT NULL,
      live_records  integer NOT NULL DEFAULT 0 CHECK (live_records >= 0)
    );
    INSERT INTO inventory_products (product_id, name, live_records)
    SELECT p.id, p.name, (SELECT count(*) FROM inventory i JOIN variants v ON v.id = i.variant_id
                          WHERE v.product_id = p.id AND NOT i.variant_deleted)
    FROM products p;
    CREATE INDEX inventory_products_name_trgm ON inventory_products USING gin (name gin_trgm_ops);

    CREATE FUNCTION inventory_products_follow_products() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO inventory_products (product_id, name) SELECT id, name FROM new_rows;
      ELSE
        UPDATE inventory_products SET name = NEW.name WHERE product_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_products_on_insert AFTER INSERT ON products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_products_follow_products();
    CREATE TRIGGER inventory_products_on_rename AFTER UPDATE OF name ON products
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION inventory_products_follow_products();

    CREATE FUNCTION inventory_products_follow_records() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE inventory_products ip SET live_records = ip.live_records + c.n
        FROM (SELECT v.product_id, count(*) AS n FROM new_rows r JOIN variants v ON v.id = r.variant_id
              WHERE NOT r.variant_deleted GROUP BY v.product_id) c
        WHERE ip.product_id = c.product_id;
      ELSE
        UPDATE inventory_products ip SET live_records = ip.live_records - c.n
        FROM (SELECT v.product_id, count(*) AS n FROM old_rows r JOIN variants v ON v.id = r.variant_id
              WHERE NOT r.variant_deleted GROUP BY v.product_id) c
        WHERE ip.product_id = c.product_id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_products_on_insert AFTER INSERT ON inventory
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_products_follow_records();
    CREATE TRIGGER inventory_products_on_delete AFTER DELETE ON inventory
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_products_follow_records();

    CREATE FUNCTION inventory_products_follow_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE inventory_products SET live_records = live_records + CASE WHEN NEW.variant_deleted THEN -1 ELSE 1 END
      WHERE product_id = (SELECT product_id FROM variants WHERE id = NEW.variant_id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_products_on_deletion AFTER UPDATE OF variant_deleted ON inventory
      FOR EACH ROW WHEN (OLD.variant_deleted IS DISTINCT FROM NEW.variant_deleted)
      EXECUTE FUNCTION inventory_products_follow_deletion();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER inventory_products_on_insert ON products;
    DROP TRIGGER inventory_products_on_rename ON products;
    DROP TRIGGER inventory_products_on_insert ON inventory;
    DROP TRIGGER inventory_products_on_delete ON inventory;
    DROP TRIGGER inventory_products_on_deletion ON inventory;
    DROP FUNCTION inventory_products_follow_products(), inventory_products_follow_records(), inventory_products_follow_deletion();
    DROP TABLE inventory_products;
  `.execute(db);
}
