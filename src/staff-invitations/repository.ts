import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { StaffInvitationsTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import type { PageRequest } from '../lib/pagination.js';

/** SQL of `staff_invitations`, its one owner. */

export type InvitationRow = Selectable<StaffInvitationsTable>;
export type InvitationWithInviter = InvitationRow & { invited_by_email: string; total_count: number };
export type InvitationState = 'PENDING' | 'EXPIRED' | 'ACCEPTED' | 'REVOKED';

/** Ends the open invitation for an email, if any (a new one replaces it). */
export async function revokeOpenInvitation(db: Executor, email: string, now: Date): Promise<void> {
  await db
    .updateTable('staff_invitations')
    .set({ revoked_at: now })
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every open invitation `userId` sent (they lost the role that sends them); returns the ones ended. */
export function revokeInvitationsSentBy(
  db: Executor,
  userId: number,
  now: Date,
): Promise<Pick<InvitationRow, 'public_id' | 'email' | 'role'>[]> {
  return db
    .updateTable('staff_invitations')
    .set({ revoked_at: now })
    .where('invited_by_user_id', '=', userId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['public_id', 'email', 'role'])
    .execute();
}

export function insertInvitation(
  db: Executor,
  row: Pick<InvitationRow, 'public_id' | 'email' | 'role' | 'token_hash' | 'invited_by_user_id' | 'expires_at'>,
): Promise<InvitationRow> {
  return db.insertInto('staff_invitations').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One invitation by its public ID or by its token's hash, optionally locked for an acceptance or revocation. */
export function findInvitation(db: Executor, by: { publicId: string } | { tokenHash: Buffer }, lock = false) {
  let query = db.selectFrom('staff_invitations').selectAll();
  query = 'publicId' in by ? query.where('public_id', '=', by.publicId) : query.where('token_hash', '=', by.tokenHash);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function closeInvitation(db: Executor, id: number, change: { accepted_at: Date; accepted_user_id: number } | { revoked_at: Date }) {
  return db.updateTable('staff_invitations').set(change).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** SQL for an invitation's state at `now`, so a list filters on what it shows. */
const stateAt = (now: Date) =>
  sql<InvitationState>`CASE WHEN i.accepted_at IS NOT NULL THEN 'ACCEPTED' WHEN i.revoked_at IS NOT NULL THEN 'REVOKED'
    WHEN i.expires_at <= ${now} THEN 'EXPIRED' ELSE 'PENDING' END`;

/** Newest first, with who sent each and the filtered total. */
export function listInvitations(db: Executor, now: Date, state: InvitationState | undefined, page: PageRequest) {
  return db
    .selectFrom('staff_invitations as i')
    .innerJoin('users as u', 'u.id', 'i.invited_by_user_id')
    .selectAll('i')
    .select(['u.email as invited_by_email', sql<number>`count(*) OVER ()`.as('total_count')])
    .$if(state !== undefined, (q) => q.where(stateAt(now), '=', state!))
    .orderBy('i.created_at', 'desc')
    .orderBy('i.public_id', 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute() as Promise<InvitationWithInviter[]>;
}

export async function countInvitations(db: Executor, now: Date, state: InvitationState | undefined): Promise<number> {
  const row = await db
    .selectFrom('staff_invitations as i')
    .select(sql<number>`count(*)`.as('count'))
    .$if(state !== undefined, (q) => q.where(stateAt(now), '=', state!))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
