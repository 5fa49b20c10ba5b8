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
  ...Object.fromEntries(
    ['LOGIN', 'LOGIN_IP', 'REGISTER', 'PASSWORD_RESET', 'EMAIL_CHANGE', 'CHECKOUT', 'VERIFY_RESEND', 'UPLOAD'].map((name) => [
      `RATE_LIMIT_${name}`,
      '0',
    ]),
  ),
};

/** The audit entries of security events, which refusals are meant to leave. */
const REFUSAL_AUDITS = ['auth.login_failed', 'auth.login_refused', 'auth.password_check_failed'];

/**
 * A function that counts the rows of every table, rate-limit counters and the
 * audit entries of refusals excepted: a refused request leaves the counts as
 * they were.
 */
export async function rowCounter(db: Db): Promise<() => Promise<Record<string, number>>> {
  const tables = (
    await sql<{
      tablename: string;
    }>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('rate_limits', 'audit_log') AND tablename NOT LIKE 'kysely_%' ORDER BY 1`.execute(
      db,
    )
  ).rows.map((row) => row.tablename);
  const countsQuery = sql.raw(
    `SELECT ${tables.map((name) => `(SELECT count(*) FROM "${name}") AS "${name}"`).join(', ')},
     (SELECT count(*) FROM audit_log WHERE action NOT IN (${REFUSAL_AUDITS.map((a) => `'${a}'`).join(', ')})) AS audit_log`,
  );
  return async () => (await countsQuery.execute(db)).rows[0] as Record<string, number>;
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
