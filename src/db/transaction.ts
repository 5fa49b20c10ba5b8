import { isRetryableTransactionError } from '../lib/db-errors.js';
import type { Db, Trx } from './database.js';

/**
 * Every multi-statement write runs through here. PostgreSQL aborts a
 * transaction that lost a deadlock or a serialization check with nothing
 * applied, so running it again from the start is safe: `work` is retried up
 * to MAX_ATTEMPTS times, after a short random pause (so two victims do not
 * collide again in step). Past that the error stands, and the error handler
 * answers 409 CONFLICT ("retry"), never a 500. `work` must do nothing outside
 * the transaction that it could not repeat (no email sent, no file written:
 * the outbox and media tables are written inside it). Lock order: src/db/LOCKING.md.
 */
export const MAX_ATTEMPTS = 4;

export type RetryReason = 'deadlock' | 'serialization';
const retries = new WeakMap<Db, Record<RetryReason, number>>();

/** How many times transactions on `db` were run again, by reason (a metric: zero while the lock order holds). */
export function transactionRetries(db: Db): Readonly<Record<RetryReason, number>> {
  return retries.get(db) ?? { deadlock: 0, serialization: 0 };
}

const pause = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));

export async function transaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
      const counts = retries.get(db) ?? { deadlock: 0, serialization: 0 };
      counts[(error as { code?: string }).code === '40P01' ? 'deadlock' : 'serialization']++;
      retries.set(db, counts);
      await pause(attempt);
    }
  }
}
