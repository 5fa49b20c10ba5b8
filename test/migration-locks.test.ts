import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { MIGRATION_NAMES, migrateToLatest } from '../src/db/migrate.js';
import { appliedMigrations, fileDatabase } from './helpers/service.js';

/**
 * src/db/migrate.ts: a migration's statements wait for a table lock at most MIGRATION_LOCK_TIMEOUT_MS
 * (PostgreSQL's lock_timeout), since every query on that table queues behind a waiting lock; the
 * run then rolls back, pauses and tries again, and after its attempts stops with a message that
 * says what to do. Another session holding the migrations table exclusively stands in for the long
 * transaction an operator meets (any table a migration touches behaves alike).
 */
const file = fileDatabase();

/** Another session with `kysely_migration` locked exclusively in an open transaction, until `release()`. */
async function holdMigrationTable(): Promise<{ release(): Promise<void> }> {
  const holder = new pg.Client({ connectionString: file.database.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE kysely_migration IN ACCESS EXCLUSIVE MODE');
  let released: Promise<void> | null = null;
  // Called again by a test's backstop or `finally`: the first call ends the session, the others wait for it.
  return { release: () => (released ??= holder.query('COMMIT').then(() => holder.end())) };
}

test('a run that waits past the lock timeout steps back and tries again, and finishes once the lock is free', async () => {
  const held = await holdMigrationTable();
  const retries: { attempt: number; code: unknown }[] = [];
  let firstRetry: () => void = () => {};
  const steppedBack = new Promise<void>((resolve) => (firstRetry = resolve));
  const run = migrateToLatest(file.database.url, {
    lockTimeoutMs: 200,
    attempts: 5,
    onRetry: (attempt, error) => {
      retries.push({ attempt, code: (error as { code?: unknown }).code });
      firstRetry();
    },
  });
  // Without a lock timeout the run would wait for as long as the lock is held: fail rather than hang.
  const stuck = new Promise<'stuck'>((resolve) => setTimeout(resolve, 15_000, 'stuck').unref());
  const outcome = await Promise.race([steppedBack, stuck]);
  await held.release();
  assert.notEqual(outcome, 'stuck', 'the run never stepped back from the lock it waited for');
  assert.deepEqual(await run, [], 'the schema was current: nothing to apply');
  assert.ok(retries.length >= 1);
  assert.deepEqual(retries[0], { attempt: 1, code: '55P03' }, 'it gave up waiting on lock_timeout (lock_not_available)');
  assert.deepEqual(await appliedMigrations(file.database.url), [...MIGRATION_NAMES]);
});

test('after its attempts it stops, changing nothing, and says what holds it up and which setting to raise', async () => {
  const held = await holdMigrationTable();
  const retries: number[] = [];
  // Released after 15 s whatever happens, so a run that never times out fails here instead of hanging.
  const backstop = setTimeout(() => void held.release(), 15_000);
  try {
    await assert.rejects(
      migrateToLatest(file.database.url, { lockTimeoutMs: 100, attempts: 2, onRetry: (attempt) => retries.push(attempt) }),
      (error: Error) => {
        assert.match(error.message, /2 times a statement waited more than 100 ms for a table lock/);
        assert.match(error.message, /pg_stat_activity.*Nothing was applied.*MIGRATION_LOCK_TIMEOUT_MS/s);
        assert.equal((error.cause as { code?: unknown }).code, '55P03');
        return true;
      },
    );
  } finally {
    clearTimeout(backstop);
    await held.release();
  }
  assert.deepEqual(retries, [1], 'one retry between the two attempts');
  assert.deepEqual(await appliedMigrations(file.database.url), [...MIGRATION_NAMES]);
});

test('waiting for another run of the migrations (the advisory lock) is not bounded: a second run waits its turn and finds nothing to do', async () => {
  // The first run holds the advisory lock for as long as the migrations table is held; the second
  // waits for it (longer than its own lock timeout) instead of failing.
  const held = await holdMigrationTable();
  const first = migrateToLatest(file.database.url, { lockTimeoutMs: 60_000 });
  // The first holds the advisory lock and waits on the table before the second starts.
  await waitForWaiters(1);
  const second = migrateToLatest(file.database.url, { lockTimeoutMs: 100, attempts: 1 });
  await waitForWaiters(2);
  // Held well past the second run's lock timeout, which must not apply to its wait for the first run.
  await new Promise((resolve) => setTimeout(resolve, 500));
  await held.release();
  assert.deepEqual(await Promise.all([first, second]), [[], []]);
});

/** Resolves once `count` sessions of this database wait for a lock (the migration runs queued). */
async function waitForWaiters(count: number): Promise<void> {
  const client = new pg.Client({ connectionString: file.database.url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0]!.n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}
