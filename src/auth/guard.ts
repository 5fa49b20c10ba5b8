import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Role } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { hasRole, type Actor, type AuthedCtx, type Ctx } from '../lib/context.js';
import { csrfTokenInvalid, forbidden, unauthenticated } from '../lib/errors.js';
import { hmacToken, safeEqual } from '../lib/tokens.js';
import { PRESESSION_COOKIE, SESSION_COOKIE } from './cookies.js';
import { findActiveSession, touchSession, type ActiveSession } from '../identity/sessions-repository.js';
import { sessionPolicyOf } from '../identity/session-policy.js';

/**
 * Who may call a route, declared in its `config.access`:
 * - `public`: anyone; the session is not even looked up on reads.
 * - `optional`: anyone; the session is used when there is one.
 * - `user`, `admin`, `super_admin`: a live session (401) with at least that role (403).
 * A route that declares nothing is `user`: closed unless opened on purpose.
 */
export type Access = 'public' | 'optional' | 'user' | 'admin' | 'super_admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Set false only for endpoints authenticated another way (signed uploads). */
    csrf?: boolean;
    /** A body the route reads itself (a multipart form), described for the OpenAPI document only. */
    documentedBody?: { contentType: string; schema: unknown };
    /** The 200 answer is a CSV file (an export), not JSON: so documented. */
    csvOnly?: boolean;
  }
  interface FastifyRequest {
    session: ActiveSession | null;
    /** The raw cookie token the CSRF token is derived from: the session's, else the pre-session's. */
    csrfKey: string | null;
  }
}

const REQUIRED_ROLE: Partial<Record<Access, Role>> = { user: 'CUSTOMER', admin: 'ADMIN', super_admin: 'SUPER_ADMIN' };
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The CSRF token is an HMAC keyed by the secret cookie token: bound to it, useless without it. */
export const csrfTokenFor = (cookieToken: string): string => hmacToken(cookieToken, 'csrf-token-v1');

export function registerGuard(app: FastifyInstance, deps: { db: Db; config: Config; clock: Clock }): void {
  const policy = sessionPolicyOf(deps.config);
  app.decorateRequest('session', null);
  app.decorateRequest('csrfKey', null);

  // Order of checks (contract section 2): session 401 -> CSRF 403 -> role 403; validation runs after.
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const { access = 'user', csrf = true } = request.routeOptions.config;
    const isWrite = WRITE_METHODS.has(request.method);
    const checkCsrf = isWrite && csrf;
    if (access === 'public' && !checkCsrf) return;

    const sessionToken = request.cookies[SESSION_COOKIE];
    if (sessionToken) {
      const now = deps.clock.now();
      request.session = await findActiveSession(deps.db, sessionToken, now, policy);
      if (request.session) {
        request.csrfKey = sessionToken;
        if (now.getTime() - request.session.lastSeenAt.getTime() > 60_000) {
          await touchSession(deps.db, request.session.sessionId, now);
          // Keep the request's view in step, so GET /auth/session reports the idle expiry from now.
          request.session.lastSeenAt = now;
        }
      }
    }
    if (!request.session) request.csrfKey = request.cookies[PRESESSION_COOKIE] ?? null;

    const role = REQUIRED_ROLE[access];
    if (role && !request.session) throw unauthenticated();
    if (checkCsrf) {
      const sent = request.headers['x-csrf-token'];
      const expected = request.csrfKey ? csrfTokenFor(request.csrfKey) : null;
      if (typeof sent !== 'string' || !expected || !safeEqual(sent, expected)) throw csrfTokenInvalid();
    }
    if (role && request.session && !hasRole(request.session.role, role)) throw forbidden();
  });
}

export function actorOf(request: FastifyRequest): Actor | null {
  const s = request.session;
  return s
    ? {
        userId: s.userId,
        publicId: s.userPublicId,
        email: s.email,
        role: s.role,
        sessionId: s.sessionId,
        sessionPublicId: s.sessionPublicId,
      }
    : null;
}

export function ctxOf(request: FastifyRequest): Ctx {
  return {
    actor: actorOf(request),
    meta: { requestId: String(request.id), ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
  };
}

/** For routes whose access guarantees a session; a missing one is a wiring bug, reported as 401. */
export function authedCtxOf(request: FastifyRequest): AuthedCtx {
  const ctx = ctxOf(request);
  if (!ctx.actor) throw unauthenticated();
  return ctx as AuthedCtx;
}
