import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendCsvStream, wantsCsv } from '../lib/csv.js';
import { Page, errorResponses } from '../lib/schemas.js';
import { AuditEntry, AuditQuery } from './schemas.js';
import type { AuditService } from './service.js';

const CSV_COLUMNS = [
  'public_id',
  'created_at',
  'actor_public_id',
  'actor_email',
  'actor_role',
  'action',
  'entity_type',
  'entity_public_id',
  'entity_label',
  'reason',
  'ip',
  'request_id',
  'changes',
];

async function* csvRows(entries: AsyncIterable<AuditEntry[]>) {
  for await (const batch of entries) {
    yield batch.map((e) => ({ ...e, actor_public_id: e.actor?.public_id, actor_email: e.actor?.email, actor_role: e.actor?.role }));
  }
}

export const auditRoutes =
  (deps: { audit: AuditService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/admin/audit', {
      config: { access: 'super_admin' },
      schema: {
        tags: ['Admin: audit'],
        summary: 'The audit log, newest first (append-only: no endpoint edits or deletes entries)',
        description: 'With ?format=csv or Accept: text/csv, the whole filtered log as CSV, streamed (page and limit do not apply).',
        querystring: AuditQuery,
        response: { 200: Page(AuditEntry), ...errorResponses() },
      },
      handler: async (request, reply) => {
        if (wantsCsv(request)) return sendCsvStream(reply, 'audit-log.csv', CSV_COLUMNS, csvRows(deps.audit.all(request.query)));
        return { success: true as const, ...(await deps.audit.list(request.query, request.query)) };
      },
    });
  };
