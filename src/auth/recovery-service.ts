import type { Config } from '../config.js';
import type { Db, Executor } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import { checkAccountToken, consumeAccountToken, issueAccountToken, revokeAccountTokens } from '../identity/account-tokens.js';
import { findUserByEmail, findUserById, markEmailVerified, updateUser } from '../identity/repository.js';
import { normalizeEmail, requireStrongPassword } from '../identity/rules.js';
import { toUser, type User } from '../identity/schemas.js';
import { revokeSessions } from '../identity/sessions-repository.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx, Ctx } from '../lib/context.js';
import { alreadyVerified, notFound } from '../lib/errors.js';
import { hashPassword } from '../lib/password.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import { enqueueEmail } from '../outbox/repository.js';
import { transaction } from '../db/transaction.js';

/** Queues a verification email for an account; used on register and on resend. */
export async function sendVerification(db: Executor, user: Pick<UserRow, 'id' | 'email' | 'first_name'>, now: Date): Promise<void> {
  const token = await issueAccountToken(db, { userId: user.id, purpose: 'VERIFY_EMAIL', now });
  await enqueueEmail(db, 'verify_email', user.email, { first_name: user.first_name, token });
}

/** Email verification and password reset (contract section 3). */
export function createRecoveryService({
  db,
  clock,
  limiter,
  config,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'passwordHashCost'>;
}) {
  return {
    async verifyEmail(ctx: Ctx, token: string): Promise<User> {
      return transaction(db, async (trx) => {
        const now = clock.now();
        const row = await consumeAccountToken(trx, token, 'VERIFY_EMAIL', now);
        const before = await findUserById(trx, row.user_id);
        if (!before) throw notFound('Token');
        const user = before.email_verified_at ? before : await updateUser(trx, row.user_id, { email_verified_at: now }, now);
        await writeAudit(trx, ctx, {
          action: 'auth.email_verify',
          entityType: 'user',
          entityPublicId: user.public_id,
          actor: { userId: user.id, publicId: user.public_id, email: user.email, role: user.role },
        });
        return toUser(user);
      });
    },

    async resendVerification(ctx: AuthedCtx): Promise<void> {
      await limiter.hit(db, 'VERIFY_RESEND', ctx.actor.publicId, { enforce: true });
      await transaction(db, async (trx) => {
        const user = await findUserById(trx, ctx.actor.userId);
        if (!user) throw notFound('User');
        if (user.email_verified_at) throw alreadyVerified();
        await sendVerification(trx, user, clock.now());
      });
    },

    /** Always 202: whether the account exists is never revealed. */
    async requestPasswordReset(ctx: Ctx, rawEmail: string): Promise<void> {
      const email = normalizeEmail(rawEmail);
      await limiter.hit(db, 'PASSWORD_RESET', `email:${email}`, { enforce: true });
      await limiter.hit(db, 'PASSWORD_RESET', `ip:${ctx.meta.ip}`, { enforce: true });
      await transaction(db, async (trx) => {
        const user = await findUserByEmail(trx, email);
        if (!user || user.status !== 'ACTIVE') return;
        const token = await issueAccountToken(trx, { userId: user.id, purpose: 'PASSWORD_RESET', now: clock.now() });
        await enqueueEmail(trx, 'password_reset', user.email, { token });
        await writeAudit(trx, ctx, {
          action: 'auth.password_reset_request',
          entityType: 'user',
          entityPublicId: user.public_id,
          actor: null,
        });
      });
    },

    /** Whether a reset link still works, so its page can say so before a password is typed; the link stays unused. */
    async checkPasswordReset(token: string): Promise<void> {
      await checkAccountToken(db, token, 'PASSWORD_RESET', clock.now());
    },

    /** Sets the new password and signs the account out everywhere. */
    async resetPassword(ctx: Ctx, token: string, newPassword: string): Promise<void> {
      requireStrongPassword(newPassword, 'new_password');
      await transaction(db, async (trx) => {
        const now = clock.now();
        // The token is checked and locked first: unknown, spent and busy tokens cost no hash.
        const row = await consumeAccountToken(trx, token, 'PASSWORD_RESET', now);
        const passwordHash = await hashPassword(newPassword, config.passwordHashCost);
        await revokeAccountTokens(trx, row.user_id, ['PASSWORD_RESET', 'EMAIL_CHANGE'], now);
        const user = await updateUser(trx, row.user_id, { password_hash: passwordHash }, now);
        // The reset link reached the inbox, so the address is proven.
        if (!user.email_verified_at) await markEmailVerified(trx, user.id, now);
        const revoked = await revokeSessions(trx, user.id, now);
        await writeAudit(trx, ctx, {
          action: 'auth.password_reset',
          entityType: 'user',
          entityPublicId: user.public_id,
          changes: { after: { revoked_sessions: revoked } },
          actor: { userId: user.id, publicId: user.public_id, email: user.email, role: user.role },
        });
      });
    },
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
