import assert from 'node:assert/strict';
import { after } from 'node:test';
import type fc from 'fast-check';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

/** Seeded and bounded: FUZZ_SEED and FUZZ_RUNS (runs per operation) override the defaults. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
export const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/** The app under fuzz: every rate limit off (a fuzzer is one client sending thousands of requests), the email worker idle. */
export const FUZZ_ENV: Record<string, string> = {
  EMAIL_POLL_INTERVAL_MS: '600000',
  // Nor may the event dispatcher write behind a refusal's back (its deliveries would go nowhere: the one endpoint names a documentation address).
  EVENT_POLL_INTERVAL_MS: '600000',
  ...Object.fromEntries(
    ['LOGIN', 'LOGIN_IP', 'REGISTER', 'PASSWORD_RESET', 'EMAIL_CHANGE', 'CHECKOUT', 'VERIFY_RESEND', 'UPLOAD'].map((name) => [
      `RATE_LIMIT_${name}`,
      '0',
    ]),
  ),
};

/** The audit entries of security events, which refusals are meant to leave. */
const REFUSAL_AUDITS = ['auth.login_failed', 'auth.login_refused', 'auth.password_check_failed'];

/** Columns a refused request may move: an authenticated request slides its session's expiry, refused or not. */
const SLIDING: Record<string, string[]> = { sessions: ['last_seen_at', 'expires_at'] };

/**
 * A function that takes a fingerprint of every table (its row count and a
 * sum of every row's 64-bit hash: no sort, whatever the rows' order), rate-limit counters, the
 * audit entries of refusals and sliding session expiry excepted: a refused
 * request leaves every fingerprint as it was, so an UPDATE that wrote a value
 * is caught as surely as an INSERT.
 */
export async function tableFingerprints(db: Db): Promise<() => Promise<Record<string, string>>> {
  const columns = (
    await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
    }>`SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name NOT IN ('rate_limits') AND table_name NOT LIKE 'kysely_%'
       ORDER BY table_name, ordinal_position`.execute(db)
  ).rows;
  const tables = [...new Set(columns.map((c) => c.table_name))];
  const fingerprint = (table: string) => {
    const kept = columns
      .filter((c) => c.table_name === table && !SLIDING[table]?.includes(c.column_name))
      // Stored files by their digest: their hex text would be most of every fingerprint's work.
      .map((c) => (c.data_type === 'bytea' ? `md5("${c.column_name}")` : `"${c.column_name}"`));
    const where = table === 'audit_log' ? `WHERE action NOT IN (${REFUSAL_AUDITS.map((a) => `'${a}'`).join(', ')})` : '';
    return `(SELECT count(*) || ':' || coalesce(sum(hashtextextended(r::text, 0)::numeric), 0) FROM (SELECT ${kept.join(', ')} FROM "${table}" ${where}) r) AS "${table}"`;
  };
  const query = sql.raw(`SELECT ${tables.map(fingerprint).join(',\n')}`);
  return async () => (await query.execute(db)).rows[0] as Record<string, string>;
}

/** Counts each status that came back and prints the tally after the file's tests: a fuzzer whose requests all stop at one check proves little. */
export function statusTally(): (status: number) => void {
  const statuses = new Map<number, number>();
  after(() => console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`));
  return (status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1);
}

/** A failed check names its request in short; the seed and path replay it (the counterexample itself can be megabytes). */
export function assertPassed<T>(details: fc.RunDetails<T>): void {
  if (details.failed) {
    const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    assert.fail(`replay with FUZZ_SEED=${details.seed} (fc path "${details.counterexamplePath}"): ${reason}`);
  }
}
