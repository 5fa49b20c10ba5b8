import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { MAX_BATCHES } from '../src/housekeeping/pruner.js';
import { waitFor } from './helpers/mail.js';
import { useApp } from './helpers/use-app.js';

/**
 * A backlog larger than a run takes (traffic faster than PRUNE_BATCH_SIZE *
 * MAX_BATCHES rows per PRUNE_INTERVAL) is worked off by runs that follow each
 * other at once, not one per interval: otherwise the tables would grow for
 * as long as the traffic lasts. The database stamps each DELETE, so the test
 * sees when the pruner's own loop ran them.
 */
const BATCH = 2;
const INTERVAL_S = 4;
const t = useApp({ env: { PRUNE_BATCH_SIZE: String(BATCH), PRUNE_INTERVAL: `${INTERVAL_S}s`, EMAIL_WORKER: 'off' } });

test("a backlog of several runs' worth is deleted within one interval, in runs that follow each other", async () => {
  await sql`CREATE TABLE prune_log (id serial PRIMARY KEY, n int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`.execute(
    t.db,
  );
  await sql`
    CREATE FUNCTION log_prune() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO prune_log (n) SELECT count(*) FROM gone;
      RETURN NULL;
    END $$`.execute(t.db);
  await sql`CREATE TRIGGER log_prune AFTER DELETE ON outbox REFERENCING OLD TABLE AS gone
            FOR EACH STATEMENT EXECUTE FUNCTION log_prune()`.execute(t.db);
  // Mail delivered long ago: four runs' worth, the last one short.
  const backlog = 3 * BATCH * MAX_BATCHES + 5;
  const longAgo = new Date(t.clock.now().getTime() - 60 * 86_400_000);
  await sql`
    INSERT INTO outbox (kind, recipient, payload, delivered_at)
    SELECT 'verify_email', 'old-' || n || '@example.test', '{"first_name": "Old"}'::jsonb, ${longAgo}
    FROM generate_series(1, ${backlog}::int) AS n`.execute(t.db);

  await waitFor(async () => (await t.db.selectFrom('outbox').select('id').limit(1).execute()).length === 0, 4 * INTERVAL_S * 1000);
  const { rows } = await sql<{ n: number; at: Date }>`SELECT n, at FROM prune_log WHERE n > 0 ORDER BY id`.execute(t.db);
  assert.equal(
    rows.reduce((sum, row) => sum + row.n, 0),
    backlog,
  );
  const spanMs = rows.at(-1)!.at.getTime() - rows[0]!.at.getTime();
  // One run per interval would take three intervals; the runs after a full one follow within a second.
  assert.ok(spanMs < INTERVAL_S * 1000, `the backlog took ${spanMs} ms from the first run's delete to the last`);
});
