import { sql, type Kysely } from 'kysely';

/**
 * Each product's storefront document (the API's `Product` shape, as JSON)
 * kept ready, so a storefront page concatenates 20 stored texts instead of
 * building 20 products and their variants and categories on every request
 * (bench/NOTES.md, finding 23).
 *
 * `product_document(p)` is the one definition of the shape in SQL. The
 * triggers below rebuild the documents of the products a statement touched,
 * once per statement, in product order (so two transactions lock documents
 * in the same order and cannot deadlock on them):
 * - products, variants, product_categories: any insert, update or delete;
 * - categories: a change of name, slug or deletion, for the products in it;
 * - inventory: inserts and deletes, and updates only where a variant's
 *   `in_stock` flips, the one stock fact a document shows. Checkout's stock
 *   updates otherwise find nothing to rebuild.
 * Lock order, which every writer keeps so none deadlocks with checkout:
 * inventory records, then `inventory_products` (migration 0012), then
 * documents. Row triggers fire before statement triggers, and a product is
 * deleted variants first (src/catalog/admin-service.ts).
 * Documents exist for every product; only the storefront reads them, through
 * its own status filter. The product detail endpoint still builds its answer
 * fresh, and test/catalog-json.test.ts holds the two equal.
 *
 * Changing the Product shape means a migration that replaces
 * `product_document` and rebuilds every document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE product_documents (
      product_id  bigint PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
      document    json NOT NULL
    );

    -- Timestamps as Date.prototype.toISOString() writes them; prices as numeric text; only ACTIVE, live variants.
    CREATE FUNCTION product_document(p products) RETURNS json LANGUAGE sql STABLE AS $$
      SELECT json_build_object(
        'public_id', p.public_id, 'name', p.name, 'slug', p.slug, 'description', p.description, 'brand', p.brand,
        'status', p.status,
        'categories', (
          SELECT coalesce(json_agg(json_build_object('public_id', c.public_id, 'name', c.name, 'slug', c.slug) ORDER BY c.name), '[]'::json)
          FROM product_categories pc JOIN categories c ON c.id = pc.category_id
          WHERE pc.product_id = p.id AND c.deleted_at IS NULL),
        'images', p.images,
        'price_min', p.price_min::text, 'price_max', p.price_max::text,
        'rating', json_build_object('average', p.rating_average::float8, 'count', p.rating_count),
        'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updated_at', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'variants', (
          SELECT coalesce(json_agg(json_build_object(
            'public_id', v.public_id, 'sku', v.sku, 'name', v.name, 'options', v.options,
            'price', v.price::text, 'compare_at_price', v.compare_at_price::text, 'status', v.status,
            'in_stock', coalesce(i.quantity_on_hand - i.quantity_reserved > 0, false), 'images', v.images
          ) ORDER BY v.position, v.id), '[]'::json)
          FROM variants v LEFT JOIN inventory i ON i.variant_id = v.id
          WHERE v.product_id = p.id AND v.deleted_at IS NULL AND v.status = 'ACTIVE'))
    $$;

    -- Locks the documents first (in product order), then builds them in a second statement, which under
    -- READ COMMITTED sees every change committed by the writer it waited for. Built in the same statement
    -- as the lock, a document would be computed from the snapshot taken before the wait and could
    -- overwrite a concurrent writer's newer document with a stale one (two checkouts selling the last
    -- unit of two variants of one product).
    CREATE FUNCTION refresh_product_documents(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM product_documents WHERE product_id = ANY (ids) ORDER BY product_id FOR UPDATE;
      INSERT INTO product_documents AS d (product_id, document)
      SELECT p.id, product_document(p) FROM products p WHERE p.id = ANY (ids) ORDER BY p.id
      ON CONFLICT (product_id) DO UPDATE SET document = EXCLUDED.document
      WHERE d.document::text IS DISTINCT FROM EXCLUDED.document::text;
    END $$;

    SELECT refresh_product_documents(ARRAY(SELECT id FROM products));

    -- Tables whose rows carry product_id (products itself carries id).
    CREATE FUNCTION product_documents_follow_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'products' THEN
        PERFORM refresh_product_documents(ARRAY(SELECT id FROM new_rows));
      ELSIF TG_OP = 'INSERT' THEN
        PERFORM refresh_product_documents(ARRAY(SELECT DISTINCT product_id FROM new_rows));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM refresh_product_documents(ARRAY(SELECT DISTINCT product_id FROM old_rows));
      ELSE
        PERFORM refresh_product_documents(ARRAY(SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER product_documents_on_insert AFTER INSERT ON products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_update AFTER UPDATE ON products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_insert AFTER INSERT ON variants
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_update AFTER UPDATE ON variants
      REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_delete AFTER DELETE ON variants
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_insert AFTER INSERT ON product_categories
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_update AFTER UPDATE ON product_categories
      REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();
    CREATE TRIGGER product_documents_on_delete AFTER DELETE ON product_categories
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_rows();

    CREATE FUNCTION product_documents_follow_categories() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM refresh_product_documents(ARRAY(
        SELECT DISTINCT pc.product_id
        FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN product_categories pc ON pc.category_id = n.id
        WHERE (n.name, n.slug, n.deleted_at) IS DISTINCT FROM (o.name, o.slug, o.deleted_at)));
      RETURN NULL;
    END $$;
    CREATE TRIGGER product_documents_on_update AFTER UPDATE ON categories
      REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_categories();

    CREATE FUNCTION product_documents_follow_inventory() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      ids bigint[];
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ids := ARRAY(SELECT DISTINCT v.product_id FROM new_rows n JOIN variants v ON v.id = n.variant_id);
      ELSIF TG_OP = 'DELETE' THEN
        ids := ARRAY(SELECT DISTINCT v.product_id FROM old_rows o JOIN variants v ON v.id = o.variant_id);
      ELSE
        ids := ARRAY(
          SELECT DISTINCT v.product_id
          FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN variants v ON v.id = n.variant_id
          WHERE (n.quantity_on_hand - n.quantity_reserved > 0) <> (o.quantity_on_hand - o.quantity_reserved > 0));
      END IF;
      IF cardinality(ids) > 0 THEN
        PERFORM refresh_product_documents(ids);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER product_documents_on_insert AFTER INSERT ON inventory
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_inventory();
    CREATE TRIGGER product_documents_on_update AFTER UPDATE ON inventory
      REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_inventory();
    CREATE TRIGGER product_documents_on_delete AFTER DELETE ON inventory
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_documents_follow_inventory();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
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
    DROP FUNCTION refresh_product_documents(bigint[]);
    DROP FUNCTION product_document(products);
    DROP TABLE product_documents;
  `.execute(db);
}
