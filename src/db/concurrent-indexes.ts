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

type IndexState = 'missing' | 'valid' | 'building' | 'interrupted';

/**
 * Builds each index in `indexes` that the database lacks, one at a time, on a connection of its own
 * (direct or through a transaction pooler: each statement stands alone). An index another session is
 * building is left to it; one left invalid by a build that was cut off (a crash, a cancelled
 * statement, a deadlock) is dropped and built again. A build that fails is reported, not thrown: the
 * service works without the index, only slower, and the next call tries again. `signal` ends the
 * call (the build in flight is cancelled with its connection and tried again next time).
 */
export async function buildConcurrentIndexes(
  connectionString: string,
  indexes: readonly ConcurrentIndex[],
  options: { signal?: AbortSignal } = {},
): Promise<IndexBuilds> {
  const result: IndexBuilds = { built: [], failed: [] };
  if (indexes.length === 0 || options.signal?.aborted) return result;
  const client = new pg.Client({ connectionString });
  client.on('error', () => {}); // a lost connection fails the statement in flight, which reports it
  let aborted: () => void = () => {};
  // Ending a client that is still connecting does not settle its connect: the wait is cut here instead.
  const abort = new Promise<void>((resolve) => (aborted = resolve));
  const stop = () => {
    aborted();
    void client.end().catch(() => {});
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    await Promise.race([client.connect(), abort]);
    for (const index of indexes) {
      if (options.signal?.aborted) break;
      try {
        const state = await indexState(client, index.name);
        if (state === 'valid' || state === 'building') continue;
        const name = client.escapeIdentifier(index.name);
        if (state === 'interrupted') await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
        await client.query(
          `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${client.escapeIdentifier(index.table)} ${index.definition}`,
        );
        result.built.push(index.name);
      } catch (error) {
        // Another instance began the same build in the same moment: it is theirs to finish.
        if (!options.signal?.aborted && !startedElsewhere(error)) result.failed.push({ name: index.name, error: error as Error });
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) for (const index of indexes) result.failed.push({ name: index.name, error: error as Error });
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await client.end().catch(() => {});
  }
  return result;
}

/** Whether the index exists and can be used, is being built by some session, or was left invalid. */
async function indexState(client: pg.Client, name: string): Promise<IndexState> {
  const { rows } = await client.query<{ valid: boolean; building: boolean }>(
    `SELECT i.indisvalid AS valid,
            EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.relid = i.indrelid) AS building
       FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  const row = rows[0];
  if (!row) return 'missing';
  if (row.valid) return 'valid';
  return row.building ? 'building' : 'interrupted';
}

/** The relation exists already (42P07), or its name was taken by a concurrent create (23505 on pg_class). */
const startedElsewhere = (error: unknown) => ['42P07', '23505'].includes((error as { code?: string })?.code ?? '');
