import type { Db } from '../db/database.js';
import { paged, toPage, type PageRequest, countOf, totalOf } from '../lib/pagination.js';
import type { AuditEntry, AuditQuery } from './schemas.js';

/** Reading the append-only audit log (SUPER_ADMIN), newest first. */
export function createAuditService({ db }: { db: Db }) {
  function filtered(query: AuditQuery) {
    let base = db.selectFrom('audit_log');
    if (query.actor) base = query.actor.startsWith('usr_') ? base.where('actor_public_id', '=', query.actor) : base.where('actor_email', '=', query.actor.toLowerCase());
    if (query.action) base = base.where('action', '=', query.action);
    if (query.entity_type) base = base.where('entity_type', '=', query.entity_type);
    if (query.entity_public_id) base = base.where('entity_public_id', '=', query.entity_public_id);
    if (query.from) base = base.where('created_at', '>=', new Date(query.from));
    if (query.to) base = base.where('created_at', '<', new Date(query.to));
    return base;
  }

  const toEntry = (row: {
    public_id: string;
    actor_public_id: string | null;
    actor_email: string | null;
    actor_role: string | null;
    action: string;
    entity_type: string;
    entity_public_id: string | null;
    changes: unknown;
    reason: string | null;
    ip: string | null;
    user_agent: string | null;
    request_id: string | null;
    created_at: Date;
  }): AuditEntry => ({
    public_id: row.public_id,
    actor: row.actor_public_id && row.actor_email && row.actor_role ? { public_id: row.actor_public_id, email: row.actor_email, role: row.actor_role } : null,
    action: row.action,
    entity_type: row.entity_type,
    entity_public_id: row.entity_public_id,
    changes: row.changes ?? null,
    reason: row.reason,
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
    created_at: row.created_at.toISOString(),
  });

  return {
    async list(query: AuditQuery, page: PageRequest) {
      const base = filtered(query);
      const rows = await base
        .selectAll()
        .select(countOf(base).as('total_count'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .$call(paged(page))
        .execute();
      return toPage(rows, page, totalOf(base), toEntry);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
