import { sql, type Kysely } from 'kysely';

/**
 * HTTP caches in front of the public catalog (src/http-cache/, docs/caching.md).
 *
 * - `catalog_version` is one number that moves whenever anything a shopper can
 *   read changes; every public read's ETag is made from it, so a conditional
 *   request is answered by reading one row. It is bumped by a deferred trigger,
 *   at commit, once per transaction: the row lock is held for the commit only,
 *   and versions follow commit order (a reader never sees a version whose
 *   changes it cannot see, nor changes without their version).
 * - `cache.purge` events carry the surrogate keys of what changed (products,
 *   categories, list scopes, a product's reviews). They are written by the
 *   triggers below, in the statement that made the change, whoever wrote it
 *   (admin, import, checkout, moderation), and go through the event outbox of
 *   migration 0017 to the `cache` targets: one per configured cache
 *   (`CACHE_PURGE_URLS`), whose address `cache_targets` holds.
 *
 * The keys: `prd_...` (a product: its page, and every list page showing it),
 * `products` (every product list), `cat_...` (a category), `categories` (the
 * category list), `reviews:prd_...` (a product's approved reviews).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE event_targets DROP CONSTRAINT event_targets_kind_check;
    ALTER TABLE event_targets ADD CONSTRAINT event_targets_kind_check CHECK (kind IN ('webhook', 'cache'));

    CREATE TABLE cache_targets (
      target_id  bigint PRIMARY KEY REFERENCES event_targets (id),
      url        text NOT NULL
    );

    CREATE TABLE catalog_version (
      singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version    bigint NOT NULL,
      -- The transaction that bumped it last: a transaction bumps it once, however many purges it records.
      bumped_by  xid8
    );
    INSERT INTO catalog_version (version) VALUES (1);

    CREATE FUNCTION bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE catalog_version SET version = version + 1, bumped_by = pg_current_xact_id()
      WHERE bumped_by IS DISTINCT FROM pg_current_xact_id();
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER bump_catalog_version AFTER INSERT ON events
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.type = 'cache.purge') EXECUTE FUNCTION bump_catalog_version();

    -- One purge event for these keys (none when there are none). Its ordering key is its own:
    -- purges may go out in any order and in parallel.
    CREATE FUNCTION purge_cache(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(keys) > 0 THEN
        INSERT INTO events (type, version, ordering_key, payload)
        VALUES ('cache.purge', 1, gen_random_uuid()::text, jsonb_build_object('keys', to_jsonb(keys)));
      END IF;
    END $$;


    -- A storefront document written (its product created or changed: fields, variants, categories,
    -- availability, rating): the product, and every list, for any of them may now show it differently.
    -- Documents of products that are not public, before and after, change nothing a shopper sees.
    -- (No join of new_rows with old_rows: a bulk write rewrites thousands of documents, and the two
    -- transition tables have no index to join on. Each is read once, and products by primary key.)
    CREATE FUNCTION purge_from_product_documents() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      shown text[];
    BEGIN
      IF TG_OP = 'INSERT' THEN
        shown := ARRAY(SELECT p.public_id FROM new_rows n JOIN products p ON p.id = n.product_id
                       WHERE p.status = 'ACTIVE' AND p.deleted_at IS NULL ORDER BY 1);
      ELSE
        shown := ARRAY(SELECT p.public_id
                       FROM (SELECT product_id FROM new_rows WHERE (document ->> 'status') = 'ACTIVE'
                             UNION SELECT product_id FROM old_rows WHERE (document ->> 'status') = 'ACTIVE') c
                       JOIN products p ON p.id = c.product_id
                       WHERE p.deleted_at IS NULL ORDER BY 1);
      END IF;
      IF cardinality(shown) > 0 THEN
        PERFORM purge_cache('{products}'::text[] || shown);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_insert AFTER INSERT ON product_documents
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_product_documents();
    CREATE TRIGGER purge_on_update AFTER UPDATE ON product_documents
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_product_documents();

    -- A public product deleted (soft, or for good): its document may not change, but it is gone.
    CREATE FUNCTION purge_from_products() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      gone text[];
    BEGIN
      IF TG_OP = 'DELETE' THEN
        gone := ARRAY(SELECT public_id FROM old_rows WHERE status = 'ACTIVE' AND deleted_at IS NULL ORDER BY 1);
      ELSE
        -- Deleted rows first (a bulk price refresh deletes none, and looks no further).
        gone := ARRAY(SELECT n.public_id FROM new_rows n
                      WHERE n.deleted_at IS NOT NULL
                        AND EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id AND o.status = 'ACTIVE' AND o.deleted_at IS NULL)
                      ORDER BY 1);
      END IF;
      IF cardinality(gone) > 0 THEN
        PERFORM purge_cache('{products}'::text[] || gone);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_update AFTER UPDATE ON products
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_products();
    CREATE TRIGGER purge_on_delete AFTER DELETE ON products
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_products();

    -- A category written: itself, the category list, and the product lists (a category's products include its
    -- subcategories', so a move changes lists). Product documents that show its name purge themselves.
    CREATE FUNCTION purge_from_categories() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      changed text[];
    BEGIN
      IF TG_OP = 'INSERT' THEN
        changed := ARRAY(SELECT public_id FROM new_rows WHERE deleted_at IS NULL ORDER BY 1);
      ELSIF TG_OP = 'DELETE' THEN
        changed := ARRAY(SELECT public_id FROM old_rows WHERE deleted_at IS NULL ORDER BY 1);
      ELSE
        -- Every category a statement updated that was or is live (category writes are one admin's edits).
        changed := ARRAY(SELECT public_id FROM new_rows WHERE deleted_at IS NULL
                         UNION SELECT public_id FROM old_rows WHERE deleted_at IS NULL ORDER BY 1);
      END IF;
      IF cardinality(changed) > 0 THEN
        PERFORM purge_cache('{categories,products}'::text[] || changed);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_insert AFTER INSERT ON categories
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_categories();
    CREATE TRIGGER purge_on_update AFTER UPDATE ON categories
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_categories();
    CREATE TRIGGER purge_on_delete AFTER DELETE ON categories
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_categories();

    -- A review that is public (APPROVED and live) before or after the write: its product's review list.
    -- The rating it moves is in the product's document, which purges itself.
    CREATE FUNCTION purge_from_reviews() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      lists text[];
    BEGIN
      lists := ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id
        FROM (SELECT product_id, status, deleted_at FROM new_rows UNION ALL SELECT product_id, status, deleted_at FROM old_rows) r
        JOIN products p ON p.id = r.product_id
        WHERE r.status = 'APPROVED' AND r.deleted_at IS NULL ORDER BY 1);
      PERFORM purge_cache(lists);
      RETURN NULL;
    END $$;
    CREATE FUNCTION purge_from_reviews_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM purge_cache(ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id FROM new_rows r JOIN products p ON p.id = r.product_id
        WHERE r.status = 'APPROVED' AND r.deleted_at IS NULL ORDER BY 1));
      RETURN NULL;
    END $$;
    CREATE FUNCTION purge_from_reviews_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM purge_cache(ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id FROM old_rows r JOIN products p ON p.id = r.product_id
        WHERE r.status = 'APPROVED' AND r.deleted_at IS NULL ORDER BY 1));
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_insert AFTER INSERT ON reviews
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_reviews_inserted();
    CREATE TRIGGER purge_on_update AFTER UPDATE ON reviews
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_reviews();
    CREATE TRIGGER purge_on_delete AFTER DELETE ON reviews
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_reviews_deleted();

    -- A renamed author: the review lists that show their public reviews (first name and last initial).
    CREATE FUNCTION purge_from_users() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM purge_cache(ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id
        FROM new_rows n
        JOIN reviews r ON r.user_id = n.id AND r.status = 'APPROVED' AND r.deleted_at IS NULL
        JOIN products p ON p.id = r.product_id
        WHERE EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id AND (o.first_name, o.last_name) IS DISTINCT FROM (n.first_name, n.last_name))
        ORDER BY 1));
      RETURN NULL;
    END $$;
    CREATE TRIGGER purge_on_update AFTER UPDATE ON users
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_users();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER purge_on_update ON users;
    DROP TRIGGER purge_on_insert ON reviews;
    DROP TRIGGER purge_on_update ON reviews;
    DROP TRIGGER purge_on_delete ON reviews;
    DROP TRIGGER purge_on_insert ON categories;
    DROP TRIGGER purge_on_update ON categories;
    DROP TRIGGER purge_on_delete ON categories;
    DROP TRIGGER purge_on_update ON products;
    DROP TRIGGER purge_on_delete ON products;
    DROP TRIGGER purge_on_insert ON product_documents;
    DROP TRIGGER purge_on_update ON product_documents;
    DROP TRIGGER bump_catalog_version ON events;
    DROP FUNCTION purge_from_users(), purge_from_reviews(), purge_from_reviews_inserted(), purge_from_reviews_deleted(),
      purge_from_categories(), purge_from_products(), purge_from_product_documents(), purge_cache(text[]), bump_catalog_version();
    DELETE FROM event_deliveries d USING event_targets t WHERE t.id = d.target_id AND t.kind = 'cache';
    DELETE FROM events WHERE type = 'cache.purge';
    DROP TABLE catalog_version, cache_targets;
    DELETE FROM event_targets WHERE kind = 'cache';
    ALTER TABLE event_targets DROP CONSTRAINT event_targets_kind_check;
    ALTER TABLE event_targets ADD CONSTRAINT event_targets_kind_check CHECK (kind IN ('webhook'));
  `.execute(db);
}
