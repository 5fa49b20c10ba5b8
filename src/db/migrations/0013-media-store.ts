import { sql, type Kysely } from 'kysely';

/**
 * The built-in image host keeps its files in PostgreSQL, so every instance
 * serves every upload and a review can name only its author's own files;
 * `service_secrets` holds the generated media signing key, shared by every
 * instance. Content is stored uncompressed (images are already compressed):
 * STORAGE EXTERNAL skips TOAST's futile compression attempt.
 *
 * The indexes serve the pruner: old files in the order they are due for a
 * reference check, the references themselves (jsonb containment on the image
 * lists, only over rows that have images), expired upload tokens and
 * delivered mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE media_files (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      path        text NOT NULL UNIQUE,
      url         text NOT NULL,
      folder      text NOT NULL,
      user_id     bigint NOT NULL REFERENCES users (id),
      mime_type   text NOT NULL,
      size        integer NOT NULL CHECK (size > 0),
      content     bytea NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      checked_at  timestamptz
    );
    ALTER TABLE media_files ALTER COLUMN content SET STORAGE EXTERNAL;
    CREATE INDEX media_files_due ON media_files ((coalesce(checked_at, created_at)));
    CREATE INDEX media_files_by_owner ON media_files (user_id, created_at);

    CREATE TABLE service_secrets (
      name        text PRIMARY KEY,
      value       text NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now()
    );

    CREATE INDEX reviews_image_urls ON reviews USING gin (images jsonb_path_ops) WHERE images <> '[]'::jsonb;
    CREATE INDEX products_image_urls ON products USING gin (images jsonb_path_ops) WHERE images <> '[]'::jsonb;
    CREATE INDEX variants_image_urls ON variants USING gin (images jsonb_path_ops) WHERE images <> '[]'::jsonb;
    CREATE INDEX upload_tokens_expiry ON upload_tokens (expires_at);
    CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX outbox_delivered, upload_tokens_expiry, variants_image_urls, products_image_urls, reviews_image_urls;
    DROP TABLE service_secrets, media_files;
  `.execute(db);
}
