import { sql, type Kysely } from 'kysely';

/**
 * Derived data, one mechanism (src/db/DERIVED.md is the index). Until now
 * five derived stores were kept by 26 triggers named after the store, two
 * more values (price range, rating) by application code whose writes fired
 * the document triggers a second time, and the order of their effects hung
 * on trigger names. From here:
 *
 * - Every derived value is kept by the database, in the writing statement's
 *   transaction: the price range and the rating too, so no caller can forget one.
 * - Each source table has one statement-level trigger function,
 *   `derive_from_<table>()`, fired after INSERT, UPDATE and DELETE, that names
 *   every effect of a write to that table in order. Open it to know what a
 *   write does.
 * - Each derived store has one refresher, `refresh_<store>(keys)`, that locks
 *   its rows in key order and recomputes them from their sources (or, for the
 *   counters, applies a delta), writing only what changed; given no keys it does nothing.
 * - A derived column's own source rebuilds the product document: the variants
 *   trigger refreshes the price range and then the documents, the reviews
 *   trigger the rating and then the documents, and the products trigger
 *   ignores those columns. One rebuild per writing statement.
 *
 * The lock order every writer keeps is in src/db/LOCKING.md.
 */
const SOURCES = ['products', 'variants', 'product_categories', 'categories', 'inventory', 'reviews'] as const;

/** The three statement triggers of a source, each with the transition tables its event has. */
function followWrites(table: (typeof SOURCES)[number]) {
  const fn = `derive_from_${table}()`;
  return sql.raw(`
    CREATE TRIGGER derive_on_insert AFTER INSERT ON ${table}
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn};
    CREATE TRIGGER derive_on_update AFTER UPDATE ON ${table}
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn};
    CREATE TRIGGER derive_on_delete AFTER DELETE ON ${table}
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn};
  `);
}

const dropFollowers = (table: (typeof SOURCES)[number]) =>
  sql.raw(
    `DROP TRIGGER derive_on_insert ON ${table}; DROP TRIGGER derive_on_update ON ${table}; DROP TRIGGER derive_on_delete ON ${table};`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  // The store-by-store triggers of migrations 0006, 0008, 0009, 0011 and 0012 (inventory_fill_keys, a
  // BEFORE INSERT row trigger that fills the new record's own key columns, stays).
  await sql`
    DROP TRIGGER inventory_follow_product ON products;
    DROP TRIGGER inventory_follow_variant ON variants;
    DROP FUNCTION inventory_follow_product(), inventory_follow_variant();
    DROP TRIGGER storefront_totals_on_insert ON products;
    DROP TRIGGER storefront_totals_on_update ON products;
    DROP TRIGGER storefront_totals_on_delete ON products;
    DROP FUNCTION storefront_totals_follow_products();
    DROP TRIGGER inventory_totals_on_insert ON inventory;
    DROP TRIGGER inventory_totals_on_delete ON inventory;
    DROP TRIGGER inventory_totals_on_deletion ON inventory;
    DROP FUNCTION inventory_totals_follow_rows(), inventory_totals_follow_deletion();
    DROP TRIGGER product_documents_on_insert ON products;
    DROP TRIGGER product_documents_on_update ON products;
    DROP TRIGGER product_documents_on_insert ON variants;
    DROP TRIGGER product_documents_on_update ON variants;
    DROP TRIGGER product_documents_on_delete ON variants;
    DROP TRIGGER product_documents_on_insert ON product_categories;
    DROP TRIGGER product_documents_on_update ON product_categories;
    DROP TRIGGER product_documents_on_delete ON product_categories;
    DROP TRIGGER product_documents_on_update ON categories;
    DROP TRIGGER product_documents_on_insert ON inventory;
    DROP TRIGGER product_documents_on_update ON inventory;
    DROP TRIGGER product_documents_on_delete ON inventory;
    DROP FUNCTION product_documents_follow_rows(), product_documents_follow_categories(), product_documents_follow_inventory();
    DROP TRIGGER inventory_products_on_insert ON products;
    DROP TRIGGER inventory_products_on_rename ON products;
    DROP TRIGGER inventory_products_on_insert ON inventory;
    DROP TRIGGER inventory_products_on_delete ON inventory;
    DROP TRIGGER inventory_products_on_deletion ON inventory;
    DROP FUNCTION inventory_products_follow_products(), inventory_products_follow_records(), inventory_products_follow_deletion();
  `.execute(db);

  // ---- the refreshers, one per derived store ------------------------------------------------------
  await sql`
    -- products.price_min / price_max: the range of the product's ACTIVE, live variants.
    CREATE FUNCTION refresh_price_range(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      -- Locked first, computed in a second statement: under READ COMMITTED that statement sees every
      -- variant change committed by a writer this one waited for (no stale overwrite).
      PERFORM 1 FROM products WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
      UPDATE products p SET price_min = r.low, price_max = r.high
      FROM (SELECT p2.id,
                   (SELECT min(price) FROM variants v WHERE v.product_id = p2.id AND v.status = 'ACTIVE' AND v.deleted_at IS NULL) AS low,
                   (SELECT max(price) FROM variants v WHERE v.product_id = p2.id AND v.status = 'ACTIVE' AND v.deleted_at IS NULL) AS high
            FROM products p2 WHERE p2.id = ANY (ids)) r
      WHERE p.id = r.id AND (p.price_min, p.price_max) IS DISTINCT FROM (r.low, r.high);
    END $$;

    -- products.rating_average / rating_count: the product's APPROVED, live reviews.
    CREATE FUNCTION refresh_rating(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM products WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
      UPDATE products p SET rating_average = r.average, rating_count = r.count
      FROM (SELECT p2.id, coalesce(round(avg(rv.rating), 2), 0) AS average, count(rv.id)::int AS count
            FROM products p2 LEFT JOIN reviews rv ON rv.product_id = p2.id AND rv.status = 'APPROVED' AND rv.deleted_at IS NULL
            WHERE p2.id = ANY (ids) GROUP BY p2.id) r
      WHERE p.id = r.id AND (p.rating_average, p.rating_count) IS DISTINCT FROM (r.average, r.count);
    END $$;

    -- inventory's copies of its variant's and product's keys (sort and search columns of the admin list).
    CREATE FUNCTION refresh_inventory_keys(variant_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(variant_ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM inventory WHERE variant_id = ANY (variant_ids) ORDER BY variant_id FOR NO KEY UPDATE;
      UPDATE inventory i SET sku = v.sku, product_name = p.name, variant_deleted = v.deleted_at IS NOT NULL
      FROM variants v JOIN products p ON p.id = v.product_id
      WHERE v.id = i.variant_id AND i.variant_id = ANY (variant_ids)
        AND (i.sku, i.product_name, i.variant_deleted) IS DISTINCT FROM (v.sku, p.name, v.deleted_at IS NOT NULL);
    END $$;

    -- inventory_products: each product's name and its number of live records (admin inventory search).
    CREATE FUNCTION refresh_inventory_products(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM inventory_products WHERE product_id = ANY (ids) ORDER BY product_id FOR NO KEY UPDATE;
      INSERT INTO inventory_products AS ip (product_id, name, live_records)
      SELECT p.id, p.name, (SELECT count(*) FROM inventory i JOIN variants v ON v.id = i.variant_id WHERE v.product_id = p.id AND NOT i.variant_deleted)
      FROM products p WHERE p.id = ANY (ids) ORDER BY p.id
      ON CONFLICT (product_id) DO UPDATE SET name = EXCLUDED.name, live_records = EXCLUDED.live_records
      WHERE (ip.name, ip.live_records) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.live_records);
    END $$;

    -- The two counters: applied as deltas (a recount would read every row), skipped when zero.
    CREATE FUNCTION adjust_storefront_total(delta bigint) RETURNS void LANGUAGE sql AS $$
      UPDATE storefront_totals SET products = products + delta WHERE delta <> 0;
    $$;
    CREATE FUNCTION adjust_inventory_total(delta bigint) RETURNS void LANGUAGE sql AS $$
      UPDATE inventory_totals SET live_records = live_records + delta WHERE delta <> 0;
    $$;

    -- A new record's key columns, filled BEFORE INSERT (the one row trigger). The variant and product rows are
    -- read FOR SHARE: a rename or SKU change in flight (it holds them FOR NO KEY UPDATE) is waited for and its
    -- committed values copied. Read plainly, a record inserted beside a rename kept the old name for good,
    -- since the rename's trigger could not see the uncommitted record.
    CREATE OR REPLACE FUNCTION inventory_fill_keys() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT v.public_id, p.public_id, p.name, v.sku, v.deleted_at IS NOT NULL
        INTO NEW.variant_public_id, NEW.product_public_id, NEW.product_name, NEW.sku, NEW.variant_deleted
      FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = NEW.variant_id
      FOR SHARE OF p, v;
      RETURN NEW;
    END $$;

    -- product_documents: locks the documents first (in product order), then builds them in a second statement,
    -- which under READ COMMITTED sees every change committed by the writer it waited for (migration 0011's
    -- function, now a no-op for no keys like the others).
    CREATE OR REPLACE FUNCTION refresh_product_documents(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM product_documents WHERE product_id = ANY (ids) ORDER BY product_id FOR UPDATE;
      INSERT INTO product_documents AS d (product_id, document)
      SELECT p.id, product_document(p) FROM products p WHERE p.id = ANY (ids) ORDER BY p.id
      ON CONFLICT (product_id) DO UPDATE SET document = EXCLUDED.document
      WHERE d.document::text IS DISTINCT FROM EXCLUDED.document::text;
    END $$;
  `.execute(db);

  // ---- the source triggers, one function per table ----------------------------------------------
  await sql`
    CREATE FUNCTION derive_from_products() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      renamed bigint[];
      shown bigint[];
      listed bigint := 0;
    BEGIN
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        listed := (SELECT count(*) FROM new_rows WHERE status = 'ACTIVE' AND deleted_at IS NULL);
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        listed := listed - (SELECT count(*) FROM old_rows WHERE status = 'ACTIVE' AND deleted_at IS NULL);
      END IF;
      IF TG_OP = 'INSERT' THEN
        renamed := ARRAY(SELECT id FROM new_rows);
        shown := renamed;
      ELSIF TG_OP = 'UPDATE' THEN
        renamed := ARRAY(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.name IS DISTINCT FROM o.name ORDER BY n.id);
        -- What the document shows of the product row itself; price range and rating are rebuilt by their sources.
        shown := ARRAY(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                       WHERE (n.public_id, n.name, n.slug, n.description, n.brand, n.status, n.images, n.created_at, n.updated_at, n.deleted_at)
                             IS DISTINCT FROM (o.public_id, o.name, o.slug, o.description, o.brand, o.status, o.images, o.created_at, o.updated_at, o.deleted_at)
                       ORDER BY n.id);
      ELSE
        renamed := '{}';
        shown := '{}'; -- documents go with their product (ON DELETE CASCADE)
      END IF;
      PERFORM refresh_inventory_keys(ARRAY(SELECT v.id FROM variants v WHERE v.product_id = ANY (renamed) ORDER BY v.id));
      PERFORM refresh_inventory_products(renamed);
      PERFORM refresh_product_documents(shown);
      PERFORM adjust_storefront_total(listed);
      RETURN NULL;
    END $$;

    CREATE FUNCTION derive_from_variants() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      keyed bigint[];
      touched bigint[];
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        keyed := ARRAY(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                       WHERE (n.sku, n.deleted_at IS NULL) IS DISTINCT FROM (o.sku, o.deleted_at IS NULL) ORDER BY n.id);
        touched := ARRAY(SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows ORDER BY 1);
      ELSIF TG_OP = 'INSERT' THEN
        keyed := '{}'; -- a new variant has no inventory record yet
        touched := ARRAY(SELECT DISTINCT product_id FROM new_rows ORDER BY 1);
      ELSE
        keyed := '{}';
        touched := ARRAY(SELECT DISTINCT product_id FROM old_rows ORDER BY 1);
      END IF;
      PERFORM refresh_inventory_keys(keyed);
      PERFORM refresh_price_range(touched);
      PERFORM refresh_product_documents(touched);
      RETURN NULL;
    END $$;

    CREATE FUNCTION derive_from_product_categories() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM refresh_product_documents(ARRAY(SELECT DISTINCT product_id FROM new_rows ORDER BY 1));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM refresh_product_documents(ARRAY(SELECT DISTINCT product_id FROM old_rows ORDER BY 1));
      ELSE
        PERFORM refresh_product_documents(ARRAY(SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows ORDER BY 1));
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION derive_from_categories() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- A document names its live categories: a rename, a new slug or a deletion shows in the products in it.
      -- New categories have no products yet.
      IF TG_OP = 'UPDATE' THEN
        PERFORM refresh_product_documents(ARRAY(
          SELECT DISTINCT pc.product_id
          FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN product_categories pc ON pc.category_id = n.id
          WHERE (n.name, n.slug, n.deleted_at) IS DISTINCT FROM (o.name, o.slug, o.deleted_at) ORDER BY 1));
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION derive_from_inventory() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      live_delta bigint := 0;
      counted bigint[] := '{}';
      flipped bigint[] := '{}';
    BEGIN
      -- Records entering or leaving the live set (inserted, deleted, or their variant deleted or restored):
      -- the live total and the per-product counts.
      IF TG_OP = 'INSERT' THEN
        live_delta := (SELECT count(*) FROM new_rows WHERE NOT variant_deleted);
        counted := ARRAY(SELECT DISTINCT v.product_id FROM new_rows r JOIN variants v ON v.id = r.variant_id ORDER BY 1);
        flipped := counted;
      ELSIF TG_OP = 'DELETE' THEN
        live_delta := -(SELECT count(*) FROM old_rows WHERE NOT variant_deleted);
        counted := ARRAY(SELECT DISTINCT v.product_id FROM old_rows r JOIN variants v ON v.id = r.variant_id ORDER BY 1);
        flipped := counted;
      ELSE
        -- Checkout's stock update runs this under the hot rows' locks: most stock changes (every checkout that
        -- leaves units on the shelf) flip neither whether a variant can be bought (the one stock fact a document
        -- shows) nor whether its record is live, and stop at this one look at the changed rows.
        PERFORM 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.variant_deleted <> o.variant_deleted
           OR (n.quantity_on_hand - n.quantity_reserved > 0) <> (o.quantity_on_hand - o.quantity_reserved > 0);
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        SELECT coalesce(sum(CASE WHEN n.variant_deleted = o.variant_deleted THEN 0 WHEN n.variant_deleted THEN -1 ELSE 1 END), 0),
               coalesce(array_agg(DISTINCT v.product_id ORDER BY v.product_id) FILTER (WHERE n.variant_deleted <> o.variant_deleted), '{}'),
               coalesce(array_agg(DISTINCT v.product_id ORDER BY v.product_id)
                          FILTER (WHERE (n.quantity_on_hand - n.quantity_reserved > 0) <> (o.quantity_on_hand - o.quantity_reserved > 0)), '{}')
          INTO live_delta, counted, flipped
        FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN variants v ON v.id = n.variant_id;
      END IF;
      -- Each call below is skipped, not made, when it has nothing to do.
      IF cardinality(counted) > 0 THEN
        PERFORM refresh_inventory_products(counted);
      END IF;
      IF live_delta <> 0 THEN
        PERFORM adjust_inventory_total(live_delta);
      END IF;
      IF cardinality(flipped) > 0 THEN
        PERFORM refresh_product_documents(flipped);
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION derive_from_reviews() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      rated bigint[];
    BEGIN
      -- Only reviews that count (APPROVED and live) before or after the write move a rating;
      -- a new review waits for moderation and changes nothing.
      IF TG_OP = 'INSERT' THEN
        rated := ARRAY(SELECT DISTINCT product_id FROM new_rows WHERE status = 'APPROVED' AND deleted_at IS NULL ORDER BY 1);
      ELSIF TG_OP = 'DELETE' THEN
        rated := ARRAY(SELECT DISTINCT product_id FROM old_rows WHERE status = 'APPROVED' AND deleted_at IS NULL ORDER BY 1);
      ELSE
        rated := ARRAY(SELECT product_id FROM new_rows WHERE status = 'APPROVED' AND deleted_at IS NULL
                       UNION SELECT product_id FROM old_rows WHERE status = 'APPROVED' AND deleted_at IS NULL ORDER BY 1);
      END IF;
      PERFORM refresh_rating(rated);
      PERFORM refresh_product_documents(rated);
      RETURN NULL;
    END $$;
  `.execute(db);
  for (const table of SOURCES) await followWrites(table).execute(db);

  // ---- the Product document: jsonb's one text form throughout (it was json with jsonb parts, two spacings) ----
  await sql`
    CREATE OR REPLACE FUNCTION product_document(p products) RETURNS json LANGUAGE sql STABLE AS $$
      SELECT jsonb_build_object(
        'public_id', p.public_id, 'name', p.name, 'slug', p.slug, 'description', p.description, 'brand', p.brand,
        'status', p.status,
        'categories', (
          SELECT coalesce(jsonb_agg(jsonb_build_object('public_id', c.public_id, 'name', c.name, 'slug', c.slug) ORDER BY c.name), '[]'::jsonb)
          FROM product_categories pc JOIN categories c ON c.id = pc.category_id
          WHERE pc.product_id = p.id AND c.deleted_at IS NULL),
        'images', p.images,
        'price_min', p.price_min::text, 'price_max', p.price_max::text,
        'rating', jsonb_build_object('average', p.rating_average::float8, 'count', p.rating_count),
        'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updated_at', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'variants', (
          SELECT coalesce(jsonb_agg(jsonb_build_object(
            'public_id', v.public_id, 'sku', v.sku, 'name', v.name, 'options', v.options,
            'price', v.price::text, 'compare_at_price', v.compare_at_price::text, 'status', v.status,
            'in_stock', coalesce(i.quantity_on_hand - i.quantity_reserved > 0, false), 'images', v.images
          ) ORDER BY v.position, v.id), '[]'::jsonb)
          FROM variants v LEFT JOIN inventory i ON i.variant_id = v.id
          WHERE v.product_id = p.id AND v.deleted_at IS NULL AND v.status = 'ACTIVE'))::text::json
    $$;
    UPDATE product_documents d SET document = product_document(p) FROM products p WHERE p.id = d.product_id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of SOURCES) await dropFollowers(table).execute(db);
  await sql`
    DROP FUNCTION derive_from_products(), derive_from_variants(), derive_from_product_categories(), derive_from_categories(),
      derive_from_inventory(), derive_from_reviews();
    DROP FUNCTION refresh_price_range(bigint[]), refresh_rating(bigint[]), refresh_inventory_keys(bigint[]), refresh_inventory_products(bigint[]),
      adjust_storefront_total(bigint), adjust_inventory_total(bigint);
  `.execute(db);
  // Going back below 0015 means re-running the store-by-store triggers of 0006-0012 (down then up).
  throw new Error('0015 is not reversible in place: restore from a backup taken before it, or migrate down past 0006 and up again');
}
