import type { Executor } from '../db/database.js';
import type { TokenPurpose } from '../db/schema.js';
import { notFound, tokenExpired } from '../lib/errors.js';
import { hashToken, newSecretToken } from '../lib/tokens.js';
import { insertAccountToken, lockAccountToken, markAccountTokenUsed, useUpAccountTokens } from './tokens-repository.js';

/**
 * Single-use account tokens (verification, reset, email change): random,
 * stored only as a SHA-256 hash, expiring. Unknown is 404; used or expired
 * is 410 TOKEN_EXPIRED (contract sections 1 and 3).
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
  // A new token supersedes any the account still holds for the same purpose.
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
export const revokeAccountTokens = useUpAccountTokens;

/**
 * Locks and checks a token; `accept` may refuse it (e.g. wrong session, as 404)
 * before it is marked used. Call inside the transaction that acts on it, so a
 * failure later in that transaction leaves the token unused. The lock is taken
 * without waiting: a token another request is acting on right now is as good
 * as used (410), so a burst of requests with one token does the transaction's
 * work (a password hash, say) once, not once per request.
 */
export async function consumeAccountToken(
  db: Executor,
  token: string,
  purpose: TokenPurpose,
  now: Date,
  accept: (row: { user_id: number; session_id: number | null }) => boolean = () => true,
) {
  const row = await lockAccountToken(db, hashToken(token), purpose);
  if (row === 'busy') throw tokenExpired();
  if (!row || !accept(row)) throw notFound('Token');
  if (row.used_at !== null || row.expires_at <= now) throw tokenExpired();
  await markAccountTokenUsed(db, row.id, now);
  return row;
}
