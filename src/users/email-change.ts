import type { Db } from '../db/database.js';
import { writeAudit } from '../audit/audit-log.js';
import { checkAccountToken, consumeAccountToken, issueAccountToken, revokeAccountTokens } from '../identity/account-tokens.js';
import { findUserByEmail, findUserById, updateUser } from '../identity/repository.js';
import { normalizeEmail } from '../identity/rules.js';
import { toUser, type User } from '../identity/schemas.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { emailTaken, notFound, validationError } from '../lib/errors.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import { enqueueEmail } from '../outbox/repository.js';
import { recheckPassword } from './password-check.js';
import { transaction } from '../db/transaction.js';

/** An email-change link works only in the session that asked for it: another session's, or another account's, is "not found". */
const askedHere = (ctx: AuthedCtx) => (token: { user_id: number; session_id: number | null }) =>
  token.user_id === ctx.actor.userId && token.session_id === ctx.actor.sessionId;

/**
 * The email change flow (spec "Email change flow"): step 1 checks the
 * password and mails a token to the new address; step 2, from the same
 * session within 24 hours, switches the account to it and tells the old one.
 */
export function createEmailChangeService({ db, clock, limiter }: { db: Db; clock: Clock; limiter: RateLimiter }) {
  return {
    async start(ctx: AuthedCtx, input: { new_email: string; password: string }): Promise<void> {
      await limiter.hit(db, 'EMAIL_CHANGE', ctx.actor.publicId, { enforce: true });
      // Its 409 EMAIL_TAKEN tells whether an address has an account, as registration's does: both doors
      // draw on registration's per-IP budget, so accounts made for probing cannot multiply it (README).
      await limiter.hit(db, 'REGISTER', ctx.meta.ip, { enforce: true });
      const user = await findUserById(db, ctx.actor.userId);
      if (!user) throw notFound('User');
      await recheckPassword({ db, limiter }, ctx, user, input.password, 'password');
      const newEmail = normalizeEmail(input.new_email);
      if (newEmail === user.email) {
        throw validationError('This is already your email address', [{ field: 'new_email', message: 'is the current email address' }]);
      }
      await transaction(db, async (trx) => {
        const holder = await findUserByEmail(trx, newEmail);
        if (holder) throw emailTaken();
        const token = await issueAccountToken(trx, {
          userId: user.id,
          purpose: 'EMAIL_CHANGE',
          now: clock.now(),
          newEmail,
          sessionId: ctx.actor.sessionId,
        });
        await enqueueEmail(trx, 'email_change_confirm', newEmail, { token, new_email: newEmail });
        await writeAudit(trx, ctx, {
          action: 'user.email_change_request',
          entityType: 'user',
          entityPublicId: user.public_id,
          changes: { after: { new_email: newEmail } },
        });
      });
    },

    /** Whether the link works in this session (the page it opens says so before offering to confirm); it stays unused. */
    async check(ctx: AuthedCtx, token: string): Promise<void> {
      await checkAccountToken(db, token, 'EMAIL_CHANGE', clock.now(), askedHere(ctx));
    },

    /** A taken address is EMAIL_TAKEN, found here or (a race) by the unique constraint. */
    async verify(ctx: AuthedCtx, token: string): Promise<User> {
      return transaction(db, async (trx) => {
        // Another session's token is "not found": only the session that asked may finish.
        const now = clock.now();
        const row = await consumeAccountToken(trx, token, 'EMAIL_CHANGE', now, askedHere(ctx));
        const newEmail = row.new_email!;
        const holder = await findUserByEmail(trx, newEmail);
        if (holder && holder.id !== ctx.actor.userId) throw emailTaken();
        const before = await findUserById(trx, ctx.actor.userId);
        if (!before) throw notFound('User');
        const after = await updateUser(trx, before.id, { email: newEmail, email_verified_at: now }, now);
        // Links already mailed to the old address (password reset, verification) must not outlive it.
        await revokeAccountTokens(trx, before.id, ['PASSWORD_RESET', 'VERIFY_EMAIL'], now);
        await enqueueEmail(trx, 'email_changed_notice', before.email, { new_email: newEmail });
        await writeAudit(trx, ctx, {
          action: 'user.email_change',
          entityType: 'user',
          entityPublicId: after.public_id,
          changes: { before: { email: before.email }, after: { email: newEmail } },
        });
        return toUser(after);
      });
    },
  };
}

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
