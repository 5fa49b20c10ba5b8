import type { Db } from '../db/database.js';
import { toPage, type PageRequest } from '../lib/pagination.js';
import type { AuditAction } from './actions.js';
import { auditEntriesInBatches, countAuditEntries, listAuditEntries, type AuditRow } from './repository.js';
import type { AuditEntry, AuditQuery } from './schemas.js';

/** Reading the append-only audit log (SUPER_ADMIN), newest first. */
export function createAuditService({ db }: { db: Db }) {
  const toEntry = (row: AuditRow): AuditEntry => ({
    public_id: row.public_id,
    actor:
      row.actor_public_id && row.actor_email && row.actor_role
        ? { public_id: row.actor_public_id, email: row.actor_email, role: row.actor_role }
        : null,
    action: row.action as AuditAction,
    entity_type: row.entity_type as AuditEntry['entity_type'],
    entity_public_id: row.entity_public_id,
    entity_label: row.entity_label,
    changes: row.changes ?? null,
    reason: row.reason,
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
    created_at: row.created_at.toISOString(),
  });

  return {
    async list(query: AuditQuery, page: PageRequest) {
      const rows = await listAuditEntries(db, query, page);
      return toPage(rows, page, () => countAuditEntries(db, query), toEntry);
    },

    /** The whole filtered log, newest first, a batch at a time (for the CSV export). */
    async *all(query: AuditQuery): AsyncGenerator<AuditEntry[]> {
      for await (const rows of auditEntriesInBatches(db, query)) yield rows.map(toEntry);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
