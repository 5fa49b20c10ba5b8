import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdParam, Ok, Page, errorResponses } from '../lib/schemas.js';
import { User } from '../identity/schemas.js';
import { AccountExportQuery, AdminUserDetail, AdminUserListQuery, RoleChange } from './schemas.js';
import { ACCOUNT_CSV_COLUMNS } from './export-repository.js';
import { sendCsvStream } from '../lib/csv.js';
import { Type } from 'typebox';
import type { AdminUserService } from './service.js';

export const adminUserRoutes =
  (deps: { adminUsers: AdminUserService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { adminUsers } = deps;
    const tags = ['Admin: users'];
    const params = IdParam('user_public_id', 'usr');
    const admin = { access: 'admin' as const };

    app.get('/admin/users', {
      config: admin,
      schema: { tags, summary: 'List accounts', querystring: AdminUserListQuery, response: { 200: Page(User), ...errorResponses() } },
      handler: async (request) => ({ success: true as const, ...(await adminUsers.list(request.query)) }),
    });

    app.get('/admin/exports/accounts', {
      config: { ...admin, csvOnly: true },
      schema: {
        tags,
        summary: 'Every account (optionally of one role or status) with its order count and spend as CSV, oldest first, streamed',
        querystring: AccountExportQuery,
        response: { 200: Type.String(), ...errorResponses() },
      },
      handler: async (request, reply) => {
        const { total, batches } = await adminUsers.export(authedCtxOf(request), request.query);
        return sendCsvStream(reply, 'accounts.csv', ACCOUNT_CSV_COLUMNS, batches, total);
      },
    });

    app.get('/admin/users/:user_public_id', {
      config: admin,
      schema: {
        tags,
        summary: 'An account with its order count and lifetime spend',
        params,
        response: { 200: Ok(AdminUserDetail), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, data: await adminUsers.get(request.params.user_public_id) }),
    });

    app.post('/admin/users/:user_public_id/suspend', {
      config: admin,
      schema: {
        tags,
        summary: 'Suspend an account: its sessions end at once and it cannot log in',
        description: 'An ADMIN may act on customers only; a SUPER_ADMIN also on admins. Not on yourself (400).',
        params,
        response: { 200: Ok(User), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await adminUsers.suspend(authedCtxOf(request), request.params.user_public_id),
      }),
    });

    app.post('/admin/users/:user_public_id/activate', {
      config: admin,
      schema: { tags, summary: 'Reactivate a suspended account', params, response: { 200: Ok(User), ...errorResponses('NOT_FOUND') } },
      handler: async (request) => ({
        success: true as const,
        data: await adminUsers.activate(authedCtxOf(request), request.params.user_public_id),
      }),
    });

    app.patch('/admin/users/:user_public_id/role', {
      config: { access: 'super_admin' },
      schema: {
        tags,
        summary: "Change an account's role (SUPER_ADMIN only); the target's sessions are revoked",
        description:
          'Not on yourself (400). The last SUPER_ADMIN cannot be demoted (409 LAST_SUPER_ADMIN). A customer becomes staff only once ' +
          'its email address is verified (409 EMAIL_NOT_VERIFIED): anyone can register an address they do not own. Demoting a ' +
          'SUPER_ADMIN revokes the staff invitations they sent and have not been accepted.',
        params,
        body: RoleChange,
        response: { 200: Ok(User), ...errorResponses('NOT_FOUND', 'LAST_SUPER_ADMIN', 'EMAIL_NOT_VERIFIED') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await adminUsers.changeRole(authedCtxOf(request), request.params.user_public_id, request.body.role),
      }),
    });
  };
