import { sql, type Kysely } from 'kysely';

/**
 * Staff invitations: a SUPER_ADMIN invites a person by email to become ADMIN or SUPER_ADMIN; the
 * link sets their password and creates the account. Only the token's hash is stored. One open
 * invitation per email (a new one replaces it), enforced by the partial unique index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE staff_invitations (
      id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id           text NOT NULL UNIQUE,
      email               text NOT NULL,
      role                text NOT NULL CHECK (role IN ('ADMIN', 'SUPER_ADMIN')),
      token_hash          bytea NOT NULL UNIQUE,
      invited_by_user_id  bigint NOT NULL REFERENCES users (id),
      created_at          timestamptz NOT NULL DEFAULT now(),
      expires_at          timestamptz NOT NULL,
      accepted_at         timestamptz,
      accepted_user_id    bigint REFERENCES users (id),
      revoked_at          timestamptz
    );
    CREATE UNIQUE INDEX staff_invitations_one_open ON staff_invitations (email) WHERE accepted_at IS NULL AND revoked_at IS NULL;
    CREATE INDEX staff_invitations_newest ON staff_invitations (created_at DESC, public_id DESC);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE staff_invitations`.execute(db);
}
