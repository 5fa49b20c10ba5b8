import type { Executor } from '../db/database.js';
import type { TargetStatus } from '../db/schema.js';
import { eventsWaiting } from '../events/stream-repository.js';
import type { PageRequest } from '../lib/pagination.js';
import { countOf, paged } from '../lib/sql.js';

/**
 * SQL of `webhook_endpoints`, their one owner: the URL and signing secrets of
 * a webhook target. What a target subscribes to and whether it runs is the
 * event stream's (`event_targets`, src/events/), read here with it.
 */

export async function insertEndpoint(db: Executor, endpoint: { targetId: number; url: string; description: string; secret: string }) {
  await db
    .insertInto('webhook_endpoints')
    .values({ target_id: endpoint.targetId, url: endpoint.url, description: endpoint.description, secret: endpoint.secret })
    .execute();
}

export async function updateEndpoint(db: Executor, targetId: number, changes: { url?: string; description?: string }): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('webhook_endpoints').set(changes).where('target_id', '=', targetId).execute();
}

/**
 * A new secret; the one it replaces keeps signing until `previousUntil`
 * (null: it stops at once). A rotation during an overlap ends the older one.
 */
export async function rotateSecret(db: Executor, targetId: number, secret: string, previousUntil: Date | null): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret: previousUntil ? eb.ref('secret') : null,
      previous_secret_expires_at: previousUntil,
      secret,
    }))
    .where('target_id', '=', targetId)
    .execute();
}

const endpoints = (db: Executor) =>
  db
    .selectFrom('event_targets as t')
    .innerJoin('webhook_endpoints as w', 'w.target_id', 't.id')
    .where('t.kind', '=', 'webhook')
    .where('t.deleted_at', 'is', null);

const COLUMNS = [
  't.id',
  't.public_id',
  't.event_types',
  't.status',
  't.paused_reason',
  't.paused_at',
  't.failing_since',
  't.created_at',
  't.updated_at',
  'w.url',
  'w.description',
  'w.previous_secret_expires_at',
] as const;

export function findEndpoint(db: Executor, publicId: string) {
  return endpoints(db).select(COLUMNS).select(eventsWaiting().as('events_waiting')).where('t.public_id', '=', publicId).executeTakeFirst();
}

export type EndpointRow = NonNullable<Awaited<ReturnType<typeof findEndpoint>>>;

const filtered = (db: Executor, status: TargetStatus | undefined) =>
  status ? endpoints(db).where('t.status', '=', status) : endpoints(db);

/** Live endpoints, newest first. */
export function listEndpoints(db: Executor, status: TargetStatus | undefined, page: PageRequest) {
  return filtered(db, status)
    .select(COLUMNS)
    .select(eventsWaiting().as('events_waiting'))
    .select(countOf(filtered(db, status)).as('total_count'))
    .orderBy('t.created_at', 'desc')
    .orderBy('t.public_id', 'desc')
    .$call(paged(page))
    .execute();
}

export async function countEndpoints(db: Executor, status: TargetStatus | undefined): Promise<number> {
  return (await countOf(filtered(db, status)).executeTakeFirstOrThrow()).n;
}

/** What signing and sending to these targets needs. */
export function endpointDestinations(db: Executor, targetIds: number[]) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['target_id', 'url', 'secret', 'previous_secret', 'previous_secret_expires_at'])
    .where('target_id', 'in', targetIds)
    .execute();
}
