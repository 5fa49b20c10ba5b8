import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import { createDb, type Db } from '../src/db/database.js';
import type { Database } from '../src/db/schema.js';
import {
  claimDueDeliveries,
  claimDueDeliveriesStatement,
  markDeliveriesSucceeded,
  type ClaimRequest,
} from '../src/events/delivery-repository.js';
import { readStreamStatement } from '../src/events/stream-repository.js';
import { fileDatabase } from './helpers/service.js';

/**
 * A dispatcher's claim costs the same over a backlog of any size, on the
 * statistics a queue really has: the last ANALYZE saw the table empty, then a
 * burst of orders arrived (autovacuum is off here so it cannot catch up
 * mid-test). The cost is counted in buffers the statement touches, under
 * EXPLAIN ANALYZE, which does not depend on the machine's speed. A claim whose
 * ordering check became an anti-join read every pending delivery of the
 * target for each candidate: 4.5 million buffers over 7,500 deliveries.
 */
const state = fileDatabase();
const TARGETS = 3;

interface PlanNode {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
}

/** Events with a PENDING delivery to every target each, as a receiver's outage leaves them (retries, and what waits behind them). */
async function addOrders(db: Db, from: number, count: number, eventsPerOrder: number) {
  // Each order's events share its ordering key; a later one waits for the earlier (placed before shipped).
  await sql`
    WITH e AS (
      INSERT INTO events (type, version, ordering_key, payload)
      SELECT 'order.placed', 1, 'order:ord_' || md5(o::text), '{}'::jsonb
      FROM generate_series(${from}::int, ${from + count - 1}::int) o, generate_series(1, ${eventsPerOrder}::int) n
      ORDER BY o, n
      RETURNING id, ordering_key
    )
    INSERT INTO event_deliveries (event_id, target_id, ordering_key)
    SELECT e.id, t.id, e.ordering_key FROM e CROSS JOIN event_targets t WHERE t.public_id LIKE 'whk_claim_cost_%'
    ORDER BY e.id, t.id`.execute(db);
}

/**
 * What a statement touched, in buffers, under EXPLAIN ANALYZE, and what `inspect` then reads in the
 * same transaction; it is rolled back, so each measurement starts from the same state.
 */
async function buffersOf<T>(
  db: Db,
  compiled: { sql: string; parameters: readonly unknown[] },
  inspect: (trx: Transaction<Database>) => Promise<T>,
): Promise<{ buffers: number; seen: T }> {
  let measured: { buffers: number; seen: T } | undefined;
  const undo = new Error('undo');
  await db
    .transaction()
    .execute(async (trx) => {
      const explained = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
      );
      const plan = explained.rows[0]!['QUERY PLAN'][0].Plan;
      measured = { buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'], seen: await inspect(trx) };
      throw undo;
    })
    .catch((error: unknown) => {
      if (error !== undo) throw error;
    });
  return measured!;
}

/** The claim's cost and what it took. */
async function claimCost(db: Db, request: ClaimRequest) {
  const { buffers, seen: claimed } = await buffersOf(db, claimDueDeliveriesStatement(request).compile(db), (trx) =>
    trx
      .selectFrom('event_deliveries')
      .select(['target_id', 'event_id', 'ordering_key'])
      .where('claim', '=', request.claim)
      .orderBy('event_id')
      .orderBy('target_id')
      .execute(),
  );
  return { buffers, claimed };
}

test('a claim over 7,500 pending deliveries costs what one over 750 does, on statistics taken when the queue was empty', async () => {
  const { db } = state;
  await sql`ALTER TABLE event_deliveries SET (autovacuum_enabled = false)`.execute(db);
  await sql`
    INSERT INTO event_targets (public_id, kind, event_types)
    SELECT 'whk_claim_cost_' || g, 'webhook', ARRAY['order.placed'] FROM generate_series(1, ${TARGETS}::int) g`.execute(db);
  await sql`ANALYZE event_deliveries`.execute(db);

  // An hour ahead: every delivery inserted below is due, however slow the machine or apart the clocks.
  const now = new Date(Date.now() + 3_600_000);
  const request = (): ClaimRequest => ({
    claim: randomUUID(),
    now,
    leaseEnd: new Date(now.getTime() + 60_000),
    // Nine: the first three unblocked events for each of the three targets (a tenth would be a tie the sort may break either way).
    limit: 9,
    perTarget: 10,
    busyTargets: [],
  });

  // Orders 1-100 have two events each (the second waits for the first); 150 more have one.
  await addOrders(db, 1, 100, 2);
  await addOrders(db, 101, 50, 1);
  const small = await claimCost(db, request());
  await addOrders(db, 151, 2_300, 1);
  const pending = await db
    .selectFrom('event_deliveries')
    .where('state', '=', 'PENDING')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(pending.n), (200 + 50 + 2_300) * TARGETS);
  const large = await claimCost(db, request());

  for (const { claimed } of [small, large]) {
    assert.equal(claimed.length, 9, 'a full claim');
    const perTarget = new Set(claimed.map((d) => `${d.target_id} ${d.ordering_key}`));
    assert.equal(perTarget.size, 9, "never an order's second event to a target beside its first");
  }
  assert.deepEqual(large.claimed, small.claimed, 'the oldest due deliveries, whatever came after them');
  assert.ok(
    large.buffers < small.buffers * 2,
    `a claim over ten times the backlog touched ${large.buffers} buffers against ${small.buffers}`,
  );
});

test('a read of the stream costs the same behind 50,000 events as behind 500, on statistics taken when the stream was empty', async () => {
  const { db } = state;
  await sql`ALTER TABLE event_stream SET (autovacuum_enabled = false)`.execute(db);
  const target = await db
    .insertInto('event_targets')
    .values({ public_id: 'whk_stream_cost', kind: 'webhook', event_types: ['product.updated'] })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`ANALYZE event_stream`.execute(db);
  // Events in the stream as the sequencer places them: every fifth one of a type the reader takes.
  const place = (from: number, count: number) =>
    sql`
    WITH e AS (
      INSERT INTO events (type, version, ordering_key, payload)
      SELECT CASE WHEN n % 5 = 0 THEN 'product.updated' ELSE 'cache.purge' END, 1, 'stream-cost:' || n, '{}'::jsonb
      FROM generate_series(${from}::int, ${from + count - 1}::int) n ORDER BY n
      RETURNING id, type
    )
    INSERT INTO event_stream (position, event_id, type)
    SELECT nextval('event_stream_position'), id, type FROM (SELECT id, type FROM e ORDER BY id) o`.execute(db);
  const start = (await sql<{ position: number }>`SELECT coalesce(max(position), 0)::int AS position FROM event_stream`.execute(db)).rows[0]!
    .position;
  const statement = readStreamStatement({ target_id: target.id, position: start, event_types: ['product.updated'] }, 50, 5_000);
  const read = async () => (await buffersOf(db, statement.compile(db), async () => null)).buffers;
  await place(1, 500);
  const small = await read();
  await place(501, 49_500);
  const large = await read();
  // Behind the larger stream a read may look at its whole window (STREAM_SCAN positions, about 40 pages of narrow rows), never
  // at an event it does not return: 1,500 and 15,000 buffers when the type was read from each event.
  assert.ok(large < small + 200, `a read behind a hundred times the stream touched ${large} buffers against ${small}`);
});

test('the claim and the mark are planned at each run: no connection keeps them as prepared statements', async () => {
  const db = createDb(state.database.url, 1);
  try {
    const now = new Date();
    await claimDueDeliveries(db, {
      claim: randomUUID(),
      now,
      leaseEnd: new Date(now.getTime() + 60_000),
      limit: 1,
      perTarget: 1,
      busyTargets: [],
    });
    const attempt = { attempts: 1, startedAt: now, status: 204, body: null, latencyMs: 1, error: null };
    await markDeliveriesSucceeded(db, [{ id: 0, attempt }]);
    await db.selectFrom('event_targets').select('id').where('id', '=', 0).execute();
    const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db);
    const texts = prepared.rows.map((row) => row.statement);
    assert.ok(
      texts.some((text) => text.includes('from "event_targets"')),
      'an ordinary statement is prepared (the check sees this connection)',
    );
    assert.ok(!texts.some((text) => text.includes('candidates AS')), 'the claim is not');
    assert.ok(!texts.some((text) => text.includes('event_deliveries d SET state')), 'the mark is not');
  } finally {
    await db.destroy();
  }
});
