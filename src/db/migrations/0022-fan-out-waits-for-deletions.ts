import { sql, type Kysely } from 'kysely';

/**
 * An event never owes a delivery to a target deleted before it committed.
 *
 * The fan-out read the live targets in its statement's snapshot, so a
 * checkout whose event was written while an endpoint's deletion was in
 * flight could commit a PENDING delivery for the deleted endpoint after the
 * deletion had cancelled the ones it could see: nothing claims it (the claim
 * skips deleted targets) and nothing prunes it (only finished deliveries
 * are), and it keeps its event past the retention. Now the fan-out takes the
 * targets it picks `FOR KEY SHARE`, as its foreign-key check already did, and
 * a deletion takes its target `FOR UPDATE` first (`deleteTarget`), which
 * conflicts with it: a deletion waits for the fan-outs that chose its target
 * to commit (and then cancels their deliveries), and a fan-out that reaches a
 * target being deleted waits, then sees `deleted_at` set when PostgreSQL
 * re-checks the row, and leaves it out.
 *
 * Superseded by migration 0023: a deletion could wait without end behind a
 * stream of fan-outs, so neither side locks for the other any more.
 */
/** The fan-out of migration 0017, with the targets it picks locked `FOR KEY SHARE` or not. */
export const fanOut = (lockTargets: boolean) =>
  sql`
    CREATE OR REPLACE FUNCTION fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_deliveries (event_id, target_id, ordering_key)
      SELECT e.id, t.id, e.ordering_key
      FROM new_rows e
      JOIN event_targets t ON (e.target_id IS NULL AND e.type = ANY (t.event_types)) OR e.target_id = t.id
      WHERE t.deleted_at IS NULL
      ORDER BY e.id, t.id
      ${sql.raw(lockTargets ? 'FOR KEY SHARE OF t' : '')};
      RETURN NULL;
    END $$;
  `;

export async function up(db: Kysely<unknown>): Promise<void> {
  await fanOut(true).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await fanOut(false).execute(db);
}
