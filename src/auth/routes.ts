import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { PageOnlyQuery } from '../lib/pagination.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import { newSecretToken } from '../lib/tokens.js';
import { User } from '../identity/schemas.js';
import { clearSessionCookie, setPresessionCookie, setSessionCookie } from './cookies.js';
import { authedCtxOf, csrfTokenFor, ctxOf } from './guard.js';
import {
  CsrfToken,
  LoginBody,
  PasswordReset,
  PasswordResetRequest,
  RegisterBody,
  SessionState,
  SessionSummary,
  TokenBody,
} from './schemas.js';
import type { AuthService } from './service.js';
import type { RecoveryService } from './recovery-service.js';

export const authRoutes =
  (deps: { auth: AuthService; recovery: RecoveryService; config: Config }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { auth, recovery, config } = deps;
    const tags = ['Auth'];

    app.get('/auth/csrf-token', {
      config: { access: 'optional' },
      schema: {
        tags,
        summary: 'Get a CSRF token for the current session (or a pre-session for login and register)',
        description:
          'Send it as the `x-csrf-token` header on every POST, PATCH, PUT and DELETE. It is bound to the session cookie; a new one is needed after login or register.',
        response: { 200: Ok(CsrfToken) },
      },
      handler: async (request, reply) => {
        let key = request.csrfKey;
        if (!key) {
          key = newSecretToken();
          setPresessionCookie(reply, config, key);
        }
        return { success: true as const, data: { csrf_token: csrfTokenFor(key) } };
      },
    });

    app.post('/auth/register', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Create a customer account and sign in',
        body: RegisterBody,
        response: { 201: Ok(User), ...errorResponses('EMAIL_TAKEN', 'RATE_LIMITED') },
      },
      handler: async (request, reply) => {
        const { user, session } = await auth.register(ctxOf(request), request.body);
        setSessionCookie(reply, config, session.token, session.expiresAt);
        return reply.code(201).send({ success: true as const, data: user });
      },
    });

    app.post('/auth/login', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Sign in with email and password',
        body: LoginBody,
        response: { 200: Ok(User), ...errorResponses('INVALID_CREDENTIALS', 'FORBIDDEN', 'RATE_LIMITED') },
      },
      handler: async (request, reply) => {
        const { user, session } = await auth.login(ctxOf(request), request.body);
        setSessionCookie(reply, config, session.token, session.expiresAt);
        return { success: true as const, data: user };
      },
    });

    app.get('/auth/session', {
      config: { access: 'optional' },
      schema: { tags, summary: 'Lightweight session state (never 401)', response: { 200: Ok(SessionState) } },
      handler: async (request) => ({ success: true as const, data: auth.sessionState(request.session) }),
    });

    app.delete('/auth/session', {
      schema: { tags, summary: 'Sign out: revoke this session and clear the cookie', response: { 204: NoContent, ...errorResponses() } },
      handler: async (request, reply) => {
        await auth.logout(authedCtxOf(request));
        clearSessionCookie(reply, config);
        return sendEmpty(reply, 204);
      },
    });

    app.get('/auth/sessions', {
      schema: {
        tags,
        summary: 'List your live sessions, newest first',
        querystring: PageOnlyQuery,
        response: { 200: Page(SessionSummary), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await auth.listSessions(authedCtxOf(request), request.query)) }),
    });

    app.delete('/auth/sessions/:session_public_id', {
      schema: {
        tags,
        summary: 'Revoke one of your sessions',
        params: IdParam('session_public_id', 'ses'),
        response: { 204: NoContent, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        const { revokedCurrent } = await auth.revokeSession(authedCtxOf(request), request.params.session_public_id);
        if (revokedCurrent) clearSessionCookie(reply, config);
        return sendEmpty(reply, 204);
      },
    });

    app.delete('/auth/sessions', {
      schema: { tags, summary: 'Revoke every session except this one', response: { 204: NoContent, ...errorResponses() } },
      handler: async (request, reply) => {
        await auth.revokeOtherSessions(authedCtxOf(request));
        return sendEmpty(reply, 204);
      },
    });

    app.post('/auth/email-verification/verify', {
      config: { access: 'optional' },
      schema: {
        tags,
        summary: 'Verify your email with the token from the verification email',
        body: TokenBody,
        response: { 200: Ok(User), ...errorResponses('NOT_FOUND', 'TOKEN_EXPIRED') },
      },
      handler: async (request) => ({ success: true as const, data: await recovery.verifyEmail(ctxOf(request), request.body.token) }),
    });

    app.post('/auth/email-verification/resend', {
      schema: {
        tags,
        summary: 'Send the verification email again',
        response: { 202: NoContent, ...errorResponses('ALREADY_VERIFIED', 'RATE_LIMITED') },
      },
      handler: async (request, reply) => {
        await recovery.resendVerification(authedCtxOf(request));
        return sendEmpty(reply, 202);
      },
    });

    app.post('/auth/password-reset', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Ask for a password reset email (always 202: accounts are never revealed)',
        body: PasswordResetRequest,
        response: { 202: NoContent, ...errorResponses('RATE_LIMITED') },
      },
      handler: async (request, reply) => {
        await recovery.requestPasswordReset(ctxOf(request), request.body.email);
        return sendEmpty(reply, 202);
      },
    });

    app.post('/auth/password-reset/check', {
      // A look that changes nothing (POST keeps the token out of URLs and logs), so no CSRF token is asked.
      config: { access: 'public', csrf: false },
      schema: {
        tags,
        summary: 'Whether a reset link still works (204), without using it: for the page the link opens',
        body: TokenBody,
        response: { 204: NoContent, ...errorResponses('NOT_FOUND', 'TOKEN_EXPIRED') },
      },
      handler: async (request, reply) => {
        await recovery.checkPasswordReset(request.body.token);
        return sendEmpty(reply, 204);
      },
    });

    app.post('/auth/password-reset/verify', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with the reset token; every session of the account is signed out',
        body: PasswordReset,
        response: { 204: NoContent, ...errorResponses('NOT_FOUND', 'TOKEN_EXPIRED') },
      },
      handler: async (request, reply) => {
        await recovery.resetPassword(ctxOf(request), request.body.token, request.body.new_password);
        return sendEmpty(reply, 204);
      },
    });
  };
