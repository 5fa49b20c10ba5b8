import type { Executor } from '../db/database.js';
import type { TokenPurpose } from '../db/schema.js';
import { isLockNotAvailable } from '../lib/db-errors.js';

/** SQL of `account_tokens` (the rules are in account-tokens.ts). Only a token's SHA-256 is stored. */

export async function insertAccountToken(
  db: Executor,
  row: { userId: number; purpose: TokenPurpose; tokenHash: Buffer; newEmail: string | null; sessionId: number | null; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('account_tokens')
    .values({
      user_id: row.userId,
      purpose: row.purpose,
      token_hash: row.tokenHash,
      new_email: row.newEmail,
      session_id: row.sessionId,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Ends every unused token of these purposes. */
export async function useUpAccountTokens(db: Executor, userId: number, purposes: readonly TokenPurpose[], now: Date): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}

/** The token row as of now, unlocked: a look before the account and the token are locked. */
export function findAccountToken(db: Executor, tokenHash: Buffer, purpose: TokenPurpose) {
  return db.selectFrom('account_tokens').selectAll().where('token_hash', '=', tokenHash).where('purpose', '=', purpose).executeTakeFirst();
}

/**
 * The token row, locked without waiting: `'busy'` when another transaction
 * holds it (it is acting on the token right now).
 */
export function lockAccountToken(db: Executor, tokenHash: Buffer, purpose: TokenPurpose) {
  return db
    .selectFrom('account_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .forUpdate()
    .noWait()
    .executeTakeFirst()
    .catch((error: unknown) => {
      if (isLockNotAvailable(error)) return 'busy' as const;
      throw error;
    });
}

export async function markAccountTokenUsed(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('account_tokens').set({ used_at: now }).where('id', '=', id).execute();
}
