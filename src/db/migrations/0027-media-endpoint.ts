import { sql, type Kysely } from 'kysely';

/**
 * Where the built-in image host's files are served from (`PUBLIC_BASE_URL` + `/media`), as the
 * instances last started say. Products and reviews store their images' whole URLs, so an instance
 * started with another address moves them to its own (src/media-endpoint.ts), and a
 * command line tool that uploads (the seed) uploads under this one rather than its own default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE media_endpoint (
      singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      url         text NOT NULL,
      updated_at  timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE media_endpoint`.execute(db);
}
