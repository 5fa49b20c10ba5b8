import { sql, type Kysely } from 'kysely';

/** Accounts, sessions, rate limits, the address book and the append-only audit log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id          text NOT NULL UNIQUE,
      email              text NOT NULL UNIQUE CHECK (email = lower(email)),
      password_hash      text NOT NULL,
      first_name         text NOT NULL,
      last_name          text NOT NULL,
      phone_number       text,
      role               text NOT NULL DEFAULT 'CUSTOMER' CHECK (role IN ('CUSTOMER', 'ADMIN', 'SUPER_ADMIN')),
      status             text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'SUSPENDED')),
      email_verified_at  timestamptz,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE sessions (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id     text NOT NULL UNIQUE,
      user_id       bigint NOT NULL REFERENCES users (id),
      token_hash    bytea NOT NULL UNIQUE,
      created_at    timestamptz NOT NULL DEFAULT now(),
      last_seen_at  timestamptz NOT NULL DEFAULT now(),
      expires_at    timestamptz NOT NULL,
      revoked_at    timestamptz,
      user_agent    text,
      ip            text
    );
    CREATE INDEX sessions_active_by_user ON sessions (user_id, created_at DESC) WHERE revoked_at IS NULL;

    -- Fixed-window counters shared by every instance of the service.
    CREATE TABLE rate_limits (
      name               text NOT NULL,
      key                text NOT NULL,
      window_started_at  timestamptz NOT NULL,
      hits               integer NOT NULL,
      PRIMARY KEY (name, key)
    );

    CREATE TABLE addresses (
      id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id            text NOT NULL UNIQUE,
      user_id              bigint NOT NULL REFERENCES users (id),
      recipient_name       text NOT NULL,
      phone_number         text NOT NULL,
      label                text,
      country              text NOT NULL,
      state                text NOT NULL,
      city                 text NOT NULL,
      address_1            text NOT NULL,
      address_2            text,
      zip_code             text,
      is_default_shipping  boolean NOT NULL DEFAULT false,
      is_default_billing   boolean NOT NULL DEFAULT false,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      deleted_at           timestamptz,
      CONSTRAINT deleted_address_holds_no_default
        CHECK (deleted_at IS NULL OR NOT (is_default_shipping OR is_default_billing))
    );
    CREATE INDEX addresses_active_by_user ON addresses (user_id, created_at DESC, public_id DESC) WHERE deleted_at IS NULL;
    -- At most one default of each kind per account, whatever races happen.
    CREATE UNIQUE INDEX addresses_one_default_shipping ON addresses (user_id) WHERE is_default_shipping;
    CREATE UNIQUE INDEX addresses_one_default_billing ON addresses (user_id) WHERE is_default_billing;

    CREATE TABLE audit_log (
      id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id         text NOT NULL UNIQUE,
      actor_user_id     bigint REFERENCES users (id),
      actor_public_id   text,
      actor_email       text,
      actor_role        text,
      action            text NOT NULL,
      entity_type       text NOT NULL,
      entity_public_id  text,
      changes           jsonb,
      reason            text,
      ip                text,
      user_agent        text,
      request_id        text,
      created_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audit_log_newest ON audit_log (created_at DESC, id DESC);
    CREATE INDEX audit_log_by_actor ON audit_log (actor_public_id, created_at DESC);
    CREATE INDEX audit_log_by_entity ON audit_log (entity_type, entity_public_id, created_at DESC);
    CREATE INDEX audit_log_by_action ON audit_log (action, created_at DESC);

    -- The audit log is append-only: the database itself refuses edits.
    CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_log_no_update_or_delete BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE audit_log, addresses, rate_limits, sessions, users CASCADE;
            DROP FUNCTION audit_log_is_append_only();`.execute(db);
}
