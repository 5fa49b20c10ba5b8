import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { MAX_BATCHES } from '../src/housekeeping/pruner.js';
import { signUp } from './helpers/factories.js';
import { credentials } from './helpers/media.js';
import { useApp } from './helpers/use-app.js';

/**
 * Issue 12, part 3: the pruner deletes in batches of PRUNE_BATCH_SIZE rows per
 * statement, at most MAX_BATCHES statements per kind per run, so a backlog is
 * worked off over several runs without long statements. The database itself
 * counts what each DELETE removed (a statement trigger over its transition
 * table), so the test sees the statements the pruner really ran.
 */
const BATCH = 2;
const t = useApp({ env: { PRUNE_BATCH_SIZE: String(BATCH), EMAIL_WORKER: 'off', RATE_LIMIT_REGISTER: '0' } });

const DAY = 86_400_000;

/** Rows removed by each DELETE on `table` since the log was last cleared, in order. */
async function deletions(table: string): Promise<number[]> {
  const { rows } = await sql<{ n: number }>`SELECT n FROM prune_log WHERE tbl = ${table} ORDER BY id`.execute(t.db);
  return rows.map((row) => row.n);
}

test('a backlog larger than a batch is deleted PRUNE_BATCH_SIZE rows per statement, MAX_BATCHES per run, until none is left', async () => {
  await sql`CREATE TABLE prune_log (id serial PRIMARY KEY, tbl text NOT NULL, n int NOT NULL)`.execute(t.db);
  await sql`
    CREATE FUNCTION log_prune() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO prune_log (tbl, n) SELECT TG_TABLE_NAME, count(*) FROM gone;
      RETURN NULL;
    END $$`.execute(t.db);
  for (const table of ['upload_tokens', 'outbox'])
    await sql`CREATE TRIGGER log_prune AFTER DELETE ON ${sql.table(table)} REFERENCING OLD TABLE AS gone
              FOR EACH STATEMENT EXECUTE FUNCTION log_prune()`.execute(t.db);

  // 5 upload tokens issued over HTTP; a backlog of delivered mail more than one run can take; one message still pending.
  const { client, email } = await signUp(t);
  for (let i = 0; i < 5; i++) await credentials(client);
  const backlog = BATCH * MAX_BATCHES + 5;
  await sql`
    INSERT INTO outbox (kind, recipient, payload, delivered_at)
    SELECT 'verify_email', 'old-' || n || '@example.test', '{"first_name": "Old"}'::jsonb, ${t.clock.now()}
    FROM generate_series(1, ${backlog}::int) AS n`.execute(t.db);

  // Nothing is due yet: the tokens have not expired a day ago, the mail was delivered just now.
  assert.deepEqual(await t.app.pruner.runOnce(), {
    uploadsDeleted: 0,
    uploadsKept: 0,
    uploadTokensDeleted: 0,
    idempotencyKeysDeleted: 0,
    emailsDeleted: 0,
    deliveriesCancelled: 0,
    streamPruned: 0,
    deliveriesDeleted: 0,
    eventsDeleted: 0,
  });
  await sql`DELETE FROM prune_log`.execute(t.db);

  t.clock.advance(31 * DAY); // past both retentions (1 day after expiry, 30 days after delivery)
  const first = await t.app.pruner.runOnce();
  assert.equal(first.uploadTokensDeleted, 5);
  assert.deepEqual(await deletions('upload_tokens'), [2, 2, 1], 'two full batches, then the short one that ends the drain');
  assert.equal(first.emailsDeleted, BATCH * MAX_BATCHES, 'one run stops after MAX_BATCHES batches');
  assert.deepEqual(
    await deletions('outbox'),
    Array.from({ length: MAX_BATCHES }, () => BATCH),
  );
  await sql`DELETE FROM prune_log`.execute(t.db);

  const second = await t.app.pruner.runOnce();
  assert.equal(second.emailsDeleted, 5, 'the next run takes the rest');
  assert.deepEqual(await deletions('outbox'), [2, 2, 1]);
  assert.equal(second.uploadTokensDeleted, 0);

  const left = await t.db.selectFrom('outbox').select(['recipient', 'delivered_at']).execute();
  assert.deepEqual(left, [{ recipient: email, delivered_at: null }], 'only the undelivered message stays');
  assert.equal((await t.db.selectFrom('upload_tokens').select('token').execute()).length, 0);
});
