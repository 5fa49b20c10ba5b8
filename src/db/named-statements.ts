import pg from 'pg';

/**
 * Whether the database connection keeps named prepared statements, checked
 * once at start-up when the service is about to name its statements.
 *
 * Through a pooler in transaction mode that does not track prepared
 * statements (PgBouncer before 1.21, or later ones with
 * max_prepared_statements = 0), a statement one client prepared stays on the
 * server connection it happened to use, where another client preparing the
 * same name fails with 42P05 (`prepared statement "s1" already exists`), and
 * a client whose next transaction lands on another server connection finds
 * its statement missing (26000). The probe provokes exactly that: two
 * clients prepare the same name inside transactions held open together (so
 * on two server connections), then a third prepares it and all three run it
 * again. On a direct connection, a session pooler or a pooler that tracks
 * prepared statements every step succeeds.
 */
const PROBE = 'commerce_named_statement_probe';
/** The two failures of named statements behind such a pooler: already exists, does not exist. */
export const NAMED_STATEMENT_REFUSALS: ReadonlySet<string> = new Set(['42P05', '26000']);
/** A pooler with a single server connection cannot give two clients one each; the probe then gives up rather than wait. */
const PROBE_TIMEOUT_MS = 10_000;

/** What the probe found: `kept`, or `unknown` when it could not tell (the pooler had no second server connection to give). */
export type NamedStatementsCheck = 'kept' | 'unknown';

export class NamedStatementsRefusedError extends Error {
  constructor(cause: Error) {
    super(
      `The database connection does not keep named prepared statements (${cause.message}): DATABASE_URL points at a pooler in ` +
        'transaction mode without prepared-statement support (PgBouncer before 1.21, or max_prepared_statements = 0). ' +
        'Set DB_NAMED_STATEMENTS=false to send every statement unnamed, or enable max_prepared_statements (PgBouncer 1.21+).',
    );
    this.name = 'NamedStatementsRefusedError';
  }
}

export async function assertNamedStatementsKept(connectionString: string): Promise<NamedStatementsCheck> {
  const clients = [0, 1, 2].map(() => new pg.Client({ connectionString, query_timeout: PROBE_TIMEOUT_MS }));
  for (const client of clients) client.on('error', () => {});
  const [a, b, c] = clients as [pg.Client, pg.Client, pg.Client];
  const run = (client: pg.Client) => client.query({ name: PROBE, text: 'SELECT 1 AS probe' });
  try {
    await Promise.all(clients.map((client) => client.connect()));
    await a.query('BEGIN');
    await run(a);
    await b.query('BEGIN');
    await run(b);
    await a.query('COMMIT');
    await b.query('COMMIT');
    for (const client of [c, a, b, c]) await run(client);
    return 'kept';
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== undefined && NAMED_STATEMENT_REFUSALS.has(code)) throw new NamedStatementsRefusedError(error as Error);
    if (error instanceof Error && /timeout/i.test(error.message)) return 'unknown';
    throw error;
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
  }
}
