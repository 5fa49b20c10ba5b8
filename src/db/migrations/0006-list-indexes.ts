import { sql, type Kysely } from 'kysely';

/**
 * Indexes shaped like the list queries (found by the query-plan test).
 *
 * The admin inventory list sorts and searches on product name and SKU, which
 * live in other tables; joining 40k rows to sort them cost hundreds of
 * milliseconds. The inventory row now carries copies of those keys, kept in
 * step by triggers (catalog writes are rare; stock writes do not touch them),
 * so every sort is one index walk with no join.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Storefront: counting live products through a narrow index, and the descending price sort.
    CREATE INDEX products_public_ids ON products (id) WHERE status = 'ACTIVE' AND deleted_at IS NULL;
    CREATE INDEX products_public_price_desc ON products (price_min DESC NULLS LAST, public_id DESC) WHERE status = 'ACTIVE' AND deleted_at IS NULL;
    -- The in-stock filter probes live variants, then stock, through index-only scans.
    CREATE INDEX variants_live_by_product ON variants (product_id, id) WHERE deleted_at IS NULL AND status = 'ACTIVE';
    CREATE INDEX inventory_in_stock ON inventory (variant_id) WHERE quantity_on_hand - quantity_reserved > 0;

    ALTER TABLE inventory
      ADD COLUMN variant_public_id text,
      ADD COLUMN product_public_id text,
      ADD COLUMN product_name text,
      ADD COLUMN sku text,
      ADD COLUMN variant_deleted boolean NOT NULL DEFAULT false;

    UPDATE inventory i SET variant_public_id = v.public_id, product_public_id = p.public_id, product_name = p.name, sku = v.sku,
                           variant_deleted = v.deleted_at IS NOT NULL
    FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = i.variant_id;

    ALTER TABLE inventory
      ALTER COLUMN variant_public_id SET NOT NULL,
      ALTER COLUMN product_public_id SET NOT NULL,
      ALTER COLUMN product_name SET NOT NULL,
      ALTER COLUMN sku SET NOT NULL;

    CREATE FUNCTION inventory_fill_keys() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      SELECT v.public_id, p.public_id, p.name, v.sku, v.deleted_at IS NOT NULL
        INTO NEW.variant_public_id, NEW.product_public_id, NEW.product_name, NEW.sku, NEW.variant_deleted
      FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = NEW.variant_id;
      RETURN NEW;
    END $$;
    CREATE TRIGGER inventory_fill_keys BEFORE INSERT ON inventory FOR EACH ROW EXECUTE FUNCTION inventory_fill_keys();

    CREATE FUNCTION inventory_follow_variant() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE inventory SET sku = NEW.sku, variant_deleted = NEW.deleted_at IS NOT NULL WHERE variant_id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_follow_variant AFTER UPDATE OF sku, deleted_at ON variants
      FOR EACH ROW WHEN (OLD.sku IS DISTINCT FROM NEW.sku OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
      EXECUTE FUNCTION inventory_follow_variant();

    CREATE FUNCTION inventory_follow_product() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE inventory SET product_name = NEW.name WHERE variant_id IN (SELECT id FROM variants WHERE product_id = NEW.id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER inventory_follow_product AFTER UPDATE OF name ON products
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
      EXECUTE FUNCTION inventory_follow_product();

    DROP INDEX inventory_by_status, inventory_by_on_hand, inventory_by_available, inventory_by_last_update;
    CREATE UNIQUE INDEX inventory_by_variant_public_id ON inventory (variant_public_id);
    CREATE INDEX inventory_live_ids ON inventory (id) WHERE NOT variant_deleted;
    CREATE INDEX inventory_by_product_name ON inventory (product_name, variant_public_id);
    CREATE INDEX inventory_by_sku ON inventory (sku, variant_public_id);
    CREATE INDEX inventory_by_on_hand ON inventory (quantity_on_hand, variant_public_id);
    CREATE INDEX inventory_by_available ON inventory ((quantity_on_hand - quantity_reserved), variant_public_id);
    CREATE INDEX inventory_by_last_update ON inventory (last_stock_update, variant_public_id);
    CREATE INDEX inventory_by_status ON inventory (stock_status(quantity_on_hand, quantity_reserved, reorder_level), product_name, variant_public_id);
    CREATE INDEX inventory_product_name_trgm ON inventory USING gin (product_name gin_trgm_ops);
    CREATE INDEX inventory_sku_trgm ON inventory USING gin (sku gin_trgm_ops);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER inventory_follow_product ON products;
    DROP TRIGGER inventory_follow_variant ON variants;
    DROP TRIGGER inventory_fill_keys ON inventory;
    DROP FUNCTION inventory_follow_product(), inventory_follow_variant(), inventory_fill_keys();
    DROP INDEX inventory_by_variant_public_id, inventory_live_ids, inventory_by_product_name, inventory_by_sku, inventory_by_on_hand,
      inventory_by_available, inventory_by_last_update, inventory_by_status, inventory_product_name_trgm, inventory_sku_trgm,
      products_public_ids, products_public_price_desc, variants_live_by_product, inventory_in_stock;
    ALTER TABLE inventory DROP COLUMN variant_public_id, DROP COLUMN product_public_id, DROP COLUMN product_name, DROP COLUMN sku, DROP COLUMN variant_deleted;
    CREATE INDEX inventory_by_status ON inventory (stock_status(quantity_on_hand, quantity_reserved, reorder_level), variant_id);
    CREATE INDEX inventory_by_on_hand ON inventory (quantity_on_hand, variant_id);
    CREATE INDEX inventory_by_available ON inventory ((quantity_on_hand - quantity_reserved), variant_id);
    CREATE INDEX inventory_by_last_update ON inventory (last_stock_update, variant_id);
  `.execute(db);
}
