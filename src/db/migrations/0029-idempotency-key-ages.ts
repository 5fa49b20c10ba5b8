import { sql, type Kysely } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.js';

/**
 * The pruner deletes Idempotency-Keys past their 24 hours oldest first, in batches: by their age.
 * (Until now a key was forgotten only when its account sent it again, so every key ever sent stayed,
 * each with the response it replays.) Built after the migrations commit, without holding off the
 * keyed writes (checkout among them) while it reads a table that may be large: concurrent-indexes.ts.
 * A database migrated before has it already, built in this migration's transaction.
 */
export const concurrentIndexes: readonly ConcurrentIndex[] = [
  { name: 'idempotency_keys_by_age', table: 'idempotency_keys', definition: '(created_at)' },
];

export async function up(): Promise<void> {}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS idempotency_keys_by_age`.execute(db);
}
