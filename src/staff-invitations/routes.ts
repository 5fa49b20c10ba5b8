import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { setSessionCookie } from '../auth/cookies.js';
import { authedCtxOf, ctxOf } from '../auth/guard.js';
import { User } from '../identity/schemas.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import { Invitation, InvitationAccept, InvitationCreate, InvitationListQuery, InvitationPreview, InvitationTokenBody } from './schemas.js';
import type { StaffInvitations } from './service.js';

export const staffInvitationRoutes =
  (deps: { invitations: StaffInvitations; config: Config }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { invitations, config } = deps;
    const superAdmin = { access: 'super_admin' as const };
    const tags = ['Admin: staff'];
    const params = IdParam('invitation_public_id', 'inv');

    app.post('/admin/staff-invitations', {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Invite a person by email to become ADMIN or SUPER_ADMIN (replaces their open invitation)',
        body: InvitationCreate,
        response: { 201: Ok(Invitation), ...errorResponses('EMAIL_TAKEN', 'CONFLICT') },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await invitations.invite(authedCtxOf(request), request.body) }),
    });

    app.get('/admin/staff-invitations', {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Invitations, newest first, optionally in one state',
        querystring: InvitationListQuery,
        response: { 200: Page(Invitation), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await invitations.list(request.query)) }),
    });

    app.delete('/admin/staff-invitations/:invitation_public_id', {
      config: superAdmin,
      schema: {
        tags,
        summary: 'Revoke an invitation: its link stops working',
        params,
        response: { 204: NoContent, ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
      handler: async (request, reply) => {
        await invitations.revoke(authedCtxOf(request), request.params.invitation_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.post('/auth/staff-invitations/preview', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Who an invitation link is for, before accepting it',
        body: InvitationTokenBody,
        response: { 200: Ok(InvitationPreview), ...errorResponses('NOT_FOUND', 'TOKEN_EXPIRED') },
      },
      handler: async (request) => ({ success: true as const, data: await invitations.preview(request.body.token) }),
    });

    app.post('/auth/staff-invitations/accept', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Accept an invitation: creates the staff account with a name and password, and signs it in',
        body: InvitationAccept,
        response: { 201: Ok(User), ...errorResponses('NOT_FOUND', 'TOKEN_EXPIRED', 'EMAIL_TAKEN') },
      },
      handler: async (request, reply) => {
        const { user, session } = await invitations.accept(ctxOf(request), request.body);
        setSessionCookie(reply, config, session.token, session.expiresAt);
        return reply.code(201).send({ success: true as const, data: user });
      },
    });
  };
