import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { recordEvent } from '../events/repository.js';
import { writeAudit } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx, Ctx } from '../lib/context.js';
import { forbidden, invalidCredentials, notFound } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { toPage, type PageRequest } from '../lib/pagination.js';
import { createDummyHash, hashPassword, verifyPassword } from '../lib/password.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import { findUserByEmail, insertUser } from '../identity/repository.js';
import { normalizeEmail, requireStrongPassword } from '../identity/rules.js';
import { toUser } from '../identity/schemas.js';
import {
  countLiveSessions,
  createSession,
  findOwnLiveSession,
  listLiveSessions,
  revokeSessions,
  type ActiveSession,
} from '../identity/sessions-repository.js';
import { limitsFor, sessionPolicyOf } from '../identity/session-policy.js';
import { sendVerification } from './recovery-service.js';
import type { LoginBody, RegisterBody, SessionState, SessionSummary } from './schemas.js';
import { transaction } from '../db/transaction.js';

export interface AuthDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'sessionTtlDays' | 'sessionIdleDays' | 'staffSessionTtlHours' | 'staffSessionIdleHours' | 'passwordHashCost'>;
}

export interface SignedIn {
  user: ReturnType<typeof toUser>;
  session: { token: string; expiresAt: Date };
}

export function createAuthService({ db, clock, limiter, config }: AuthDeps) {
  const policy = sessionPolicyOf(config);
  let dummyHash: Promise<string> | null = null;
  const client = (ctx: Ctx) => ({ ip: ctx.meta.ip, userAgent: ctx.meta.userAgent });

  /** Rotation: the new session replaces the one the browser had, which stops working at once. */
  async function startSession(trx: Parameters<typeof createSession>[0], ctx: Ctx, user: UserRow) {
    if (ctx.actor) await revokeSessions(trx, ctx.actor.userId, clock.now(), { only: ctx.actor.sessionId });
    return createSession(trx, user.id, clock.now(), limitsFor(policy, user.role), client(ctx));
  }

  return {
    /** Signs `user` in within the caller's transaction, replacing the browser's session (an accepted staff invitation). */
    openSession: startSession,

    async register(ctx: Ctx, input: RegisterBody): Promise<SignedIn> {
      await limiter.hit(db, 'REGISTER', ctx.meta.ip, { enforce: true });
      requireStrongPassword(input.password, 'password');
      const passwordHash = await hashPassword(input.password, config.passwordHashCost);
      // A taken email is EMAIL_TAKEN: the unique constraint decides, under any concurrency.
      return transaction(db, async (trx) => {
        const user = await insertUser(trx, {
          email: normalizeEmail(input.email),
          passwordHash,
          firstName: input.first_name,
          lastName: input.last_name,
          phoneNumber: input.phone_number ?? null,
          role: 'CUSTOMER', // whatever the body says: roles are raised only by a SUPER_ADMIN
        });
        const session = await startSession(trx, ctx, user);
        await sendVerification(trx, user, clock.now());
        const actor = { userId: user.id, publicId: user.public_id, email: user.email, role: user.role };
        await writeAudit(trx, ctx, { action: 'auth.register', entityType: 'user', entityPublicId: user.public_id, actor });
        await recordEvent(trx, 'customer.registered', user.public_id, {
          customer: {
            public_id: user.public_id,
            email: user.email,
            first_name: user.first_name,
            last_name: user.last_name,
            phone_number: user.phone_number,
            created_at: user.created_at.toISOString(),
          },
        });
        return { user: toUser(user), session };
      });
    },

    async login(ctx: Ctx, input: LoginBody): Promise<SignedIn> {
      const email = normalizeEmail(input.email);
      // Count the attempt before the password is checked: a check-then-count would let parallel
      // guesses all pass before any was counted. A successful login gives its count back below.
      await limiter.hit(db, 'LOGIN', email, { enforce: true });
      await limiter.hit(db, 'LOGIN_IP', ctx.meta.ip, { enforce: true });

      const user = await findUserByEmail(db, email);
      // Unknown emails still pay for a hash, so timing does not reveal which accounts exist.
      const ok = user
        ? await verifyPassword(input.password, user.password_hash)
        : await verifyPassword(input.password, await (dummyHash ??= createDummyHash(config.passwordHashCost))).then(() => false);

      if (!user || !ok) {
        await writeAudit(db, ctx, {
          action: 'auth.login_failed',
          entityType: 'user',
          entityPublicId: user?.public_id ?? null,
          changes: { after: { email } },
          actor: null,
        });
        throw invalidCredentials();
      }
      if (user.status !== 'ACTIVE') {
        // A refused login is a security event too; the right password proved who is knocking.
        await writeAudit(db, ctx, {
          action: 'auth.login_refused',
          entityType: 'user',
          entityPublicId: user.public_id,
          changes: { after: { status: user.status } },
          actor: null,
        });
        throw forbidden('This account is suspended');
      }

      return transaction(db, async (trx) => {
        await limiter.reset(trx, 'LOGIN', email);
        await limiter.release(trx, 'LOGIN_IP', ctx.meta.ip);
        const session = await startSession(trx, ctx, user);
        const actor = { userId: user.id, publicId: user.public_id, email: user.email, role: user.role };
        await writeAudit(trx, ctx, { action: 'auth.login', entityType: 'user', entityPublicId: user.public_id, actor });
        return { user: toUser(user), session };
      });
    },

    async logout(ctx: AuthedCtx): Promise<void> {
      await transaction(db, async (trx) => {
        await revokeSessions(trx, ctx.actor.userId, clock.now(), { only: ctx.actor.sessionId });
        await writeAudit(trx, ctx, { action: 'auth.logout', entityType: 'session', entityPublicId: ctx.actor.sessionPublicId });
      });
    },

    sessionState(session: ActiveSession | null): SessionState {
      if (!session) return { authenticated: false, user: null, expires_at: null };
      const idleEnd = session.lastSeenAt.getTime() + limitsFor(policy, session.role).idleMs;
      return {
        authenticated: true,
        user: { public_id: session.userPublicId, email: session.email, role: session.role, email_verified: session.emailVerified },
        expires_at: new Date(Math.min(idleEnd, session.expiresAt.getTime())).toISOString(),
      };
    },

    async listSessions(ctx: AuthedCtx, page: PageRequest) {
      const now = clock.now();
      const limits = limitsFor(policy, ctx.actor.role);
      const rows = await listLiveSessions(db, ctx.actor.userId, now, limits, page);
      return toPage(
        rows,
        page,
        () => countLiveSessions(db, ctx.actor.userId, now, limits),
        (row): SessionSummary => ({
          public_id: row.public_id,
          created_at: row.created_at.toISOString(),
          last_seen_at: row.last_seen_at.toISOString(),
          user_agent: row.user_agent,
          ip: row.ip,
          current: row.id === ctx.actor.sessionId,
        }),
      );
    },

    /** Revokes one of the caller's own sessions; another account's is simply not found. */
    async revokeSession(ctx: AuthedCtx, sessionPublicId: string): Promise<{ revokedCurrent: boolean }> {
      if (!isPublicId('ses', sessionPublicId)) throw notFound('Session');
      return transaction(db, async (trx) => {
        const target = await findOwnLiveSession(trx, ctx.actor.userId, sessionPublicId);
        if (!target) throw notFound('Session');
        await revokeSessions(trx, ctx.actor.userId, clock.now(), { only: target.id });
        await writeAudit(trx, ctx, { action: 'auth.session_revoke', entityType: 'session', entityPublicId: sessionPublicId });
        return { revokedCurrent: target.id === ctx.actor.sessionId };
      });
    },

    async revokeOtherSessions(ctx: AuthedCtx): Promise<void> {
      await transaction(db, async (trx) => {
        const revoked = await revokeSessions(trx, ctx.actor.userId, clock.now(), { except: ctx.actor.sessionId });
        await writeAudit(trx, ctx, {
          action: 'auth.session_revoke_others',
          entityType: 'user',
          entityPublicId: ctx.actor.publicId,
          changes: { after: { revoked } },
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
