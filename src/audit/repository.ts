import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';
import { type PageRequest } from '../lib/pagination.js';
import { countOf, paged } from '../lib/sql.js';
import type { AuditQuery } from './schemas.js';

/** SQL of the append-only `audit_log`, its one owner: entries are inserted (audit-log.ts) and read, never changed. */

/** An entry as written (`changes` as JSON text) and as read. */
export type NewAuditRow = Insertable<AuditLogTable>;
export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditEntry(db: Executor, row: NewAuditRow): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

function filtered(db: Executor, query: AuditQuery) {
  let base = db.selectFrom('audit_log');
  if (query.actor)
    base = query.actor.startsWith('usr_')
      ? base.where('actor_public_id', '=', query.actor)
      : base.where('actor_email', '=', query.actor.toLowerCase());
  if (query.action) base = base.where('action', '=', query.action);
  if (query.entity_type) base = base.where('entity_type', '=', query.entity_type);
  if (query.entity_public_id) base = base.where('entity_public_id', '=', query.entity_public_id);
  if (query.from) base = base.where('created_at', '>=', new Date(query.from));
  if (query.to) base = base.where('created_at', '<', new Date(query.to));
  return base;
}

/** A page of entries, newest first, each row with the filtered total as `total_count`. */
export function listAuditEntries(db: Executor, query: AuditQuery, page: PageRequest) {
  return filtered(db, query)
    .selectAll()
    .select(countOf(filtered(db, query)).as('total_count'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .$call(paged(page))
    .execute();
}

export async function countAuditEntries(db: Executor, query: AuditQuery): Promise<number> {
  return (await countOf(filtered(db, query)).executeTakeFirstOrThrow()).n;
}
