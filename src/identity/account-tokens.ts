import type { Executor } from '../db/database.js';
import type { TokenPurpose } from '../db/schema.js';
import { notFound, tokenExpired } from '../lib/errors.js';
import { hashToken, newSecretToken } from '../lib/tokens.js';
import { lockAccount } from './repository.js';
import { findAccountToken, insertAccountToken, lockAccountToken, markAccountTokenUsed, useUpAccountTokens } from './tokens-repository.js';

/**
 * Single-use account tokens (verification, reset, email change): random,
 * stored only as a SHA-256 hash, expiring. Unknown is 404; used or expired
 * is 410 TOKEN_EXPIRED (contract sections 1 and 3). Every write of an
 * account's tokens holds the account's row first (src/db/LOCKING.md, steps
 * 17 then 18): a password change holds the account and then ends its links,
 * so acting on a link before the account would deadlock with it.
 */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  VERIFY_EMAIL: 24 * 3600_000,
  PASSWORD_RESET: 3600_000,
  EMAIL_CHANGE: 24 * 3600_000,
};

export async function issueAccountToken(
  db: Executor,
  input: { userId: number; purpose: TokenPurpose; now: Date; newEmail?: string; sessionId?: number },
): Promise<string> {
  // A new token supersedes any the account still holds for the same purpose (and holds the account).
  await revokeAccountTokens(db, input.userId, [input.purpose], input.now);
  const token = newSecretToken();
  await insertAccountToken(db, {
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashToken(token),
    newEmail: input.newEmail ?? null,
    sessionId: input.sessionId ?? null,
    expiresAt: new Date(input.now.getTime() + TOKEN_TTL_MS[input.purpose]),
  });
  return token;
}

/** Ends every unused token of these purposes: links already mailed stop working. */
export async function revokeAccountTokens(db: Executor, userId: number, purposes: readonly TokenPurpose[], now: Date): Promise<void> {
  await lockAccount(db, userId);
  await useUpAccountTokens(db, userId, purposes, now);
}

/**
 * Whether a link still works, without using it: 404 when unknown (or refused by `accept`, as
 * consumeAccountToken refuses it), 410 TOKEN_EXPIRED when used or expired.
 */
export async function checkAccountToken(
  db: Executor,
  token: string,
  purpose: TokenPurpose,
  now: Date,
  accept: (row: { user_id: number; session_id: number | null }) => boolean = () => true,
): Promise<{ user_id: number }> {
  const seen = await findAccountToken(db, hashToken(token), purpose);
  if (!seen || !accept(seen)) throw notFound('Token');
  if (seen.used_at !== null || seen.expires_at <= now) throw tokenExpired();
  return seen;
}

/**
 * Locks and checks a token; `accept` may refuse it (e.g. wrong session, as 404)
 * before it is marked used. Call inside the transaction that acts on it, so a
 * failure later in that transaction leaves the token unused. Unknown, spent and
 * refused tokens are answered from a plain read and lock nothing; a live one
 * locks its account, then itself. Requests racing with one token queue on the
 * account and, after the first commits, find it used (410), so a burst does the
 * transaction's work (a password hash, say) once, not once per request. The
 * token's own lock is taken without waiting all the same: a token held by a
 * transaction that got to it another way is as good as used.
 */
export async function consumeAccountToken(
  db: Executor,
  token: string,
  purpose: TokenPurpose,
  now: Date,
  accept: (row: { user_id: number; session_id: number | null }) => boolean = () => true,
) {
  const tokenHash = hashToken(token);
  // A look first, so unknown and spent tokens lock nothing; then the account, then the token.
  const seen = await checkAccountToken(db, token, purpose, now, accept);
  await lockAccount(db, seen.user_id);
  const row = await lockAccountToken(db, tokenHash, purpose);
  if (row === 'busy') throw tokenExpired();
  if (!row) throw notFound('Token');
  if (row.used_at !== null || row.expires_at <= now) throw tokenExpired();
  await markAccountTokenUsed(db, row.id, now);
  return row;
}
