import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from './database.js';

/**
 * How the database's schema stands against the migrations this code has:
 * `pending` are this code's migrations the database has not had yet (an
 * older schema), `unknown` are migrations the database has had that this
 * code does not know (a newer schema, migrated by a later release).
 */
export interface SchemaState {
  readonly pending: readonly string[];
  readonly unknown: readonly string[];
}

export async function readSchemaState(db: Db, expected: readonly string[]): Promise<SchemaState> {
  const { rows: found } = await sql<{ table: string | null }>`SELECT to_regclass('kysely_migration')::text AS table`.execute(db);
  const applied = found[0]?.table
    ? (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db)).rows.map((r) => r.name)
    : [];
  const known = new Set(expected);
  const done = new Set(applied);
  return { pending: expected.filter((name) => !done.has(name)), unknown: applied.filter((name) => !known.has(name)).sort() };
}

export class SchemaNewerError extends Error {
  constructor(unknown: readonly string[]) {
    super(
      `The database schema is newer than this version of the service: it has migrations this code does not know (${unknown.join(', ')}). ` +
        'Run the release that applied them (or a later one); an older release cannot serve a newer schema.',
    );
    this.name = 'SchemaNewerError';
  }
}

export function assertNotNewer(state: SchemaState): void {
  if (state.unknown.length > 0) throw new SchemaNewerError(state.unknown);
}

/** Why an instance whose database is behind its code does not serve yet (readiness says it). */
export function pendingReason(pending: readonly string[]): string {
  return (
    `The database schema is behind this version: ${pending.length} migration${pending.length === 1 ? '' : 's'} pending ` +
    `(${pending.join(', ')}); run \`npm run db:migrate\` with this instance's DATABASE_URL and MIGRATION_DATABASE_URL ` +
    '(DATA_DIR for the embedded database)'
  );
}

/**
 * Whether the instance may serve, as far as the schema goes. `pending()` is
 * null once the schema matches the code, else the reason it does not serve;
 * `current` resolves then (at once when it already matched), or rejects with
 * SchemaNewerError if a later release's migrations appear while it waits.
 */
export interface SchemaGate {
  pending(): string | null;
  readonly current: Promise<void>;
  /** Stops watching (shutdown); `current` then never settles. */
  stop(): void;
}

export const schemaIsCurrent: SchemaGate = { pending: () => null, current: Promise.resolve(), stop: () => {} };

/**
 * Watches a database that is behind the code (migrations are a release
 * step: MIGRATE_ON_START=false) until `npm run db:migrate` brings it up to
 * date, reading the applied migrations every `intervalMs`.
 */
export function watchSchema(
  db: Db,
  state: SchemaState,
  options: { expected: readonly string[]; intervalMs: number; log: Logger },
): SchemaGate {
  if (state.pending.length === 0) return schemaIsCurrent;
  let reason: string | null = pendingReason(state.pending);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  options.log.warn({ pending: state.pending }, `${reason}; waiting (readiness answers 503 until then)`);
  const current = new Promise<void>((resolve, reject) => {
    const check = async () => {
      try {
        const now = await readSchemaState(db, options.expected);
        assertNotNewer(now);
        if (now.pending.length === 0) {
          reason = null;
          options.log.info('the database schema is up to date; serving');
          return resolve();
        }
        reason = pendingReason(now.pending);
      } catch (error) {
        if (error instanceof SchemaNewerError) return reject(error);
        options.log.warn({ err: error }, 'could not read the database schema; trying again');
      }
      if (!stopped) timer = setTimeout(() => void check(), options.intervalMs);
    };
    timer = setTimeout(() => void check(), options.intervalMs);
  });
  current.catch(() => {}); // the caller handles it; an unobserved rejection must not end the process first
  return {
    pending: () => reason,
    current,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
