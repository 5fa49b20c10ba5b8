import { sql, type Kysely } from 'kysely';

/**
 * A redelivery starts a new round of retries (10 s, 20 s, 40 s ...): its backoff counts the attempts of
 * this round, not every attempt the delivery ever had, which would start it at the longest wait. The
 * lifetime count stays in `attempts` for the delivery log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE event_deliveries ADD COLUMN attempts_before_round integer NOT NULL DEFAULT 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE event_deliveries DROP COLUMN attempts_before_round`.execute(db);
}
