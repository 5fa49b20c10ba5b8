import { sql, type Kysely } from 'kysely';

/**
 * The pruner deletes Idempotency-Keys past their 24 hours oldest first, in batches: by their age.
 * (Until now a key was forgotten only when its account sent it again, so every key ever sent stayed,
 * each with the response it replays.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX idempotency_keys_by_age`.execute(db);
}
