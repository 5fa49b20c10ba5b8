import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../db/database.js';
import { batchesOf } from '../lib/batches.js';
import { EVENT_CATALOG, type EventData, type EventType } from './catalog.js';

/**
 * SQL of `events`, their one owner. An event is written in the transaction of
 * the change it reports, so a committed change always has its event and a
 * rolled-back one never does; the insert's own trigger (`queue_events`,
 * migration 0024) puts it in the stream's inbox in the same statement when a
 * live target subscribes to its type. Stock status events come from the inventory trigger of
 * the same migration.
 */

/**
 * Records one event; `targetId` sends it to that target only (a test event:
 * the insert's trigger writes its PENDING delivery, the stream carries only
 * events for every subscriber). Returns its public ID.
 */
export async function recordEvent<T extends EventType>(
  db: Executor,
  type: T,
  orderingKey: string,
  data: EventData<T>,
  targetId: number | null = null,
): Promise<string> {
  const row = await db
    .insertInto('events')
    .values({ type, version: EVENT_CATALOG[type].version, ordering_key: orderingKey, payload: JSON.stringify(data), target_id: targetId })
    .returning('public_id')
    .executeTakeFirstOrThrow();
  return row.public_id;
}

/** Many events of one type, each with its ordering key, in order, a batch of rows per statement. */
export async function recordEvents<T extends EventType>(
  db: Executor,
  type: T,
  events: readonly { orderingKey: string; data: EventData<T> }[],
): Promise<void> {
  for (const batch of batchesOf(events)) {
    await db
      .insertInto('events')
      .values(
        batch.map((e) => ({
          type,
          version: EVENT_CATALOG[type].version,
          ordering_key: e.orderingKey,
          payload: JSON.stringify(e.data),
          target_id: null,
        })),
      )
      .execute();
  }
}

/** An event's data whose top-level fields are values, or (for one object field) values with fields SQL computes. */
export type DataSource<D> = { [F in keyof D]: D[F] | ComputedObject<D[F]> };

/** An object field of the payload: what is known as values, plus the fields that SQL computes over the row source. */
export interface ComputedObject<O> {
  readonly values: Partial<O>;
  readonly computed: { readonly [F in keyof O]?: RawBuilder<O[F]> };
}

/** Marks an object field as partly computed in SQL (order_number and placed_at of an order that is being inserted). */
export const computedObject = <O>(values: Partial<O>, computed: ComputedObject<O>['computed']): ComputedObject<O> => ({ values, computed });

const isComputed = (value: unknown): value is ComputedObject<unknown> =>
  typeof value === 'object' && value !== null && 'computed' in value && 'values' in value;

function jsonOf(source: Record<string, unknown>): RawBuilder<unknown> {
  const entries = Object.entries(source);
  const plain = Object.fromEntries(entries.filter(([, value]) => !isComputed(value)));
  const objects = entries.flatMap(([key, value]) => {
    if (!isComputed(value)) return [];
    const computed = Object.entries(value.computed as Record<string, RawBuilder<unknown>>);
    const fields = sql.join(computed.map(([field, expression]) => sql`${field}::text, ${expression}`));
    return [sql`jsonb_build_object(${key}::text, ${JSON.stringify(value.values)}::jsonb || jsonb_build_object(${fields}))`];
  });
  return sql.join([sql`${JSON.stringify(plain)}::jsonb`, ...objects], sql` || `);
}

/**
 * recordEvent as one part of the caller's own statement (a data-modifying
 * CTE, so the event costs no round trip of its own): one event per row of
 * `from`, its data given as values or SQL over that row (a number the same
 * statement generates). Typed by event type like recordEvent.
 */
export function eventFrom<T extends EventType>(type: T, orderingKey: string, data: DataSource<EventData<T>>, from: RawBuilder<unknown>) {
  return sql`INSERT INTO events (type, version, ordering_key, payload)
    SELECT ${type}, ${EVENT_CATALOG[type].version}::smallint, ${orderingKey}, ${jsonOf(data as Record<string, unknown>)} FROM ${from}`;
}

/** A timestamp column in the form the API writes them (ISO 8601 UTC, milliseconds, `Z`). */
export const isoTimestamp = (column: RawBuilder<unknown>) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Events and deliveries are kept for a while for the log and redelivery, then deleted in batches, oldest first. */
export async function deleteOldEvents(db: Executor, createdBefore: Date, batchSize: number): Promise<number> {
  const result = await db
    .deleteFrom('events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('events as e')
        .select('e.id')
        .where('e.created_at', '<', createdBefore)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('event_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))),
        )
        // Not yet read by every live target: still in the inbox, or in the stream.
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('event_inbox as i').select('i.event_id').whereRef('i.event_id', '=', 'e.id'))),
        )
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('event_stream as s').select('s.event_id').whereRef('s.event_id', '=', 'e.id'))),
        )
        .orderBy('e.created_at')
        .limit(batchSize),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
