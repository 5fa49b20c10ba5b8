import pg from 'pg';

/**
 * An index a migration asks for without holding writes off its table. `CREATE INDEX` inside the
 * migrations' transaction takes a lock that blocks every insert, update and delete of the table until
 * the transaction commits, for as long as the build takes on a large table; `CREATE INDEX
 * CONCURRENTLY` lets them go on, but cannot run in a transaction. So a migration lists such indexes
 * (`export const concurrentIndexes`), and they are built after the migrations have committed.
 */
export interface ConcurrentIndex {
  readonly name: string;
  readonly table: string;
  /** What follows `ON <table>`: the column list, and a `WHERE` for a partial index. */
  readonly definition: string;
}

export interface IndexBuilds {
  /** Indexes built (or rebuilt after an interrupted build) by this call. */
  built: string[];
  /** Indexes whose build failed: each is tried again by the next call (an instance's start, `npm run db:migrate`). */
  failed: { name: string; error: Error }[];
}

type IndexState = 'valid' | 'missing' | 'invalid' | 'no-table';

/**
 * The builders' lock: one run builds at a time, database-wide. A second run skips instead of waiting
 * (two builds of one table deadlock: each waits for the other's snapshot) and leaves what is
 * missing to the first. It is taken as a transaction lock in an open transaction on a connection of
 * its own, which lasts exactly as long as the run and that no pooler can strand.
 */
const BUILD_LOCK = '7395082261735402211';

/**
 * Builds each index in `indexes` that the database lacks, one at a time, on a connection of its own
 * (direct or through a transaction pooler: each statement stands alone), unless another run is at it.
 * One left invalid by a build cut off (a crash, a cancelled statement, a deadlock) is dropped and
 * built again; one on a table a later migration dropped is skipped. A build that fails is reported,
 * not thrown: the service works without the index, only slower, and the next run tries again.
 * `signal` ends the run and cancels the build in flight (ending its connection would not stop it:
 * the server notices a closed connection only when it next writes to it).
 */
export async function buildConcurrentIndexes(
  connectionString: string,
  indexes: readonly ConcurrentIndex[],
  options: { signal?: AbortSignal } = {},
): Promise<IndexBuilds> {
  const result: IndexBuilds = { built: [], failed: [] };
  const { signal } = options;
  if (indexes.length === 0 || signal?.aborted) return result;
  const guard = new pg.Client({ connectionString });
  const worker = new pg.Client({ connectionString });
  // A lost connection fails the statement in flight, which reports it.
  for (const client of [guard, worker]) client.on('error', () => {});
  let building: string | null = null;
  let aborted: () => void = () => {};
  // Ending a client that is still connecting does not settle its connect: the wait is cut here instead.
  const abort = new Promise<void>((resolve) => (aborted = resolve));
  const stop = () => {
    aborted();
    if (building !== null) void cancelBuild(guard, building);
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await Promise.race([Promise.all([guard.connect(), worker.connect()]), abort]);
    if (signal?.aborted) return result;
    await guard.query('BEGIN');
    const { rows } = await guard.query<{ mine: boolean }>(`SELECT pg_try_advisory_xact_lock(${BUILD_LOCK}) AS mine`);
    if (!rows[0]?.mine) return result;
    for (const index of indexes) {
      if (signal?.aborted) break;
      try {
        const state = await indexState(worker, index);
        if (state === 'valid' || state === 'no-table') continue;
        const name = worker.escapeIdentifier(index.name);
        if (state === 'invalid') await worker.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
        building = index.name;
        await worker.query(`CREATE INDEX CONCURRENTLY ${name} ON ${worker.escapeIdentifier(index.table)} ${index.definition}`);
        building = null;
        if ((await indexState(worker, index)) !== 'valid') throw new Error(`index ${index.name} was left invalid`);
        result.built.push(index.name);
      } catch (error) {
        building = null;
        if (!signal?.aborted) result.failed.push({ name: index.name, error: error as Error });
      }
    }
  } catch (error) {
    if (!signal?.aborted) for (const index of indexes) result.failed.push({ name: index.name, error: error as Error });
  } finally {
    signal?.removeEventListener('abort', stop);
    await Promise.all([guard.end(), worker.end()].map((ended) => ended.catch(() => {})));
  }
  return result;
}

/** Whether the index exists and can be used, was left invalid, is missing, or its table is gone. */
async function indexState(client: pg.Client, index: ConcurrentIndex): Promise<IndexState> {
  const { rows } = await client.query<{ table_exists: boolean; valid: boolean | null }>(
    `SELECT to_regclass(quote_ident($2)) IS NOT NULL AS table_exists,
            (SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(quote_ident($1))) AS valid`,
    [index.name, index.table],
  );
  const row = rows[0];
  if (!row?.table_exists) return 'no-table';
  return row.valid === null ? 'missing' : row.valid ? 'valid' : 'invalid';
}

/**
 * Cancels this run's build of `name` from the guard's connection: the build's own connection may be
 * a pooler's, whose process ID is not the server's, so the build is found by what it runs (the
 * builders' lock makes it this run's).
 */
async function cancelBuild(guard: pg.Client, name: string): Promise<void> {
  await guard
    .query(
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE $1`,
      [`CREATE INDEX CONCURRENTLY ${guard.escapeIdentifier(name)} %`],
    )
    .catch(() => {});
}
