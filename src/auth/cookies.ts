import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';

export const SESSION_COOKIE = 'session';
/** Set by GET /auth/csrf-token for visitors without a session, so login and register are CSRF-protected too. */
export const PRESESSION_COOKIE = 'presession';

const base = (config: Config) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.cookieSecure });

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, { ...base(config), expires: expiresAt });
  reply.clearCookie(PRESESSION_COOKIE, base(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, base(config));
}

export function setPresessionCookie(reply: FastifyReply, config: Config, token: string): void {
  // A browser-session cookie: it only has to live until the visitor signs in.
  reply.setCookie(PRESESSION_COOKIE, token, base(config));
}
