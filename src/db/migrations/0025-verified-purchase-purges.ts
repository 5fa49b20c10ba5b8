import { sql, type Kysely } from 'kysely';

/**
 * A product's public reviews say whether each author bought it: `verified_purchase`, true once an
 * order of theirs holding the product reached SHIPPED or FULFILLED (src/reviews/repository.ts). That
 * is computed when read, so an order crossing into (or, cancelled, out of) those states changes a
 * public review list without writing a review: no purge went out and the catalog's version stood, so
 * a cache (and the ETag) kept calling the purchase unverified. An order's status crossing that line
 * now purges `reviews:prd_...` for each product of the order whose list shows a review by its buyer
 * and whose verification it changes (no other shipped order of theirs holds the product).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION purge_from_order_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (OLD.status IN ('SHIPPED', 'FULFILLED')) = (NEW.status IN ('SHIPPED', 'FULFILLED')) THEN
        RETURN NULL;
      END IF;
      PERFORM purge_cache(ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id
        FROM order_items oi
        JOIN reviews r ON r.product_id = oi.product_id AND r.user_id = NEW.user_id AND r.status = 'APPROVED' AND r.deleted_at IS NULL
        JOIN products p ON p.id = oi.product_id
        WHERE oi.order_id = NEW.id
          AND NOT EXISTS (SELECT 1 FROM order_items other JOIN orders o ON o.id = other.order_id
                          WHERE other.product_id = oi.product_id AND o.user_id = NEW.user_id AND o.id <> NEW.id
                            AND o.status IN ('SHIPPED', 'FULFILLED'))
        ORDER BY 1));
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_status AFTER UPDATE OF status ON orders
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION purge_from_order_status();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER purge_on_status ON orders;
    DROP FUNCTION purge_from_order_status();
  `.execute(db);
}
