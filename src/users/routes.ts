import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { NoContent, Ok, errorResponses } from '../lib/schemas.js';
import { PasswordChange, ProfilePatch, User } from './schemas.js';
import type { UserService } from './service.js';

export const userRoutes =
  (deps: { users: UserService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { users } = deps;
    const tags = ['Profile'];

    app.get('/users/me', {
      schema: { tags, summary: 'Your profile', response: { 200: Ok(User), ...errorResponses(401) } },
      handler: async (request) => ({ success: true as const, data: await users.getProfile(authedCtxOf(request)) }),
    });

    app.patch('/users/me', {
      schema: {
        tags,
        summary: 'Edit your name or phone number',
        body: ProfilePatch,
        response: { 200: Ok(User), ...errorResponses(400, 401, 403) },
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
        response: { 204: NoContent, ...errorResponses(400, 401, 403) },
      },
      handler: async (request, reply) => {
        await users.changePassword(authedCtxOf(request), request.body);
        return reply.code(204).send(null);
      },
    });
  };
