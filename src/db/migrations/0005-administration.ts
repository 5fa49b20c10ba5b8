import { sql, type Kysely } from 'kysely';

/** Operating expenses, and indexes for the admin user search and the dashboard. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE expenses (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      public_id    text NOT NULL UNIQUE,
      description  text NOT NULL,
      category     text NOT NULL CHECK (category IN ('RENT', 'SALARIES', 'MARKETING', 'SOFTWARE', 'SHIPPING', 'UTILITIES', 'OTHER')),
      amount       numeric(12, 2) NOT NULL CHECK (amount > 0),
      spent_at     date NOT NULL,
      created_by   bigint REFERENCES users (id),
      created_at   timestamptz NOT NULL DEFAULT now(),
      updated_at   timestamptz NOT NULL DEFAULT now(),
      deleted_at   timestamptz
    );
    CREATE INDEX expenses_by_date ON expenses (spent_at DESC, public_id DESC) WHERE deleted_at IS NULL;

    CREATE INDEX users_newest ON users (created_at DESC, public_id DESC);
    CREATE INDEX users_email_trgm ON users USING gin (email gin_trgm_ops);
    CREATE INDEX users_name_trgm ON users USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
    CREATE INDEX orders_by_placed ON orders (placed_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE expenses;
    DROP INDEX users_newest, users_email_trgm, users_name_trgm, orders_by_placed;
  `.execute(db);
}
