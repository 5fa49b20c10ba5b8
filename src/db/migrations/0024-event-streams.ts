import { sql, type Kysely } from 'kysely';
import { fanOut } from './0022-fan-out-waits-for-deletions.js';

/**
 * Events reach their targets through one stream and a cursor per target,
 * not a delivery row per target made at commit (src/events/stream-repository.ts).
 *
 * The fan-out of migration 0017 wrote, in the change's own transaction, one
 * row per subscribed target, which the dispatcher then claimed and marked:
 * three row versions and seventeen index entries per delivery, and the
 * vacuum of two dead versions after it (bench/NOTES.md). Now:
 *
 * - `event_inbox` gets one narrow row per event that a live target
 *   subscribes to (as the fan-out chose its targets), in the event's own
 *   statement (`queue_events()`), so no writer can commit an event the
 *   stream will not hear of; events nobody wants stop there. An event for
 *   one target (a test event) skips the stream: the same trigger writes its
 *   PENDING delivery, as the fan-out did (so a previous release's test
 *   events, during a rolling upgrade, are delivered too).
 * - `event_stream` places every event once, at a position: one sequencer at
 *   a time (a transaction-scoped advisory lock) moves what the inbox holds
 *   into the stream in event ID order. Two events of one resource are
 *   written by transactions that the resource's row lock serializes, so the
 *   later one's event has the larger ID and commits after the earlier's: the
 *   sequencer sees the earlier one first, or both together, and positions
 *   keep a resource's order. Positions commit in order, so a reader that
 *   sees a position sees every position before it.
 * - `event_cursors` holds each target's place in the stream, and a lease
 *   while one dispatcher reads and sends from it. A delivery row
 *   (`event_deliveries`) is written once, after the attempt: the log of what
 *   was sent, or a PENDING row that retries a failure, or waits behind one
 *   for its resource (the claim of migration 0021 serves those unchanged).
 *
 * The stream and inbox hold event IDs without foreign keys: a key check locks
 * the event's row (`FOR KEY SHARE`) and dirties its page, for rows only the
 * events domain writes and the pruner deletes in order (stream rows every
 * live cursor has passed, then events no row refers to). The cursors' table
 * keeps room on its pages, so moving a cursor is a HOT update.
 *
 * Targets existing now start at the stream's beginning: what was written
 * before this migration was fanned out by the trigger it replaces, and is
 * delivered from those rows as before. Every new target gets its cursor from
 * a trigger, whoever inserts it (an instance of the previous release, during
 * a rolling upgrade, too).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The type rides along, so a target's read filters the stream's narrow rows before it looks an event up.
    CREATE TABLE event_inbox (event_id bigint PRIMARY KEY, type text NOT NULL);

    CREATE SEQUENCE event_stream_position;
    CREATE TABLE event_stream (
      position  bigint PRIMARY KEY,
      event_id  bigint NOT NULL,
      type      text NOT NULL
    );
    ALTER SEQUENCE event_stream_position OWNED BY event_stream.position;
    CREATE INDEX event_stream_by_event ON event_stream (event_id);

    CREATE TABLE event_cursors (
      target_id    bigint PRIMARY KEY REFERENCES event_targets (id),
      -- Every event up to this position has been read for the target (sent, or left to a delivery row).
      position     bigint NOT NULL,
      claim        uuid,
      lease_until  timestamptz,
      CHECK ((claim IS NULL) = (lease_until IS NULL))
    ) WITH (fillfactor = 50);
    INSERT INTO event_cursors (target_id, position) SELECT id, 0 FROM event_targets;

    -- A new target reads from the last position taken: what was placed before it is not for it. Its writer
    -- places every committed event first (insertTarget), so what committed before the target is behind it.
    CREATE FUNCTION open_event_cursor() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_cursors (target_id, position)
      SELECT NEW.id, CASE WHEN is_called THEN last_value ELSE 0 END FROM event_stream_position;
      RETURN NULL;
    END $$;
    CREATE TRIGGER open_cursor AFTER INSERT ON event_targets FOR EACH ROW EXECUTE FUNCTION open_event_cursor();

    DROP TRIGGER fan_out ON events;
    DROP FUNCTION fan_out_events();
    CREATE FUNCTION queue_events() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- An event for one target (a test event) owes that target a delivery at once, whichever release wrote it.
      INSERT INTO event_deliveries (event_id, target_id, ordering_key)
      SELECT e.id, e.target_id, e.ordering_key FROM new_rows e
      WHERE e.target_id IS NOT NULL
      ORDER BY e.id;
      INSERT INTO event_inbox (event_id, type)
      SELECT e.id, e.type FROM new_rows e
      WHERE e.target_id IS NULL
        AND EXISTS (SELECT 1 FROM event_targets t WHERE t.deleted_at IS NULL AND e.type = ANY (t.event_types));
      RETURN NULL;
    END $$;
    CREATE TRIGGER queue_events AFTER INSERT ON events
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION queue_events();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER queue_events ON events;
    DROP FUNCTION queue_events();
    DROP TRIGGER open_cursor ON event_targets;
    DROP FUNCTION open_event_cursor();
    DROP TABLE event_cursors, event_stream, event_inbox;
    CREATE FUNCTION fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
    CREATE TRIGGER fan_out AFTER INSERT ON events
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fan_out_events();
  `.execute(db);
  await fanOut(false).execute(db);
}
