import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { buildConcurrentIndexes } from '../src/db/concurrent-indexes.js';
import { CONCURRENT_INDEXES } from '../src/db/migrate.js';
import { keyAgesIndexed } from '../src/idempotency/repository.js';
import { someoneWaitsOnALock } from './helpers/lock-waits.js';
import { fileDatabase } from './helpers/service.js';

/**
 * src/db/concurrent-indexes.ts: an index a migration asks for is built after the migrations commit,
 * with CREATE INDEX CONCURRENTLY, so writes to its table go on while it is built; a build cut off
 * leaves an invalid index that the next run drops and builds again; a build in progress elsewhere
 * is left to finish. On the Idempotency-Keys' age index (migration 0029), the one there is.
 */
const file = fileDatabase();
const INDEX = 'idempotency_keys_by_age';

async function session(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: file.database.url });
  await client.connect();
  return client;
}

/** A transaction writing to the table (its lock, as an insert or update takes it), open until `release()`. */
async function openWriter(): Promise<{ release(): Promise<void> }> {
  const writer = await session();
  await writer.query('BEGIN');
  await writer.query('LOCK TABLE idempotency_keys IN ROW EXCLUSIVE MODE');
  return { release: () => writer.query('COMMIT').then(() => writer.end()) };
}

async function indexState(): Promise<'missing' | 'valid' | 'invalid'> {
  const client = await session();
  try {
    const { rows } = await client.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = $1`,
      [INDEX],
    );
    return rows[0] === undefined ? 'missing' : rows[0].valid ? 'valid' : 'invalid';
  } finally {
    await client.end();
  }
}

/** Until a build of the index is waiting (for the writer opened before it); its backend's pid. */
async function buildWaiting(): Promise<number> {
  await someoneWaitsOnALock(file.db, 'CREATE INDEX%');
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX%' AND wait_event_type = 'Lock'`.execute(file.db);
  return rows[0]!.pid;
}

test('the migrations ask for the age index concurrently, and the migrated database has it', async () => {
  assert.ok(CONCURRENT_INDEXES.some((index) => index.name === INDEX));
  assert.equal(await indexState(), 'valid');
  assert.deepEqual(await buildConcurrentIndexes(file.database.url, CONCURRENT_INDEXES), { built: [], failed: [] }, 'nothing to do');
});

test('writes go on while the index is built; a build cut off is built again next time; one in progress is left alone', async () => {
  const admin = await session();
  try {
    await admin.query(`DROP INDEX ${INDEX}`);
    const first = await openWriter();
    const cutOff = buildConcurrentIndexes(file.database.url, CONCURRENT_INDEXES);
    const pid = await buildWaiting();

    // A new writer is not held up by the build waiting for the open one (CREATE INDEX would hold it behind its lock).
    const writer = await session();
    await writer.query(`SET lock_timeout = '2s'`);
    await writer.query('BEGIN');
    await writer.query('LOCK TABLE idempotency_keys IN ROW EXCLUSIVE MODE');
    await writer.query('COMMIT');
    await writer.end();

    // Another run meanwhile leaves the build in progress to the run making it (two builds of one table would deadlock).
    assert.deepEqual(await buildConcurrentIndexes(file.database.url, CONCURRENT_INDEXES), { built: [], failed: [] });
    // And the pruner leaves the keys alone while their age index is not there to be used.
    assert.equal(await keyAgesIndexed(file.db), false);

    // The build cut off (a cancelled statement, as a crash or a shutdown cuts it) leaves an invalid index: reported, not thrown.
    await admin.query('SELECT pg_cancel_backend($1)', [pid]);
    const interrupted = await cutOff;
    assert.deepEqual(interrupted.built, []);
    assert.deepEqual(
      interrupted.failed.map((f) => f.name),
      [INDEX],
    );
    assert.equal(await indexState(), 'invalid');
    await first.release();

    assert.deepEqual(await buildConcurrentIndexes(file.database.url, CONCURRENT_INDEXES), { built: [INDEX], failed: [] });
    assert.equal(await indexState(), 'valid');
    assert.equal(await keyAgesIndexed(file.db), true);
  } finally {
    await admin.end();
  }
});

test('a run stopped (an instance shutting down) cancels its build in the server, not only its connection', async () => {
  const admin = await session();
  try {
    await admin.query(`DROP INDEX ${INDEX}`);
    const writer = await openWriter();
    const stop = new AbortController();
    const run = buildConcurrentIndexes(file.database.url, CONCURRENT_INDEXES, { signal: stop.signal });
    await buildWaiting();
    stop.abort();
    const ended = await Promise.race([run, new Promise((resolve) => setTimeout(resolve, 10_000, 'still running'))]);
    assert.deepEqual(ended, { built: [], failed: [] }, 'stopped at once, not failed');
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX%' AND state = 'active'`,
    );
    assert.equal(rows[0].n, 0, 'no build left running in the server');
    await writer.release();
    assert.equal(await indexState(), 'invalid');
    assert.deepEqual(await buildConcurrentIndexes(file.database.url, CONCURRENT_INDEXES), { built: [INDEX], failed: [] });
  } finally {
    await admin.end();
  }
});

test('an index whose table a later migration dropped is not built, and fails nothing', async () => {
  const gone = { name: 'no_such_table_by_age', table: 'no_such_table', definition: '(created_at)' };
  assert.deepEqual(await buildConcurrentIndexes(file.database.url, [...CONCURRENT_INDEXES, gone]), { built: [], failed: [] });
});
