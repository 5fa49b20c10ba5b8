import { accountExportBatches, countAccountsForExport, type AccountExportFilters } from './export-repository.js';
import type { Db, Executor } from '../db/database.js';
import type { Role, UserRow } from '../db/schema.js';
import { auditExport, writeAudit } from '../audit/audit-log.js';
import { findUserByPublicId, lockSuperAdmins, updateUser } from '../identity/repository.js';
import { toUser, type User } from '../identity/schemas.js';
import { revokeSessions } from '../identity/sessions-repository.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { emailNotVerified, forbidden, lastSuperAdmin, notFound, validationError } from '../lib/errors.js';
import { revokeInvitationsSentBy } from '../staff-invitations/repository.js';
import { isPublicId } from '../lib/ids.js';
import { parseSort, toPage } from '../lib/pagination.js';
import { countAccounts, listAccounts, orderTotals } from './repository.js';
import type { AccountSortField, AdminUserDetail, AdminUserListQuery } from './schemas.js';
import { transaction } from '../db/transaction.js';

/**
 * Customer and staff accounts (contract section 11). An ADMIN acts on
 * customers only; a SUPER_ADMIN also on admins. Suspending or changing a
 * role revokes the target's sessions so it applies at once.
 */
export function createAdminUserService({ db, clock }: { db: Db; clock: Clock }) {
  async function target(executor: Executor, publicId: string, lock = false): Promise<UserRow> {
    const user = isPublicId('usr', publicId) ? await findUserByPublicId(executor, publicId, lock) : undefined;
    if (!user) throw notFound('User');
    return user;
  }

  /**
   * Who may act on whom: never oneself; an ADMIN only on customers; nobody suspends a SUPER_ADMIN
   * (demote first), though a suspended one (promoted while suspended) may be reactivated.
   */
  function checkReach(ctx: AuthedCtx, user: UserRow, status: 'ACTIVE' | 'SUSPENDED'): void {
    if (user.id === ctx.actor.userId)
      throw validationError('You cannot do this to your own account', [{ field: 'user', message: 'is yourself' }]);
    if (ctx.actor.role === 'ADMIN' && user.role !== 'CUSTOMER') throw forbidden('An ADMIN may act on customer accounts only');
    if (user.role === 'SUPER_ADMIN' && status === 'SUSPENDED')
      throw forbidden('A SUPER_ADMIN account must be demoted before it can be suspended');
  }

  async function setStatus(ctx: AuthedCtx, publicId: string, status: 'ACTIVE' | 'SUSPENDED'): Promise<User> {
    return transaction(db, async (trx) => {
      const before = await target(trx, publicId, true);
      checkReach(ctx, before, status);
      const now = clock.now();
      const after = await updateUser(trx, before.id, { status }, now);
      const revoked = status === 'SUSPENDED' ? await revokeSessions(trx, before.id, now) : [];
      await writeAudit(trx, ctx, {
        action: status === 'SUSPENDED' ? 'user.suspend' : 'user.activate',
        entityType: 'user',
        entityPublicId: publicId,
        changes: { before: { status: before.status }, after: { status, ...(revoked.length ? { revoked_sessions: revoked } : {}) } },
      });
      return toUser(after);
    });
  }

  return {
    /** Every matching account for a CSV export: how many, and the rows a batch at a time. */
    async export(ctx: AuthedCtx, filters: AccountExportFilters) {
      const total = await countAccountsForExport(db, filters);
      await auditExport(db, ctx, 'accounts', filters, total);
      return { total, batches: accountExportBatches(db, filters) };
    },

    async list(query: AdminUserListQuery) {
      const rows = await listAccounts(db, query, parseSort<AccountSortField>(query.sort));
      return toPage(rows, query, () => countAccounts(db, query), toUser);
    },

    async get(publicId: string): Promise<AdminUserDetail> {
      const user = await target(db, publicId);
      const totals = await orderTotals(db, user.id);
      return { ...toUser(user), order_count: totals.order_count, lifetime_spend: totals.lifetime_spend };
    },

    suspend: (ctx: AuthedCtx, publicId: string) => setStatus(ctx, publicId, 'SUSPENDED'),
    activate: (ctx: AuthedCtx, publicId: string) => setStatus(ctx, publicId, 'ACTIVE'),

    /**
     * SUPER_ADMIN only. Every SUPER_ADMIN row is locked first, so two super
     * admins demoting each other at once cannot leave the store without one.
     */
    async changeRole(ctx: AuthedCtx, publicId: string, role: Role): Promise<User> {
      return transaction(db, async (trx) => {
        const supers = await lockSuperAdmins(trx);
        // The actor may have been demoted by a concurrent request a moment ago.
        if (!supers.some((s) => s.id === ctx.actor.userId)) throw forbidden();
        const before = await target(trx, publicId, true);
        if (before.id === ctx.actor.userId)
          throw validationError('You cannot change your own role', [{ field: 'role', message: 'cannot be changed on yourself' }]);
        // What counts is who would be left: a suspended SUPER_ADMIN is not the last one while an active one remains.
        if (before.role === 'SUPER_ADMIN' && role !== 'SUPER_ADMIN' && !supers.some((s) => s.status === 'ACTIVE' && s.id !== before.id)) {
          throw lastSuperAdmin();
        }
        // Anyone can register an address they do not own: only its proven owner becomes staff.
        if (role !== 'CUSTOMER' && before.role === 'CUSTOMER' && before.email_verified_at === null) throw emailNotVerified();
        const now = clock.now();
        const after = await updateUser(trx, before.id, { role }, now);
        const revoked = before.role === role ? [] : await revokeSessions(trx, before.id, now);
        // Links a former SUPER_ADMIN sent would make staff on their authority: they end with it.
        const invitations =
          before.role === 'SUPER_ADMIN' && role !== 'SUPER_ADMIN' ? await revokeInvitationsSentBy(trx, before.id, now) : [];
        await writeAudit(trx, ctx, {
          action: 'user.role_change',
          entityType: 'user',
          entityPublicId: publicId,
          changes: {
            before: { role: before.role },
            after: {
              role,
              revoked_sessions: revoked,
              ...(invitations.length > 0 ? { revoked_invitations: invitations.map((i) => i.public_id) } : {}),
            },
          },
        });
        return toUser(after);
      });
    },
  };
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;
