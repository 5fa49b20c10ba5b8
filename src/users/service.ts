import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { writeAudit } from '../audit/audit-log.js';
import { revokeAccountTokens } from '../auth/account-tokens.js';
import { revokeSessions } from '../auth/session-store.js';
import type { Clock } from '../lib/clock.js';
import type { RateLimiter } from '../lib/rate-limit.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, validationError } from '../lib/errors.js';
import { hashPassword } from '../lib/password.js';
import { recheckPassword } from './password-check.js';
import { findUserById, updateUser } from './repository.js';
import { isPasswordTooSimple, toUser, type PasswordChange, type ProfilePatch, type User } from './schemas.js';
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
        const after = await updateUser(trx, ctx.actor.userId, patch);
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
      if (isPasswordTooSimple(input.new_password)) {
        throw validationError('The new password is too simple', [
          { field: 'new_password', message: 'must mix at least two of lower case, upper case, digits and symbols' },
        ]);
      }
      const passwordHash = await hashPassword(input.new_password, config.passwordHashCost);
      await transaction(db, async (trx) => {
        await updateUser(trx, user.id, { password_hash: passwordHash });
        const revoked = await revokeSessions(trx, user.id, clock.now(), { except: ctx.actor.sessionId });
        // Reset and email-change links mailed before the change must not undo it.
        await revokeAccountTokens(trx, user.id, ['PASSWORD_RESET', 'EMAIL_CHANGE'], clock.now());
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
