import { sql, type Kysely } from 'kysely';

/**
 * The number of live inventory records (their variant not deleted), kept by
 * triggers for the admin inventory list's default view, which counted all
 * 40,000 records on every page (bench/NOTES.md, finding 16). Stock changes
 * never touch it: inserts and deletes are counted per statement, and an
 * update fires only when `variant_deleted` flips (a WHEN clause PostgreSQL
 * checks without calling the function).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE inventory_totals (
      singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      live_records  bigint NOT NULL CHECK (live_records >= 0)
    );
    INSERT INTO inventory_totals (live_records) SELECT count(*) FROM inventory WHERE NOT variant_deleted;

    CREATE FUNCTION inventory_totals_follow_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      delta bigint;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        delta := (SELECT count(*) FROM new_rows WHERE NOT variant_deleted);
      ELSE
        delta := -(SELECT count(*) FROM old_rows WHERE NOT variant_deleted);
      END IF;
      IF delta <> 0 THEN
        UPDATE inventory_totals SET live_records = live_records + delta;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_totals_on_insert AFTER INSERT ON inventory
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_follow_rows();
    CREATE TRIGGER inventory_totals_on_delete AFTER DELETE ON inventory
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_follow_rows();

    CREATE FUNCTION inventory_totals_follow_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE inventory_totals SET live_records = live_records + CASE WHEN NEW.variant_deleted THEN -1 ELSE 1 END;
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_totals_on_deletion AFTER UPDATE OF variant_deleted ON inventory
      FOR EACH ROW WHEN (OLD.variant_deleted IS DISTINCT FROM NEW.variant_deleted)
      EXECUTE FUNCTION inventory_totals_follow_deletion();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER inventory_totals_on_insert ON inventory;
    DROP TRIGGER inventory_totals_on_delete ON inventory;
    DROP TRIGGER inventory_totals_on_deletion ON inventory;
    DROP FUNCTION inventory_totals_follow_rows(), inventory_totals_follow_deletion();
    DROP TABLE inventory_totals;
  `.execute(db);
}
