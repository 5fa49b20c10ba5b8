import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { MAX_ATTEMPTS, transaction } from '../src/db/transaction.js';
import { mapError } from '../src/lib/error-handler.js';
import { fileDatabase } from './helpers/service.js';

/**
 * src/db/transaction.ts: a deadlock victim or a serialization failure is
 * run again from the start, so writers that meet in the wrong lock order
 * both succeed; anything else is not retried; past the attempts the error
 * is a 409 CONFLICT, not a 500.
 */
const file = fileDatabase();
let tableMade: Promise<unknown> | null = null;
/** The file's pool, with a scratch table made on first use (a file-level `before` may run beside fileDatabase's). */
async function probe(): Promise<Db> {
  tableMade ??= sql`CREATE TABLE retry_probe (id int PRIMARY KEY, n int NOT NULL); INSERT INTO retry_probe VALUES (1, 0), (2, 0)`.execute(
    file.db,
  );
  await tableMade;
  return file.db;
}

/** Resolves when `count` parties have arrived. */
function barrier(count: number) {
  let arrived = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived === count) open();
    await opened;
  };
}

test('two writers that lock two rows in opposite orders both commit: the deadlock victim is retried', async () => {
  const db = await probe();
  const bothHoldOne = barrier(2);
  const attempts = { a: 0, b: 0 };
  const writer = (name: 'a' | 'b', first: number, second: number) =>
    transaction(db, async (trx) => {
      attempts[name]++;
      await sql`UPDATE retry_probe SET n = n + 1 WHERE id = ${first}`.execute(trx);
      if (attempts[name] === 1) await bothHoldOne();
      await sql`UPDATE retry_probe SET n = n + 1 WHERE id = ${second}`.execute(trx);
    });
  await Promise.all([writer('a', 1, 2), writer('b', 2, 1)]);
  // Usually one retry; a retried victim can meet its sibling again when the
  // sibling's backend is slow to wake (the aborted row is free and the retry
  // takes it first), so more runs are allowed, within the attempts.
  const runs = attempts.a + attempts.b;
  assert.ok(runs >= 3 && runs <= 2 * MAX_ATTEMPTS, `the deadlock victim ran again (${JSON.stringify(attempts)})`);
  const rows = await sql<{ id: number; n: number }>`SELECT id, n FROM retry_probe ORDER BY id`.execute(db);
  assert.deepEqual(
    rows.rows,
    [
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ],
    'both writers applied once',
  );
});

test('other errors are not retried, and an exhausted retry is a 409 CONFLICT', async () => {
  const db = await probe();
  let runs = 0;
  await assert.rejects(
    transaction(db, async (trx) => {
      runs++;
      await sql`INSERT INTO retry_probe VALUES (1, 0)`.execute(trx);
    }),
    /duplicate key/,
  );
  assert.equal(runs, 1);

  runs = 0;
  const error = await transaction(db, async () => {
    runs++;
    throw Object.assign(new Error('could not serialize access'), { code: '40001' });
  }).catch((e: unknown) => e as Error);
  assert.equal(runs, MAX_ATTEMPTS);
  assert.deepEqual(mapError(error as Error), {
    status: 409,
    code: 'CONFLICT',
    message: 'A concurrent change got in the way; retry the request',
  });
});
