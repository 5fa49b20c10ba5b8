import { sql, type Kysely } from 'kysely';

/**
 * Events and their delivery (src/events/, src/webhooks/).
 *
 * - `events` is the stream: one row per thing that happened, written in the
 *   transaction of the change it reports, with the versioned payload a
 *   receiver gets (src/events/catalog.ts).
 * - `event_targets` are whoever consumes the stream: a webhook endpoint today
 *   (`webhook_endpoints` holds its URL and secrets), other kinds later, each
 *   subscribed to a set of event types, ACTIVE or PAUSED.
 * - `event_deliveries` is one row per event and subscribed target, made in
 *   the event's own statement by `fan_out_events()`, so an event can never
 *   commit without the deliveries it owes, whatever wrote it. A delivery is
 *   claimed, sent, retried and logged by the dispatcher (src/events/dispatcher.ts).
 *
 * Stock status changes are written by `events_from_inventory()`, beside the
 * derived-data trigger of the same table, so every writer of stock (checkout,
 * cancellation, shipment, admin adjustments and holds) reports them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE event_targets (
      id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id      text NOT NULL UNIQUE,
      kind           text NOT NULL CHECK (kind IN ('webhook')),
      event_types    text[] NOT NULL CHECK (cardinality(event_types) > 0),
      status         text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'PAUSED')),
      paused_reason  text CHECK (paused_reason IN ('MANUAL', 'FAILING')),
      paused_at      timestamptz,
      -- The first failure since the last success; a target failing this long is paused.
      failing_since  timestamptz,
      created_at     timestamptz NOT NULL DEFAULT now(),
      updated_at     timestamptz NOT NULL DEFAULT now(),
      deleted_at     timestamptz,
      CHECK ((status = 'PAUSED') = (paused_reason IS NOT NULL))
    );
    CREATE INDEX event_targets_newest ON event_targets (created_at DESC, public_id DESC) WHERE deleted_at IS NULL;

    CREATE TABLE webhook_endpoints (
      target_id                   bigint PRIMARY KEY REFERENCES event_targets (id),
      url                         text NOT NULL,
      description                 text NOT NULL DEFAULT '',
      secret                      text NOT NULL,
      -- The secret before the last rotation, which signs too until it expires.
      previous_secret             text,
      previous_secret_expires_at  timestamptz,
      CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
    );

    CREATE TABLE events (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id     text NOT NULL UNIQUE DEFAULT ('evt_' || replace(gen_random_uuid()::text, '-', '')),
      type          text NOT NULL,
      version       smallint NOT NULL,
      -- Deliveries to one target with the same key go out in event order (an order's placed before its shipped).
      ordering_key  text NOT NULL,
      payload       jsonb NOT NULL,
      -- Set for an event meant for one target only (a test event); otherwise every subscriber gets it.
      target_id     bigint REFERENCES event_targets (id),
      created_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX events_by_age ON events (created_at);

    CREATE TABLE event_deliveries (
      id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id         text NOT NULL UNIQUE DEFAULT ('dlv_' || replace(gen_random_uuid()::text, '-', '')),
      event_id          bigint NOT NULL REFERENCES events (id),
      target_id         bigint NOT NULL REFERENCES event_targets (id),
      ordering_key      text NOT NULL,
      state             text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
      attempts          integer NOT NULL DEFAULT 0,
      -- When it is due; while claimed, when the claim's lease ends.
      next_attempt_at   timestamptz NOT NULL DEFAULT now(),
      claim             uuid,
      -- The first attempt of the current round (a manual redelivery starts a new one): retries stop some days after it.
      first_attempt_at  timestamptz,
      last_attempt_at   timestamptz,
      response_status   integer,
      response_body     text,
      latency_ms        integer,
      last_error        text,
      delivered_at      timestamptz,
      created_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX event_deliveries_due ON event_deliveries (target_id, next_attempt_at) WHERE state = 'PENDING';
    CREATE INDEX event_deliveries_in_order ON event_deliveries (target_id, ordering_key, event_id) WHERE state = 'PENDING';
    CREATE INDEX event_deliveries_log ON event_deliveries (target_id, id);
    CREATE INDEX event_deliveries_by_event ON event_deliveries (event_id);
    CREATE INDEX event_deliveries_finished ON event_deliveries (created_at) WHERE state <> 'PENDING';

    -- Every event owes a delivery to each live target subscribed to its type (or to its one target).
    CREATE FUNCTION fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_deliveries (event_id, target_id, ordering_key)
      SELECT e.id, t.id, e.ordering_key
      FROM new_rows e
      JOIN event_targets t ON (e.target_id IS NULL AND e.type = ANY (t.event_types)) OR e.target_id = t.id
      WHERE t.deleted_at IS NULL
      ORDER BY e.id, t.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER fan_out AFTER INSERT ON events
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fan_out_events();

    -- A record whose stock status changes reports it: out of stock, back in stock (leaving OUT_OF_STOCK), or
    -- low (IN_STOCK to LOW_STOCK). The payload is inventory.* version 1 (src/events/catalog.ts). Most stock
    -- changes (a checkout that leaves units above the threshold) change no status and stop at the first look.
    CREATE FUNCTION events_from_inventory() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE NOT n.variant_deleted
        AND stock_status(n.quantity_on_hand, n.quantity_reserved, n.reorder_level)
            <> stock_status(o.quantity_on_hand, o.quantity_reserved, o.reorder_level);
      IF NOT FOUND THEN
        RETURN NULL;
      END IF;
      INSERT INTO events (type, version, ordering_key, payload)
      SELECT CASE
               WHEN c.after = 'OUT_OF_STOCK' THEN 'inventory.out_of_stock'
               WHEN c.before = 'OUT_OF_STOCK' THEN 'inventory.back_in_stock'
               ELSE 'inventory.low_stock'
             END,
             1, c.variant_public_id,
             jsonb_build_object(
               'variant_public_id', c.variant_public_id, 'product_public_id', c.product_public_id,
               'product_name', c.product_name, 'sku', c.sku,
               'quantity_on_hand', c.quantity_on_hand, 'quantity_reserved', c.quantity_reserved,
               'quantity_available', c.quantity_on_hand - c.quantity_reserved, 'reorder_level', c.reorder_level,
               'stock_status', c.after, 'previous_stock_status', c.before)
      FROM (
        SELECT n.*, stock_status(o.quantity_on_hand, o.quantity_reserved, o.reorder_level) AS before,
               stock_status(n.quantity_on_hand, n.quantity_reserved, n.reorder_level) AS after
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE NOT n.variant_deleted
      ) c
      WHERE c.after <> c.before AND (c.after <> 'IN_STOCK' OR c.before = 'OUT_OF_STOCK')
      ORDER BY c.variant_id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER events_on_update AFTER UPDATE ON inventory
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_from_inventory();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER events_on_update ON inventory;
    DROP FUNCTION events_from_inventory();
    DROP TABLE event_deliveries, events, webhook_endpoints, event_targets;
    DROP FUNCTION fan_out_events();
  `.execute(db);
}
