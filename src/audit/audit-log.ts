import type { Executor } from '../db/database.js';
import type { Ctx } from '../lib/context.js';
import { newPublicId } from '../lib/ids.js';
import type { AuditAction } from './actions.js';
import type { AuditEntityTypeName } from './schemas.js';
import { insertAuditEntries, insertAuditEntry, type NewAuditRow } from './repository.js';

/**
 * Appends one audit entry. Always called with the transaction that makes the
 * change, so the entry exists exactly when the change does. Never pass
 * secrets or hashes in `changes`.
 */
export interface AuditEntry {
  action: AuditAction;
  entityType: AuditEntityTypeName;
  entityPublicId: string | null;
  changes?: { before?: unknown; after?: unknown } | null;
  reason?: string | null;
  /** Overrides the context's actor, e.g. a failed login by a known account. */
  actor?: { userId: number; publicId: string; email: string; role: string } | null;
}

export async function writeAudit(db: Executor, ctx: Ctx, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, auditRow(ctx, entry));
}

/**
 * A bulk export of the shop's data (every customer's email and spend, every order): who took it, with
 * which filters, and how many rows, as a data protection officer would ask.
 */
export function auditExport(db: Executor, ctx: Ctx, what: 'accounts' | 'orders' | 'products', filters: object, rows: number) {
  return writeAudit(db, ctx, {
    action: 'data.export',
    entityType: 'export',
    entityPublicId: null,
    changes: { before: null, after: { export: what, filters, rows } },
  });
}

/** Many entries made by one request (a catalog import), in order, in as few statements as they fit. */
export async function writeAudits(db: Executor, ctx: Ctx, entries: readonly AuditEntry[]): Promise<void> {
  await insertAuditEntries(
    db,
    entries.map((entry) => auditRow(ctx, entry)),
  );
}

function auditRow(ctx: Ctx, entry: AuditEntry): NewAuditRow {
  const actor = entry.actor !== undefined ? entry.actor : ctx.actor;
  return {
    public_id: newPublicId('aud'),
    actor_user_id: actor?.userId ?? null,
    actor_public_id: actor?.publicId ?? null,
    actor_email: actor?.email ?? null,
    actor_role: actor?.role ?? null,
    action: entry.action,
    entity_type: entry.entityType,
    entity_public_id: entry.entityPublicId,
    changes: entry.changes ? JSON.stringify(entry.changes) : null,
    reason: entry.reason ?? null,
    ip: ctx.meta.ip,
    user_agent: ctx.meta.userAgent,
    request_id: ctx.meta.requestId,
  };
}
