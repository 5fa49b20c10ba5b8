import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { writeAudit } from '../audit/audit-log.js';
import { revokeAccountTokens } from '../identity/account-tokens.js';
import { findUserById, updateUser } from '../identity/repository.js';
import { requireStrongPassword } from '../identity/rules.js';
import { toUser, type User } from '../identity/schemas.js';
import { revokeSessions } from '../identity/sessions-repository.js';
import type { Clock } from '../lib/clock.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound } from '../lib/errors.js';
import { hashPassword } from '../lib/password.js';
import { recheckPassword } from './password-check.js';
import type { PasswordChange, ProfilePatch } from './schemas.js';
import { transaction } from '../db/transaction.js';

export interface UserDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'passwordHashCost'>;
}

export function createUserService({ db, clock, limiter, config }: UserDeps) {
  return {
    async getProfile(ctx: AuthedCtx): Promise<User> {
      const user = await findUserById(db, ctx.actor.userId);
      if (!user) throw notFound('User');
      return toUser(user);
    },

    async updateProfile(ctx: AuthedCtx, patch: ProfilePatch): Promise<User> {
      return transaction(db, async (trx) => {
        const before = await findUserById(trx, ctx.actor.userId);
        if (!before) throw notFound('User');
        const after = await updateUser(trx, ctx.actor.userId, patch, clock.now());
        const pick = (u: typeof before) => ({ first_name: u.first_name, last_name: u.last_name, phone_number: u.phone_number });
        await writeAudit(trx, ctx, {
          action: 'user.profile_update',
          entityType: 'user',
          entityPublicId: after.public_id,
          changes: { before: pick(before), after: pick(after) },
        });
        return toUser(after);
      });
    },

    /** Checks the current password, stores the new hash and signs out every other session. */
    async changePassword(ctx: AuthedCtx, input: PasswordChange): Promise<void> {
      const user = await findUserById(db, ctx.actor.userId);
      if (!user) throw notFound('User');
      await recheckPassword({ db, limiter }, ctx, user, input.current_password, 'current_password');
      requireStrongPassword(input.new_password, 'new_password');
      const passwordHash = await hashPassword(input.new_password, config.passwordHashCost);
      await transaction(db, async (trx) => {
        const now = clock.now();
        await updateUser(trx, user.id, { password_hash: passwordHash }, now);
        // Reset and email-change links mailed before the change must not undo it.
        await revokeAccountTokens(trx, user.id, ['PASSWORD_RESET', 'EMAIL_CHANGE'], now);
        const revoked = await revokeSessions(trx, user.id, now, { except: ctx.actor.sessionId });
        await writeAudit(trx, ctx, {
          action: 'auth.password_change',
          entityType: 'user',
          entityPublicId: user.public_id,
          changes: { after: { revoked_sessions: revoked } },
        });
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
