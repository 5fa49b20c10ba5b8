import type { Config } from '../config.js';
import type { AuthService } from '../auth/service.js';
import { writeAudit } from '../audit/audit-log.js';
import type { Db, Executor } from '../db/database.js';
import { transaction } from '../db/transaction.js';
import { findUserByEmail, findUserById, insertUser } from '../identity/repository.js';
import { normalizeEmail, requireStrongPassword } from '../identity/rules.js';
import { toUser, type User } from '../identity/schemas.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx, Ctx } from '../lib/context.js';
import { concurrentChange, emailTaken, notFound, tokenExpired } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { pageMeta } from '../lib/pagination.js';
import { hashPassword } from '../lib/password.js';
import { hashToken, newSecretToken } from '../lib/tokens.js';
import { enqueueEmail } from '../outbox/repository.js';
import {
  closeInvitation,
  countInvitations,
  findInvitation,
  insertInvitation,
  listInvitations,
  revokeOpenInvitation,
  type InvitationRow,
  type InvitationState,
} from './repository.js';
import type { Invitation, InvitationAccept, InvitationCreate, InvitationListQuery, InvitationPreview } from './schemas.js';

const stateOf = (row: InvitationRow, now: Date): InvitationState =>
  row.accepted_at ? 'ACCEPTED' : row.revoked_at ? 'REVOKED' : row.expires_at <= now ? 'EXPIRED' : 'PENDING';

const toInvitation = (row: InvitationRow, invitedBy: string, now: Date): Invitation => ({
  public_id: row.public_id,
  email: row.email,
  role: row.role,
  state: stateOf(row, now),
  invited_by_email: invitedBy,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  accepted_at: row.accepted_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
});

/**
 * Staff invitations: a SUPER_ADMIN invites a person by email to become ADMIN or SUPER_ADMIN. The
 * link (valid STAFF_INVITATION_TTL, single use) lets them set a name and password; that creates a
 * verified account with the role and signs them in. A person who already has an account is given
 * the role on the staff screen instead. Every step is audited.
 */
export function createStaffInvitations(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'staffInvitationTtlSeconds' | 'passwordHashCost'>;
  auth: Pick<AuthService, 'openSession'>;
}) {
  const { db, clock, config } = deps;

  /**
   * A live invitation by its token, locked; unknown is 404, accepted, revoked or expired 410, and so is
   * one whose sender is no longer an active SUPER_ADMIN (a demotion revokes what they sent; this holds
   * whatever way they lost the role).
   */
  async function openInvitation(trx: Executor, token: string, lock: boolean) {
    const row = await findInvitation(trx, { tokenHash: hashToken(token) }, lock);
    if (!row) throw notFound('Invitation');
    if (stateOf(row, clock.now()) !== 'PENDING') throw tokenExpired();
    const sender = await findUserById(trx, row.invited_by_user_id);
    if (sender?.role !== 'SUPER_ADMIN' || sender.status !== 'ACTIVE') throw tokenExpired();
    return row;
  }

  return {
    async invite(ctx: AuthedCtx, input: InvitationCreate): Promise<Invitation> {
      const email = normalizeEmail(input.email);
      return transaction(db, async (trx) => {
        const account = await findUserByEmail(trx, email);
        if (account) {
          // Said to a SUPER_ADMIN only (the route's role): the account, so the console can open it. An
          // unverified one may be anyone's who typed the address: it gets a staff role once verified.
          const verified = account.email_verified_at !== null;
          throw emailTaken(
            verified
              ? 'This person already has an account: give it the role on the staff screen instead'
              : 'An account with this email exists but has not verified it: once its owner verifies the address (or resets the password, which proves it), give it the role on the staff screen',
            [{ field: 'email', message: 'already has an account', user_public_id: account.public_id, email_verified: verified }],
          );
        }
        const now = clock.now();
        await revokeOpenInvitation(trx, email, now);
        const token = newSecretToken();
        const row = await insertInvitation(trx, {
          public_id: newPublicId('inv'),
          email,
          role: input.role,
          token_hash: hashToken(token),
          invited_by_user_id: ctx.actor.userId,
          expires_at: new Date(now.getTime() + config.staffInvitationTtlSeconds * 1000),
        });
        await enqueueEmail(trx, 'staff_invitation', email, {
          token,
          role: input.role,
          invited_by: ctx.actor.email,
          expires_at: row.expires_at.toISOString(),
        });
        await writeAudit(trx, ctx, {
          action: 'staff.invite',
          entityType: 'staff_invitation',
          entityPublicId: row.public_id,
          changes: { before: null, after: { email, role: input.role, expires_at: row.expires_at.toISOString() } },
        });
        return toInvitation(row, ctx.actor.email, now);
      });
    },

    async list(query: InvitationListQuery) {
      const now = clock.now();
      const rows = await listInvitations(db, now, query.state, query);
      const total = rows[0] ? Number(rows[0].total_count) : query.page === 1 ? 0 : await countInvitations(db, now, query.state);
      return { data: rows.map((row) => toInvitation(row, row.invited_by_email, now)), meta: pageMeta(query, total) };
    },

    /** Ends a pending (or expired) invitation; an accepted or already revoked one is 409. */
    async revoke(ctx: AuthedCtx, publicId: string): Promise<void> {
      await transaction(db, async (trx) => {
        const row = isPublicId('inv', publicId) ? await findInvitation(trx, { publicId }, true) : undefined;
        if (!row) throw notFound('Invitation');
        if (row.accepted_at) throw concurrentChange("This invitation was already accepted: change the person's role on the staff screen");
        if (row.revoked_at) throw concurrentChange('This invitation was already revoked');
        await closeInvitation(trx, row.id, { revoked_at: clock.now() });
        await writeAudit(trx, ctx, {
          action: 'staff.invitation_revoke',
          entityType: 'staff_invitation',
          entityPublicId: publicId,
          changes: { before: { email: row.email, role: row.role }, after: null },
        });
      });
    },

    async preview(token: string): Promise<InvitationPreview> {
      const row = await openInvitation(db, token, false);
      return { email: row.email, role: row.role, expires_at: row.expires_at.toISOString() };
    },

    /** Creates the verified staff account and signs it in; the same link works once. */
    async accept(ctx: Ctx, input: InvitationAccept): Promise<{ user: User; session: { token: string; expiresAt: Date } }> {
      requireStrongPassword(input.password, 'password');
      await openInvitation(db, input.token, false); // a dead link costs no password hash
      const passwordHash = await hashPassword(input.password, config.passwordHashCost);
      return transaction(db, async (trx) => {
        const invitation = await openInvitation(trx, input.token, true);
        const now = clock.now();
        // A taken email (someone registered meanwhile) is EMAIL_TAKEN through the users' unique constraint.
        const user = await insertUser(trx, {
          email: invitation.email,
          passwordHash,
          firstName: input.first_name,
          lastName: input.last_name,
          phoneNumber: null,
          role: invitation.role,
          emailVerifiedAt: now,
        });
        await closeInvitation(trx, invitation.id, { accepted_at: now, accepted_user_id: user.id });
        const session = await deps.auth.openSession(trx, ctx, user);
        const actor = { userId: user.id, publicId: user.public_id, email: user.email, role: user.role };
        await writeAudit(trx, ctx, {
          action: 'staff.invitation_accept',
          entityType: 'staff_invitation',
          entityPublicId: invitation.public_id,
          changes: { before: null, after: { user_public_id: user.public_id, email: user.email, role: user.role } },
          actor,
        });
        return { user: toUser(user), session };
      });
    },
  };
}

export type StaffInvitations = ReturnType<typeof createStaffInvitations>;
