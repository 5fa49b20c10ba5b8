import { sql, type Kysely } from 'kysely';

/**
 * Catalog (categories, products, variants), inventory with its movement
 * history, and idempotency keys for retried writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Trigram indexes make substring search (ILIKE '%term%') an index scan.
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE categories (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id    text NOT NULL UNIQUE,
      parent_id    bigint REFERENCES categories (id),
      name         text NOT NULL,
      slug         text NOT NULL,
      description  text,
      position     integer NOT NULL DEFAULT 0,
      created_at   timestamptz NOT NULL DEFAULT now(),
      updated_at   timestamptz NOT NULL DEFAULT now(),
      deleted_at   timestamptz,
      CHECK (parent_id IS DISTINCT FROM id)
    );
    CREATE UNIQUE INDEX categories_slug_unique ON categories (slug) WHERE deleted_at IS NULL;
    CREATE INDEX categories_by_parent ON categories (parent_id) WHERE deleted_at IS NULL;

    CREATE TABLE products (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id       text NOT NULL UNIQUE,
      name            text NOT NULL,
      slug            text NOT NULL,
      description     text NOT NULL DEFAULT '',
      brand           text,
      status          text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'ACTIVE', 'ARCHIVED')),
      images          jsonb NOT NULL DEFAULT '[]',
      -- Over active variants; kept by the catalog service on every variant write.
      price_min       numeric(12, 2),
      price_max       numeric(12, 2),
      -- Over approved reviews; kept by the reviews module.
      rating_average  numeric(3, 2) NOT NULL DEFAULT 0,
      rating_count    integer NOT NULL DEFAULT 0,
      created_at      timestamptz NOT NULL DEFAULT now(),
      updated_at      timestamptz NOT NULL DEFAULT now(),
      deleted_at      timestamptz
    );
    CREATE UNIQUE INDEX products_slug_unique ON products (slug) WHERE deleted_at IS NULL;
    -- The storefront only ever lists active, live products: partial indexes per sort.
    CREATE INDEX products_public_created ON products (created_at DESC, public_id DESC) WHERE status = 'ACTIVE' AND deleted_at IS NULL;
    CREATE INDEX products_public_name ON products (name, public_id) WHERE status = 'ACTIVE' AND deleted_at IS NULL;
    CREATE INDEX products_public_price ON products (price_min, public_id) WHERE status = 'ACTIVE' AND deleted_at IS NULL;
    CREATE INDEX products_public_rating ON products (rating_average, public_id) WHERE status = 'ACTIVE' AND deleted_at IS NULL;
    CREATE INDEX products_name_trgm ON products USING gin (name gin_trgm_ops);
    CREATE INDEX products_description_trgm ON products USING gin (description gin_trgm_ops);
    CREATE INDEX products_admin_created ON products (created_at DESC, public_id DESC);

    CREATE TABLE product_categories (
      product_id   bigint NOT NULL REFERENCES products (id),
      category_id  bigint NOT NULL REFERENCES categories (id),
      PRIMARY KEY (product_id, category_id)
    );
    CREATE INDEX product_categories_by_category ON product_categories (category_id, product_id);

    CREATE TABLE variants (
      id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id         text NOT NULL UNIQUE,
      product_id        bigint NOT NULL REFERENCES products (id),
      sku               text NOT NULL,
      name              text NOT NULL,
      options           jsonb NOT NULL DEFAULT '{}',
      price             numeric(12, 2) NOT NULL CHECK (price >= 0),
      compare_at_price  numeric(12, 2) CHECK (compare_at_price >= 0),
      cost_price        numeric(12, 2) CHECK (cost_price >= 0),
      status            text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
      images            jsonb NOT NULL DEFAULT '[]',
      position          integer NOT NULL DEFAULT 0,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now(),
      deleted_at        timestamptz
    );
    -- A SKU names one thing forever: unique even across deleted variants.
    CREATE UNIQUE INDEX variants_sku_unique ON variants (lower(sku));
    CREATE INDEX variants_by_product ON variants (product_id, position, id);
    CREATE INDEX variants_sku_trgm ON variants USING gin (sku gin_trgm_ops);
    CREATE INDEX variants_by_sku ON variants (sku, public_id);

    -- stock_status is derived, never stored: one immutable function used by
    -- queries and by the expression index that makes its filter cheap.
    CREATE FUNCTION stock_status(on_hand integer, reserved integer, reorder_level integer)
      RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN on_hand - reserved <= 0 THEN 'OUT_OF_STOCK'
          WHEN reorder_level IS NOT NULL AND on_hand - reserved <= reorder_level THEN 'LOW_STOCK'
          ELSE 'IN_STOCK'
        END
      $$;

    CREATE TABLE inventory (
      id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      variant_id         bigint NOT NULL UNIQUE REFERENCES variants (id),
      quantity_on_hand   integer NOT NULL CHECK (quantity_on_hand >= 0),
      quantity_reserved  integer NOT NULL DEFAULT 0 CHECK (quantity_reserved >= 0),
      reorder_level      integer CHECK (reorder_level >= 0),
      created_at         timestamptz NOT NULL DEFAULT now(),
      last_stock_update  timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX inventory_by_status ON inventory (stock_status(quantity_on_hand, quantity_reserved, reorder_level), variant_id);
    CREATE INDEX inventory_by_on_hand ON inventory (quantity_on_hand, variant_id);
    CREATE INDEX inventory_by_available ON inventory ((quantity_on_hand - quantity_reserved), variant_id);
    CREATE INDEX inventory_by_last_update ON inventory (last_stock_update, variant_id);

    CREATE TABLE inventory_movements (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      inventory_id     bigint NOT NULL REFERENCES inventory (id),
      kind             text NOT NULL,
      delta_on_hand    integer NOT NULL,
      delta_reserved   integer NOT NULL,
      on_hand_after    integer NOT NULL,
      reserved_after   integer NOT NULL,
      reason           text,
      actor_user_id    bigint REFERENCES users (id),
      order_id         bigint,
      created_at       timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX inventory_movements_by_inventory ON inventory_movements (inventory_id, created_at DESC, id DESC);

    -- Retried writes replay their first response (contract section 1).
    CREATE TABLE idempotency_keys (
      user_id       bigint NOT NULL REFERENCES users (id),
      key           text NOT NULL,
      fingerprint   text NOT NULL,
      status_code   integer NOT NULL,
      response      jsonb NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, key)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE idempotency_keys, inventory_movements, inventory, variants, product_categories, products, categories CASCADE;
    DROP FUNCTION stock_status(integer, integer, integer);
  `.execute(db);
}
