import { sql, type Kysely } from 'kysely';

/** Single-use account tokens, issued upload tokens, and product reviews. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Email verification, password reset and email change tokens; only hashes are stored.
    CREATE TABLE account_tokens (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id     bigint NOT NULL REFERENCES users (id),
      purpose     text NOT NULL CHECK (purpose IN ('VERIFY_EMAIL', 'PASSWORD_RESET', 'EMAIL_CHANGE')),
      token_hash  bytea NOT NULL UNIQUE,
      new_email   text,
      -- Email change: only the session that started it may finish it.
      session_id  bigint REFERENCES sessions (id),
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz,
      created_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX account_tokens_open ON account_tokens (user_id, purpose) WHERE used_at IS NULL;

    -- Upload tokens handed out by GET /uploads/media-auth: bound to a folder, used once.
    CREATE TABLE upload_tokens (
      token       text PRIMARY KEY,
      user_id     bigint NOT NULL REFERENCES users (id),
      folder      text NOT NULL,
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz,
      created_at  timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE reviews (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id        text NOT NULL UNIQUE,
      product_id       bigint NOT NULL REFERENCES products (id),
      user_id          bigint NOT NULL REFERENCES users (id),
      rating           smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
      title            text NOT NULL,
      comment          text NOT NULL,
      images           jsonb NOT NULL DEFAULT '[]',
      status           text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
      moderation_note  text,
      moderated_by     bigint REFERENCES users (id),
      moderated_at     timestamptz,
      created_at       timestamptz NOT NULL DEFAULT now(),
      updated_at       timestamptz NOT NULL DEFAULT now(),
      deleted_at       timestamptz
    );
    -- One live review per account and product.
    CREATE UNIQUE INDEX reviews_one_per_author ON reviews (product_id, user_id) WHERE deleted_at IS NULL;
    CREATE INDEX reviews_public ON reviews (product_id, created_at DESC, public_id DESC) WHERE status = 'APPROVED' AND deleted_at IS NULL;
    CREATE INDEX reviews_by_author ON reviews (user_id, created_at DESC) WHERE deleted_at IS NULL;
    CREATE INDEX reviews_moderation ON reviews (status, created_at) WHERE deleted_at IS NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE reviews, upload_tokens, account_tokens CASCADE;`.execute(db);
}
