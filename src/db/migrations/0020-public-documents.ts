import { sql, type Kysely } from 'kysely';

/**
 * Storefront documents for public products only.
 *
 * - Only a product a shopper can see (ACTIVE, not deleted) has a document; the
 *   others keep their row with a null document. The storefront reads no other,
 *   so drafts, archived and deleted products no longer pay for one on every
 *   write (a document costs about 0.2 ms to build; the catalog import inserts
 *   new products as drafts and builds each once, when it sets their status). A
 *   product that stops being public loses its document, and one that becomes
 *   public gets it, in the statement that changed it (the products trigger
 *   already rebuilds on status and deletion).
 * - `product_documents_of(ids)` replaces `product_document(p)` as the one
 *   definition of the shape, the rule of who has one included, for the
 *   refresher and for the tests that compare what is stored with it.
 *   Categories of the same name are now ordered by their ID too, so a document
 *   is the same however often it is rebuilt.
 * - A document that goes (nulled or deleted) purges its product from HTTP
 *   caches: every document is a public product's, so the purge trigger reads
 *   its public ID from the document itself, and the separate purge on a
 *   product's deletion (which now always takes its document away) goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION product_documents_of(ids bigint[]) RETURNS TABLE (product_id bigint, document json)
    LANGUAGE sql STABLE AS $$
      SELECT p.id, jsonb_build_object(
        'public_id', p.public_id, 'name', p.name, 'slug', p.slug, 'description', p.description, 'brand', p.brand,
        'status', p.status,
        'categories', (
          SELECT coalesce(jsonb_agg(jsonb_build_object('public_id', c.public_id, 'name', c.name, 'slug', c.slug) ORDER BY c.name, c.id), '[]'::jsonb)
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
      FROM products p
      WHERE p.id = ANY (ids) AND p.status = 'ACTIVE' AND p.deleted_at IS NULL
    $$;

    -- Every product keeps its row, its document null while it is not public: the row is what two writers
    -- of one product's document meet on. Without it, an activation and a stock write crossing zero
    -- would lock nothing, and the activation could build its document from stock it saw before the
    -- other committed (test/product-documents.test.ts races them).
    ALTER TABLE product_documents ALTER COLUMN document DROP NOT NULL;

    -- Locks the rows first (in product order), then writes them in a second statement, which under
    -- READ COMMITTED sees every change committed by a writer the lock waited for.
    CREATE OR REPLACE FUNCTION refresh_product_documents(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      PERFORM 1 FROM product_documents WHERE product_id = ANY (ids) ORDER BY product_id FOR UPDATE;
      INSERT INTO product_documents AS d (product_id, document)
      SELECT p.id, b.document
      FROM products p LEFT JOIN product_documents_of(ids) b ON b.product_id = p.id
      WHERE p.id = ANY (ids) ORDER BY p.id
      ON CONFLICT (product_id) DO UPDATE SET document = EXCLUDED.document
      WHERE d.document::text IS DISTINCT FROM EXCLUDED.document::text;
    END $$;

    -- With 0018's purge still in place, which purges nothing for these: their products are not public.
    UPDATE product_documents d SET document = NULL
    WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.id = d.product_id AND p.status = 'ACTIVE' AND p.deleted_at IS NULL);
    UPDATE product_documents d SET document = b.document
    FROM product_documents_of(ARRAY(SELECT product_id FROM product_documents WHERE document IS NOT NULL)) b
    WHERE b.product_id = d.product_id AND d.document::text IS DISTINCT FROM b.document::text;
    DROP FUNCTION product_document(products);

    CREATE OR REPLACE FUNCTION purge_from_product_documents() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      shown text[];
    BEGIN
      -- A document is a public product's, null otherwise: one that appears, changes or goes is purged.
      IF TG_OP = 'INSERT' THEN
        shown := ARRAY(SELECT document ->> 'public_id' FROM new_rows WHERE document IS NOT NULL ORDER BY 1);
      ELSIF TG_OP = 'DELETE' THEN
        shown := ARRAY(SELECT document ->> 'public_id' FROM old_rows WHERE document IS NOT NULL ORDER BY 1);
      ELSE
        shown := ARRAY(SELECT document ->> 'public_id' FROM new_rows WHERE document IS NOT NULL
                       UNION SELECT document ->> 'public_id' FROM old_rows WHERE document IS NOT NULL ORDER BY 1);
      END IF;
      IF cardinality(shown) > 0 THEN
        PERFORM purge_cache('{products}'::text[] || shown);
      END IF;
      RETURN NULL;
    END $$;
    -- A product deleted for good takes its row with it (ON DELETE CASCADE).
    CREATE TRIGGER purge_on_delete AFTER DELETE ON product_documents
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purge_from_product_documents();
    DROP TRIGGER purge_on_update ON products;
    DROP TRIGGER purge_on_delete ON products;
    DROP FUNCTION purge_from_products();
  `.execute(db);
}

export async function down(): Promise<void> {
  // Going back means migration 0015's product_document(p), 0018's purges and a document in every row.
  throw new Error('0020 is not reversible in place: restore from a backup taken before it');
}
