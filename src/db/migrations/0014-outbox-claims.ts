import { sql, type Kysely } from 'kysely';

/**
 * Which claim holds an outbox message: the email worker renews its lease
 * (a heartbeat) only on the messages its own claim still holds, so a worker
 * that was paused past its lease never extends, or marks, a message another
 * worker has taken over since.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox ADD COLUMN claim uuid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE outbox DROP COLUMN claim`.execute(db);
}
