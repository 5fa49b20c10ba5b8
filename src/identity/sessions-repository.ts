import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Role, UserStatus } from '../db/schema.js';
import { newPublicId } from '../lib/ids.js';
import { type PageRequest } from '../lib/pagination.js';
import { paged, countOf } from '../lib/sql.js';
import { hashToken, newSecretToken } from '../lib/tokens.js';
import type { SessionLimits, SessionPolicy } from './session-policy.js';

/**
 * SQL of `sessions`, their one owner: sign-in (auth) creates them, the guard
 * finds and touches them, and every change that must end them (sign-out,
 * password change or reset, suspension, role change) revokes them here. The
 * cookie holds a random token; only its SHA-256 is stored.
 */

export interface ActiveSession {
  sessionId: number;
  sessionPublicId: string;
  expiresAt: Date;
  lastSeenAt: Date;
  userId: number;
  userPublicId: string;
  email: string;
  role: Role;
  status: UserStatus;
  emailVerified: boolean;
}

/**
 * The session behind a cookie token, if it is live: not revoked, not past either expiry, account active.
 * Unused for longer than its account's role allows (staff sooner than customers) is as good as expired.
 */
export async function findActiveSession(db: Executor, token: string, now: Date, policy: SessionPolicy): Promise<ActiveSession | null> {
  const idleSince = (limits: SessionLimits) => new Date(now.getTime() - limits.idleMs);
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id as sessionId',
      's.public_id as sessionPublicId',
      's.expires_at as expiresAt',
      's.last_seen_at as lastSeenAt',
      'u.id as userId',
      'u.public_id as userPublicId',
      'u.email',
      'u.role',
      'u.status',
      sql<boolean>`u.email_verified_at IS NOT NULL`.as('emailVerified'),
    ])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('u.role', '=', 'CUSTOMER'), eb('s.last_seen_at', '>', idleSince(policy.customer))]),
        eb.and([eb('u.role', '<>', 'CUSTOMER'), eb('s.last_seen_at', '>', idleSince(policy.staff))]),
      ]),
    )
    .where('u.status', '=', 'ACTIVE')
    .executeTakeFirst();
  return row ?? null;
}

/** Idle expiry needs `last_seen_at`; writing it at most once a minute keeps reads cheap. */
export async function touchSession(db: Executor, sessionId: number, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('id', '=', sessionId)
    .where('last_seen_at', '<', new Date(now.getTime() - 60_000))
    .execute();
}

export async function createSession(
  db: Executor,
  userId: number,
  now: Date,
  limits: SessionLimits,
  client: { ip: string; userAgent: string | null },
): Promise<{ token: string; publicId: string; expiresAt: Date }> {
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + limits.ttlMs);
  const publicId = newPublicId('ses');
  await db
    .insertInto('sessions')
    .values({
      public_id: publicId,
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
    })
    .execute();
  return { token, publicId, expiresAt };
}

/** Revokes sessions of one account; returns the public IDs it revoked. */
export async function revokeSessions(
  db: Executor,
  userId: number,
  now: Date,
  which: { only?: number; except?: number } = {},
): Promise<string[]> {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (which.only !== undefined) query = query.where('id', '=', which.only);
  if (which.except !== undefined) query = query.where('id', '!=', which.except);
  const rows = await query.returning('public_id').execute();
  return rows.map((row) => row.public_id);
}

/** One live (not revoked) session of an account by public ID; another account's is not found. */
export function findOwnLiveSession(db: Executor, userId: number, publicId: string) {
  return db
    .selectFrom('sessions')
    .select('id')
    .where('public_id', '=', publicId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** A page of an account's live sessions, newest first, each row with the total as `total_count`. */
export function listLiveSessions(db: Executor, userId: number, now: Date, limits: SessionLimits, page: PageRequest) {
  return liveSessions(db, userId, now, limits)
    .select(['id', 'public_id', 'created_at', 'last_seen_at', 'user_agent', 'ip'])
    .select(countOf(liveSessions(db, userId, now, limits)).as('total_count'))
    .orderBy('created_at', 'desc')
    .orderBy('public_id', 'desc')
    .$call(paged(page))
    .execute();
}

export async function countLiveSessions(db: Executor, userId: number, now: Date, limits: SessionLimits): Promise<number> {
  return (await countOf(liveSessions(db, userId, now, limits)).executeTakeFirstOrThrow()).n;
}

const liveSessions = (db: Executor, userId: number, now: Date, limits: SessionLimits) =>
  db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', new Date(now.getTime() - limits.idleMs));
