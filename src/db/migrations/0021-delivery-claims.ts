import { sql, type Kysely } from 'kysely';

/**
 * Delivery claims that cost the same whatever the planner believes (src/events/delivery-repository.ts).
 *
 * - `event_deliveries_due` now holds the claim's whole order (`next_attempt_at`, then `event_id`), so
 *   a target's due deliveries come off the index in the order they are taken and the scan stops at
 *   the claim's limit, with no sort of the whole backlog. Its predicate also says
 *   `next_attempt_at IS NOT NULL` (always true) so that only a statement bounding `next_attempt_at`
 *   can use it: the claim's ordering probe (the earliest pending event of a target and ordering key)
 *   then has `event_deliveries_in_order` as its one pending index. Without column statistics (a
 *   young queue) the planner estimates every pending index at one row and took the smaller, this
 *   one, reading a target's whole backlog per probe (bench/NOTES.md).
 * - The table is a queue: rows arrive in bursts and each is updated twice (claimed, then marked),
 *   and neither update can be HOT (both change indexed columns). Autovacuum's defaults wait for a
 *   fifth of the table to change; here it vacuums at a twentieth and analyses at a fiftieth, so the
 *   dead entries a burst leaves in the partial indexes are cleared while the burst is still small.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP INDEX event_deliveries_due;
    CREATE INDEX event_deliveries_due ON event_deliveries (target_id, next_attempt_at, event_id)
      WHERE state = 'PENDING' AND next_attempt_at IS NOT NULL;
    ALTER TABLE event_deliveries SET (
      autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_insert_scale_factor = 0.05,
      autovacuum_analyze_scale_factor = 0.02
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE event_deliveries RESET (
      autovacuum_vacuum_scale_factor, autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor
    );
    DROP INDEX event_deliveries_due;
    CREATE INDEX event_deliveries_due ON event_deliveries (target_id, next_attempt_at) WHERE state = 'PENDING';
  `.execute(db);
}
