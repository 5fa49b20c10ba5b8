import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';
import { batchesOf } from '../lib/batches.js';
import { type PageRequest } from '../lib/pagination.js';
import { countOf, paged } from '../lib/sql.js';
import type { AuditQuery } from './schemas.js';

/** SQL of the append-only `audit_log`, its one owner: entries are inserted (audit-log.ts) and read, never changed. */

/** An entry as written (`changes` as JSON text) and as read, with what its entity is called. */
export type NewAuditRow = Insertable<AuditLogTable>;
export type AuditRow = Selectable<AuditLogTable> & { entity_label: string | null };

export async function insertAuditEntry(db: Executor, row: NewAuditRow): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** Many entries, in order, a batch of rows per statement. */
export async function insertAuditEntries(db: Executor, rows: readonly NewAuditRow[]): Promise<void> {
  for (const batch of batchesOf(rows)) await db.insertInto('audit_log').values(batch).execute();
}

function filtered(db: Executor, query: AuditQuery) {
  let base = db.selectFrom('audit_log as a');
  if (query.actor)
    base = query.actor.startsWith('usr_')
      ? base.where('a.actor_public_id', '=', query.actor)
      : base.where('a.actor_email', '=', query.actor.toLowerCase());
  if (query.action) base = base.where('a.action', '=', query.action);
  if (query.entity_type) base = base.where('a.entity_type', '=', query.entity_type);
  if (query.entity_public_id) base = base.where('a.entity_public_id', '=', query.entity_public_id);
  if (query.from) base = base.where('a.created_at', '>=', new Date(query.from));
  if (query.to) base = base.where('a.created_at', '<', new Date(query.to));
  return base;
}

/**
 * What a person calls an entry's entity, read where it lives now (a soft-deleted row keeps its
 * name): an order's number, an account's or invitation's email, a variant's or stock record's
 * SKU, a product's or category's name, a coupon's code, a review's product. Each lookup is one
 * probe of a unique index, and only for the entries of the page.
 */
const entityLabel = sql<string | null>`CASE a.entity_type
  WHEN 'order' THEN (SELECT order_number FROM orders WHERE public_id = a.entity_public_id)
  WHEN 'user' THEN (SELECT email FROM users WHERE public_id = a.entity_public_id)
  WHEN 'variant' THEN (SELECT sku FROM variants WHERE public_id = a.entity_public_id)
  WHEN 'inventory' THEN (SELECT sku FROM variants WHERE public_id = a.entity_public_id)
  WHEN 'product' THEN (SELECT name FROM products WHERE public_id = a.entity_public_id)
  WHEN 'category' THEN (SELECT name FROM categories WHERE public_id = a.entity_public_id)
  WHEN 'coupon' THEN (SELECT code FROM coupons WHERE public_id = a.entity_public_id)
  WHEN 'review' THEN (SELECT p.name FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.public_id = a.entity_public_id)
  WHEN 'expense' THEN (SELECT description FROM expenses WHERE public_id = a.entity_public_id)
  WHEN 'staff_invitation' THEN (SELECT email FROM staff_invitations WHERE public_id = a.entity_public_id)
  WHEN 'webhook_endpoint' THEN (SELECT w.url FROM event_targets t JOIN webhook_endpoints w ON w.target_id = t.id WHERE t.public_id = a.entity_public_id)
END`;

/** A page of entries, newest first, each row with the filtered total as `total_count`. */
export function listAuditEntries(db: Executor, query: AuditQuery, page: PageRequest) {
  return filtered(db, query)
    .selectAll('a')
    .select([entityLabel.as('entity_label'), countOf(filtered(db, query)).as('total_count')])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .$call(paged(page))
    .execute();
}

export async function countAuditEntries(db: Executor, query: AuditQuery): Promise<number> {
  return (await countOf(filtered(db, query)).executeTakeFirstOrThrow()).n;
}

/**
 * Every filtered entry, newest first, in batches read by key (after the last entry of the batch
 * before), so an export of any size holds one batch at a time and no connection between batches.
 * Entries written while it runs are newer than where it started, and are not part of it.
 */
export async function* auditEntriesInBatches(db: Executor, query: AuditQuery, size = 1000): AsyncGenerator<AuditRow[]> {
  let after: { created_at: Date; id: number } | null = null;
  for (;;) {
    const cursor: { created_at: Date; id: number } | null = after;
    const rows: AuditRow[] = await filtered(db, query)
      .selectAll('a')
      .select(entityLabel.as('entity_label'))
      .$if(cursor !== null, (q) => q.where(sql<boolean>`(a.created_at, a.id) < (${cursor!.created_at}, ${cursor!.id})`))
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(size)
      .execute();
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
  }
}
