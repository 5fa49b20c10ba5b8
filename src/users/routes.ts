import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { NoContent, Ok, errorResponses, sendEmpty } from '../lib/schemas.js';
import { User } from '../identity/schemas.js';
import { EmailChangeStart, EmailChangeVerify, PasswordChange, ProfilePatch } from './schemas.js';
import type { UserService } from './service.js';
import type { EmailChangeService } from './email-change.js';

export const userRoutes =
  (deps: { users: UserService; emailChange: EmailChangeService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { users, emailChange } = deps;
    const tags = ['Profile'];

    app.get('/users/me', {
      schema: { tags, summary: 'Your profile', response: { 200: Ok(User), ...errorResponses() } },
      handler: async (request) => ({ success: true as const, data: await users.getProfile(authedCtxOf(request)) }),
    });

    app.patch('/users/me', {
      schema: {
        tags,
        summary: 'Edit your name or phone number',
        body: ProfilePatch,
        response: { 200: Ok(User), ...errorResponses() },
      },
      handler: async (request) => ({
        success: true as const,
        data: await users.updateProfile(authedCtxOf(request), request.body),
      }),
    });

    app.patch('/users/me/password', {
      schema: {
        tags,
        summary: 'Change your password; every other session is signed out',
        body: PasswordChange,
        response: { 204: NoContent, ...errorResponses('INVALID_PASSWORD', 'RATE_LIMITED') },
      },
      handler: async (request, reply) => {
        await users.changePassword(authedCtxOf(request), request.body);
        return sendEmpty(reply, 204);
      },
    });

    app.post('/users/me/email', {
      schema: {
        tags,
        summary: 'Start an email change: a confirmation link goes to the new address',
        description:
          'Wrong password 400 INVALID_PASSWORD; the address of another account 409 EMAIL_TAKEN; the current address 400. A new request replaces a pending one.',
        body: EmailChangeStart,
        response: { 202: NoContent, ...errorResponses('INVALID_PASSWORD', 'EMAIL_TAKEN', 'RATE_LIMITED') },
      },
      handler: async (request, reply) => {
        await emailChange.start(authedCtxOf(request), request.body);
        return sendEmpty(reply, 202);
      },
    });

    app.post('/users/me/email/check', {
      // A look that changes nothing (POST keeps the token out of URLs and logs), so no CSRF token is asked.
      config: { csrf: false },
      schema: {
        tags,
        summary: 'Whether an email-change link works in this session (204), without using it: for the page the link opens',
        description: 'Another session, or unknown: 404. Used or expired: 410 TOKEN_EXPIRED.',
        body: EmailChangeVerify,
        response: { 204: NoContent, ...errorResponses('NOT_FOUND', 'TOKEN_EXPIRED') },
      },
      handler: async (request, reply) => {
        await emailChange.check(authedCtxOf(request), request.body.token);
        return sendEmpty(reply, 204);
      },
    });

    app.post('/users/me/email/verify', {
      schema: {
        tags,
        summary: 'Finish an email change with the token, from the same session that started it',
        description: 'Another session: 404. Used or expired (24 h): 410 TOKEN_EXPIRED. Address taken meanwhile: 409 EMAIL_TAKEN.',
        body: EmailChangeVerify,
        response: { 200: Ok(User), ...errorResponses('NOT_FOUND', 'EMAIL_TAKEN', 'TOKEN_EXPIRED') },
      },
      handler: async (request) => ({ success: true as const, data: await emailChange.verify(authedCtxOf(request), request.body.token) }),
    });
  };
