import { sql, type Kysely } from 'kysely';

/** Carts, coupons, orders with their items and history, and the email outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE cart_items (
      user_id     bigint NOT NULL REFERENCES users (id),
      variant_id  bigint NOT NULL REFERENCES variants (id),
      quantity    integer NOT NULL CHECK (quantity BETWEEN 1 AND 999),
      added_at    timestamptz NOT NULL DEFAULT now(),
      updated_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, variant_id)
    );

    CREATE TABLE coupons (
      id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id                text NOT NULL UNIQUE,
      code                     text NOT NULL CHECK (code = upper(code)),
      discount_type            text NOT NULL CHECK (discount_type IN ('PERCENTAGE', 'FIXED_AMOUNT')),
      discount_value           numeric(12, 2) NOT NULL CHECK (discount_value > 0),
      minimum_order_amount     numeric(12, 2) CHECK (minimum_order_amount >= 0),
      maximum_discount_amount  numeric(12, 2) CHECK (maximum_discount_amount > 0),
      usage_limit              integer CHECK (usage_limit > 0),
      usage_limit_per_user     integer CHECK (usage_limit_per_user > 0),
      times_used               integer NOT NULL DEFAULT 0 CHECK (times_used >= 0),
      starts_at                timestamptz,
      expires_at               timestamptz,
      is_active                boolean NOT NULL DEFAULT true,
      created_at               timestamptz NOT NULL DEFAULT now(),
      updated_at               timestamptz NOT NULL DEFAULT now(),
      deleted_at               timestamptz,
      CHECK (discount_type <> 'PERCENTAGE' OR discount_value <= 100),
      -- The total limit is enforced by the row itself, whatever the races.
      CHECK (usage_limit IS NULL OR times_used <= usage_limit)
    );
    CREATE UNIQUE INDEX coupons_code_unique ON coupons (code) WHERE deleted_at IS NULL;
    CREATE INDEX coupons_newest ON coupons (created_at DESC, public_id DESC);

    CREATE SEQUENCE order_number_seq;

    CREATE TABLE orders (
      id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id         text NOT NULL UNIQUE,
      order_number      text NOT NULL UNIQUE,
      user_id           bigint NOT NULL REFERENCES users (id),
      status            text NOT NULL CHECK (status IN ('PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED')),
      subtotal          numeric(12, 2) NOT NULL,
      discount_total    numeric(12, 2) NOT NULL,
      shipping_total    numeric(12, 2) NOT NULL,
      tax_total         numeric(12, 2) NOT NULL,
      total             numeric(12, 2) NOT NULL,
      currency          text NOT NULL,
      coupon_id         bigint REFERENCES coupons (id),
      coupon_code       text,
      shipping_address  jsonb NOT NULL,
      payment_method    text NOT NULL,
      payment_status    text NOT NULL,
      notes             text,
      carrier           text,
      tracking_number   text,
      placed_at         timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX orders_by_user ON orders (user_id, placed_at DESC, public_id DESC);
    CREATE INDEX orders_by_status ON orders (status, placed_at DESC);
    CREATE INDEX orders_newest ON orders (placed_at DESC, public_id DESC);
    CREATE INDEX orders_number_trgm ON orders USING gin (order_number gin_trgm_ops);

    CREATE TABLE order_items (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_id      bigint NOT NULL REFERENCES orders (id),
      variant_id    bigint NOT NULL REFERENCES variants (id),
      product_id    bigint NOT NULL REFERENCES products (id),
      product_name  text NOT NULL,
      sku           text NOT NULL,
      options       jsonb NOT NULL,
      unit_price    numeric(12, 2) NOT NULL,
      -- Cost at the time of sale: later cost changes do not rewrite profit history.
      unit_cost     numeric(12, 2),
      quantity      integer NOT NULL CHECK (quantity > 0),
      line_total    numeric(12, 2) NOT NULL
    );
    CREATE INDEX order_items_by_order ON order_items (order_id, id);
    CREATE INDEX order_items_by_product ON order_items (product_id);

    CREATE TABLE order_status_history (
      id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_id       bigint NOT NULL REFERENCES orders (id),
      status         text NOT NULL,
      actor_user_id  bigint REFERENCES users (id),
      note           text,
      created_at     timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX order_status_history_by_order ON order_status_history (order_id, id);

    CREATE TABLE coupon_usages (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      coupon_id        bigint NOT NULL REFERENCES coupons (id),
      user_id          bigint NOT NULL REFERENCES users (id),
      order_id         bigint NOT NULL UNIQUE REFERENCES orders (id),
      discount_amount  numeric(12, 2) NOT NULL,
      created_at       timestamptz NOT NULL DEFAULT now(),
      released_at      timestamptz
    );
    CREATE INDEX coupon_usages_by_coupon_user ON coupon_usages (coupon_id, user_id) WHERE released_at IS NULL;
    CREATE INDEX coupon_usages_by_coupon ON coupon_usages (coupon_id, created_at DESC);

    ALTER TABLE inventory_movements ADD CONSTRAINT inventory_movements_order_fk FOREIGN KEY (order_id) REFERENCES orders (id);

    -- Emails are written here in the transaction that causes them and delivered by a worker.
    CREATE TABLE outbox (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind             text NOT NULL,
      recipient        text NOT NULL,
      payload          jsonb NOT NULL,
      attempts         integer NOT NULL DEFAULT 0,
      next_attempt_at  timestamptz NOT NULL DEFAULT now(),
      last_error       text,
      delivered_at     timestamptz,
      created_at       timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX outbox_pending ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE inventory_movements DROP CONSTRAINT inventory_movements_order_fk;
    DROP TABLE outbox, coupon_usages, order_status_history, order_items, orders, coupons, cart_items CASCADE;
    DROP SEQUENCE order_number_seq;
  `.execute(db);
}
