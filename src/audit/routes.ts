import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendCsv, toCsv, wantsCsv } from '../lib/csv.js';
import { Page, errorResponses } from '../lib/schemas.js';
import { AuditEntry, AuditQuery } from './schemas.js';
import type { AuditService } from './service.js';

export const auditRoutes =
  (deps: { audit: AuditService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/admin/audit', {
      config: { access: 'super_admin' },
      schema: {
        tags: ['Admin: audit'],
        summary: 'The audit log, newest first (append-only: no endpoint edits or deletes entries)',
        description: 'CSV with ?format=csv or Accept: text/csv (the requested page, same filters).',
        querystring: AuditQuery,
        response: { 200: Page(AuditEntry), ...errorResponses() },
      },
      handler: async (request, reply) => {
        const page = await deps.audit.list(request.query, request.query);
        if (wantsCsv(request)) {
          const columns = [
            'public_id',
            'created_at',
            'actor_public_id',
            'actor_email',
            'actor_role',
            'action',
            'entity_type',
            'entity_public_id',
            'reason',
            'ip',
            'request_id',
            'changes',
          ];
          const rows = page.data.map((e) => ({
            ...e,
            actor_public_id: e.actor?.public_id,
            actor_email: e.actor?.email,
            actor_role: e.actor?.role,
          }));
          return sendCsv(reply, 'audit-log.csv', toCsv(columns, rows));
        }
        return { success: true as const, ...page };
      },
    });
  };
