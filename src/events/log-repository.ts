import type { Executor } from '../db/database.js';
import type { DeliveryState } from '../db/schema.js';
import type { PageRequest } from '../lib/pagination.js';
import { countOf, paged } from '../lib/sql.js';

/** The delivery log of a target: its deliveries newest first, with their event, filtered. */
export interface DeliveryFilters {
  state?: DeliveryState | undefined;
  type?: string | undefined;
  /** Events at or after (inclusive) and before (exclusive). */
  from?: Date | undefined;
  to?: Date | undefined;
}

const filtered = (db: Executor, targetId: number, f: DeliveryFilters) => {
  let base = db.selectFrom('event_deliveries as d').innerJoin('events as e', 'e.id', 'd.event_id').where('d.target_id', '=', targetId);
  if (f.state) base = base.where('d.state', '=', f.state);
  if (f.type) base = base.where('e.type', '=', f.type);
  if (f.from) base = base.where('d.created_at', '>=', f.from);
  if (f.to) base = base.where('d.created_at', '<', f.to);
  return base;
};

const COLUMNS = [
  'd.public_id',
  'd.state',
  'd.attempts',
  'd.next_attempt_at',
  'd.claim',
  'd.first_attempt_at',
  'd.last_attempt_at',
  'd.response_status',
  'd.response_body',
  'd.latency_ms',
  'd.last_error',
  'd.delivered_at',
  'd.created_at',
  'e.public_id as event_public_id',
  'e.type',
  'e.version',
] as const;

export function listDeliveries(db: Executor, targetId: number, filters: DeliveryFilters, page: PageRequest) {
  return filtered(db, targetId, filters)
    .select(COLUMNS)
    .select(countOf(filtered(db, targetId, filters)).as('total_count'))
    .orderBy('d.id', 'desc')
    .$call(paged(page))
    .execute();
}

export async function countDeliveries(db: Executor, targetId: number, filters: DeliveryFilters): Promise<number> {
  return (await countOf(filtered(db, targetId, filters)).executeTakeFirstOrThrow()).n;
}

export type DeliveryLogRow = Awaited<ReturnType<typeof listDeliveries>>[number];

/** One delivery of the target with its event's payload. */
export function findDelivery(db: Executor, targetId: number, publicId: string) {
  return db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(COLUMNS)
    .select(['e.payload', 'e.created_at as event_created_at'])
    .where('d.target_id', '=', targetId)
    .where('d.public_id', '=', publicId)
    .executeTakeFirst();
}
