import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Trx } from '../db/database.js';
import type { TargetKind } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { backgroundLoop } from '../lib/background-loop.js';
import { groupedBy } from '../lib/batches.js';
import type { Clock } from '../lib/clock.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import {
  claimDueDeliveries,
  insertFirstDeliveries,
  markDeliveriesSucceeded,
  pendingOrderingKeys,
  recordDeliveryFailure,
  releaseTargetClaim,
  type AttemptRecord,
  type ClaimedDelivery,
  type FirstDelivery,
} from './delivery-repository.js';
import { nextAttemptAt, type RetryPolicy } from './retry.js';
import {
  advanceCursor,
  claimCursors,
  readStream,
  inboxWaiting,
  releaseCursor,
  SEQUENCE_BATCH,
  sequenceEvents,
  type ClaimedCursor,
  type StreamEvent,
} from './stream-repository.js';
import { clearTargetFailing, markTargetFailing, pauseFailingTarget } from './target-repository.js';

/**
 * Delivers the event stream to its targets, at least once, in the order of
 * their events per target and ordering key. Any number of dispatchers, in
 * any number of processes, share the work, with no transaction open while
 * sending:
 *
 * - Each run first places the inbox's new events in the stream (one
 *   sequencer at a time), then leases the cursors of active targets with
 *   events to read (one dispatcher per target at a time), reads the next
 *   events of each and sends them: one ordering key's events one after the
 *   other, different keys in parallel. A batch's outcome is written in one
 *   transaction with the cursor's move, a delivery row per event (the log);
 *   a failure becomes a PENDING row with its next attempt, and the later
 *   events of its ordering key PENDING rows that wait behind it. A dead
 *   dispatcher's lease ends and the batch is read again (same webhook-id).
 * - PENDING rows (retries, what waits behind them, redeliveries) are claimed
 *   in one short statement (FOR UPDATE SKIP LOCKED) under a lease longer than
 *   any attempt can take, the earliest of each ordering key only.
 *
 * The next claim leaves out the targets still being sent to here, so a slow
 * or hanging receiver holds up only its own deliveries, for at most one
 * attempt's timeout. A target failing without a success for `pauseAfterMs`
 * is paused in the same transaction as the failure that showed it, its kind
 * told (an email to the super admins for webhooks).
 *
 * A backlog is worked off as fast as receivers answer (a full share or batch
 * is followed by the next claim at once), except while `busy` says the
 * process's API needs the machine: then one claim per poll interval, so at
 * a saturated instance's peak the shoppers get the cores and deliveries wait
 * (bench/NOTES.md), except an urgent kind's (cache purges), claimed as
 * before; a dispatcher in `npm run worker` is never busy.
 *
 * What a delivery means for a kind of target (an HTTP POST for a webhook) is
 * the kind's business (DeliveryKind); this file knows none of it.
 */

/** An event as it goes out: the envelope of src/events/catalog.ts. */
export interface OutgoingEvent {
  id: string;
  type: string;
  version: number;
  timestamp: string;
  data: unknown;
}

/** What one attempt found out. A receiver's failure is an outcome, never a thrown error. */
export interface Outcome {
  ok: boolean;
  /** The receiver's answer (HTTP status and the first bytes of its body), when there was one. */
  status: number | null;
  body: string | null;
  /** Why it failed, for the log (never a secret). */
  error: string | null;
}

export interface DeliveryKind<Destination = unknown> {
  /** What sending to these targets needs (an address, secrets), read once per batch; a missing target is left out. */
  load(targetIds: number[]): Promise<Map<number, Destination>>;
  send(destination: Destination, event: OutgoingEvent): Promise<Outcome>;
  /** Told, in the pausing transaction, that a target was paused for failing since `failingSince`. */
  paused(trx: Trx, target: { id: number; publicId: string; failingSince: Date }): Promise<void>;
  /** This kind's own retries and pausing, instead of the dispatcher's (a cache must hear of a change within seconds, and is never paused). */
  readonly policy?: { retry: RetryPolicy; pauseAfterMs: number | null };
  /** Told of each delivery that succeeded, with the time of its event (for metrics). */
  delivered?(eventAt: Date): void;
  /** Sent at once even while the API is busy (a cache must hear of a change within a second); others wait for the next poll. */
  readonly urgent?: boolean;
}

export interface DispatcherDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  kinds: Record<TargetKind, DeliveryKind<unknown>>;
  pollIntervalMs: number;
  /** How long a claim hides its deliveries; longer than any attempt (config checks it). */
  leaseMs: number;
  retry: RetryPolicy;
  /** A target failing without a success this long is paused (null: never). */
  pauseAfterMs: number | null;
  /**
   * Whether the process's other work (the API) needs the machine now: while it does, the dispatcher
   * claims once per poll interval instead of again at once when more is due. Absent: never.
   */
  busy?: () => boolean;
}

/** At most this many deliveries per claim, and per target (sent in parallel). */
export const BATCH = 100;
export const PER_TARGET = 10;
/** Events read from a target's stream per lease (PER_TARGET at a time), and how far ahead a read looks for the target's types. */
export const STREAM_BATCH = 50;
export const STREAM_SCAN = 5_000;

export function createEventDispatcher(deps: DispatcherDeps) {
  const { db, clock, log } = deps;
  const busy = deps.busy ?? (() => false);
  const urgentKinds = (Object.keys(deps.kinds) as TargetKind[]).filter((kind) => deps.kinds[kind].urgent);
  /** When the last claim open to every kind was made (performance.now()): while busy, one per poll interval. */
  let lastOpenClaim = -Infinity;
  /** Whether the last claim took a full batch of PENDING deliveries: more may be due, so the loop goes again at once. */
  let lastBatchFull = false;
  /** Each target's share of a batch being sent by this dispatcher. */
  const inFlight = new Map<number, Promise<void>>();
  const kindOf = (name: string) => deps.kinds[name as TargetKind] as DeliveryKind<unknown> | undefined;
  const policyOf = (name: string) => kindOf(name)?.policy ?? deps;

  /** Claims what is due and starts sending it; `yielding` lets a busy API hold back all but urgent kinds (the loop's claims). */
  async function runOnce({ yielding = false } = {}): Promise<number> {
    // While the API is busy, a claim within a poll interval of the last open one takes only urgent kinds.
    const paced = yielding && busy() && performance.now() - lastOpenClaim < deps.pollIntervalMs;
    if (paced && urgentKinds.length === 0) {
      lastBatchFull = false;
      return 0;
    }
    if (!paced) lastOpenClaim = performance.now();
    const placed = await sequenceEvents(db, SEQUENCE_BATCH);
    const claim = randomUUID();
    const now = clock.now();
    const leaseEnd = new Date(now.getTime() + deps.leaseMs);
    const kinds = paced ? { kinds: urgentKinds } : {};
    const batch = await claimDueDeliveries(db, {
      claim,
      now,
      leaseEnd,
      limit: BATCH,
      perTarget: PER_TARGET,
      busyTargets: [...inFlight.keys()],
      ...kinds,
    });
    for (const [targetId, deliveries] of groupedBy(batch, (delivery) => delivery.target_id)) {
      // A full share means more may be waiting for this target.
      const full = deliveries.length === PER_TARGET;
      track(
        targetId,
        deliveries[0]!.kind,
        sendShare(claim, deliveries, leaseEnd),
        () => full,
        () => releaseTargetClaim(db, targetId, claim, clock.now()),
      );
    }
    const cursors = await claimCursors(db, {
      claim,
      now,
      leaseEnd,
      limit: BATCH / PER_TARGET,
      busyTargets: [...inFlight.keys()],
      ...kinds,
    });
    for (const cursor of cursors) {
      const more = { full: false };
      track(
        cursor.target_id,
        cursor.kind,
        sendFromStream(claim, cursor, leaseEnd, more),
        () => more.full,
        () => releaseCursor(db, cursor.target_id, claim),
      );
    }
    if (placed === SEQUENCE_BATCH && !paced) loop.nudge();
    lastBatchFull = batch.length === BATCH;
    return batch.length + cursors.length;
  }

  /** Keeps a target's share in flight until it settles; then, when it was full, goes again (left to the next poll while busy, unless urgent). */
  function track(targetId: number, kind: string, work: Promise<void>, full: () => boolean, handBack: () => Promise<void>) {
    const tracked = work
      .catch(async (error: unknown) => {
        log.error({ err: error, target_id: targetId }, 'event delivery batch failed; its deliveries are handed back');
        await handBack().catch(() => {});
      })
      .finally(() => {
        inFlight.delete(targetId);
        if (full() && (!busy() || kindOf(kind)?.urgent)) loop.nudge();
      });
    inFlight.set(targetId, tracked);
  }

  /** One attempt at one delivery, as the log records it. */
  async function attempt(
    kind: DeliveryKind<unknown> | undefined,
    destination: unknown,
    target: { kind: string; public_id: string },
    event: OutgoingEvent,
    attemptsBefore: number,
  ): Promise<AttemptRecord & { ok: boolean }> {
    const startedAt = clock.now();
    const started = performance.now();
    const outcome: Outcome =
      kind && destination !== undefined
        ? await kind.send(destination, event)
        : { ok: false, status: null, body: null, error: `no ${target.kind} target ${target.public_id}` };
    return {
      ok: outcome.ok,
      attempts: attemptsBefore + 1,
      startedAt,
      status: outcome.status,
      body: outcome.body,
      latencyMs: Math.round(performance.now() - started),
      error: outcome.error,
    };
  }

  /**
   * A target's next events from the stream: each ordering key's events in
   * order (a failure holds back the rest of its key, as does a delivery of
   * the key still PENDING), keys in parallel, PER_TARGET at a time; then the
   * outcome and the cursor's move in one transaction.
   */
  async function sendFromStream(claim: string, cursor: ClaimedCursor, leaseEnd: Date, more: { full: boolean }): Promise<void> {
    // While the API is busy, a lease takes what a claim of PENDING deliveries would (the rest waits for the load to fall).
    const limit = busy() ? PER_TARGET : STREAM_BATCH;
    const { events, reached } = await readStream(db, cursor, limit, STREAM_SCAN);
    more.full = events.length === limit || reached === cursor.position + STREAM_SCAN;
    const kind = kindOf(cursor.kind);
    const destination = events.length > 0 && kind ? (await kind.load([cursor.target_id])).get(cursor.target_id) : undefined;
    const byKey = groupedBy(events, (event) => event.ordering_key);
    const waiting = await pendingOrderingKeys(db, cursor.target_id, [...byKey.keys()]);
    const written: FirstDelivery[] = [];
    const groups = [...byKey.entries()];
    // An attempt started before half the lease (less a margin for the record) is over ends before the lease does
    // (config: a lease is at least two attempts).
    const lastStart = leaseEnd.getTime() - deps.leaseMs / 2 - Math.min(1_000, deps.leaseMs / 10);
    const sendGroup = async ([key, group]: [string, StreamEvent[]]) => {
      let held = waiting.has(key);
      for (const event of group) {
        const first = { eventId: event.id, orderingKey: key, eventCreatedAt: event.created_at };
        // Held back, or out of time (slow receivers): a PENDING row, sent in order by the claims of PENDING deliveries.
        if (held || clock.now().getTime() > lastStart) {
          written.push(first);
          continue;
        }
        const record = await attempt(kind, destination, { kind: cursor.kind, public_id: cursor.target_public_id }, envelope(event), 0);
        if (record.ok) {
          kind?.delivered?.(event.created_at);
          written.push({ ...first, attempt: record });
        } else {
          const retryAt = retryTime(1, record.startedAt, cursor);
          written.push({ ...first, attempt: record, retryAt });
          logFailure(null, event.public_id, record, retryAt);
          held = true;
        }
      }
    };
    const workers = Array.from({ length: Math.min(PER_TARGET, groups.length) }, async () => {
      for (let next = groups.shift(); next; next = groups.shift()) await sendGroup(next);
    });
    await Promise.all(workers);
    await whileLeaseLasts(leaseEnd, () =>
      transaction(db, async (trx) => {
        // A lost lease: another dispatcher reads these events again (at least once, the same webhook-id).
        if (!(await advanceCursor(trx, cursor.target_id, claim, reached))) return;
        const now = clock.now();
        await insertFirstDeliveries(trx, cursor.target_id, written, now);
        if (written.some((d) => d.attempt && !d.attempt.ok)) await noteFailure(trx, cursor, now);
        else if (cursor.failing_since && written.some((d) => d.attempt?.ok)) await clearTargetFailing(trx, cursor.target_id);
      }),
    );
  }

  /**
   * One target's PENDING deliveries of a claim: sent in parallel, successes marked together, failures one
   * by one. Every send settles before anything is recorded as a whole or handed back: a failure record
   * that throws must not hand back (to be claimed and sent again) deliveries whose attempt is still open.
   */
  async function sendShare(claim: string, deliveries: ClaimedDelivery[], leaseEnd: Date): Promise<void> {
    const first = deliveries[0]!;
    const kind = kindOf(first.kind);
    const destination = kind ? (await kind.load([first.target_id])).get(first.target_id) : undefined;
    const succeeded: { id: number; attempt: AttemptRecord }[] = [];
    const outcomes = await Promise.allSettled(
      deliveries.map(async (delivery) => {
        const record = await attempt(
          kind,
          destination,
          { kind: first.kind, public_id: first.target_public_id },
          envelope(delivery),
          delivery.attempts,
        );
        if (record.ok) {
          succeeded.push({ id: delivery.id, attempt: record });
          kind?.delivered?.(delivery.event_created_at);
        } else await recordFailure(claim, delivery, record, leaseEnd);
      }),
    );
    if (succeeded.length > 0) {
      await whileLeaseLasts(leaseEnd, () => markDeliveriesSucceeded(db, succeeded));
      if (first.failing_since) await clearTargetFailing(db, first.target_id);
    }
    // What could not be recorded is handed back by track(): sent again, under the same webhook-id.
    const unrecorded = outcomes.find((outcome) => outcome.status === 'rejected');
    if (unrecorded) throw unrecorded.reason;
  }

  /**
   * Sent is sent: what records a send is retried while the connection to the
   * database is lost and the lease lasts, so a failover right after the
   * answers does not send them again; only a database away for the whole
   * lease can (at least once, under the same webhook-id).
   */
  async function whileLeaseLasts(leaseEnd: Date, write: () => Promise<void>) {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
      try {
        return await write();
      } catch (error) {
        if (!isDatabaseUnavailable(error) || clock.now() >= leaseEnd) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * The target's failure streak and, when the streak has lasted
   * `pauseAfterMs`, the pause with its notice, in the transaction that
   * records the failure (the target's row before the deliveries', src/db/LOCKING.md).
   */
  async function noteFailure(trx: Trx, target: { target_id: number; kind: string }, now: Date) {
    const policy = policyOf(target.kind);
    await markTargetFailing(trx, target.target_id, now);
    const paused =
      policy.pauseAfterMs === null
        ? undefined
        : await pauseFailingTarget(trx, target.target_id, new Date(now.getTime() - policy.pauseAfterMs), now);
    if (paused) {
      log.warn({ target: paused.public_id, failing_since: paused.failing_since }, 'event target paused: failing without a success');
      await deps.kinds[paused.kind].paused(trx, { id: paused.id, publicId: paused.public_id, failingSince: paused.failing_since! });
    }
  }

  /**
   * When a delivery that failed is tried next: its backoff, but no later
   * than the moment its target's failure streak reaches `pauseAfterMs`
   * (a streak starting now, when there is none). The pause is decided when
   * an attempt fails, and with backoff alone the attempt after the deadline
   * could come many hours past it (at 12 h steps, 22.75 h then 34.75 h).
   */
  function retryTime(attempts: number, firstAttemptAt: Date, target: { kind: string; failing_since: Date | null }): Date | null {
    const now = clock.now();
    const policy = policyOf(target.kind);
    const at = nextAttemptAt(attempts, firstAttemptAt, now, policy.retry);
    if (at === null || policy.pauseAfterMs === null) return at;
    const pauseDue = new Date((target.failing_since ?? now).getTime() + policy.pauseAfterMs);
    return pauseDue > now && pauseDue < at ? pauseDue : at;
  }

  /** A PENDING delivery's failed attempt, with the failure streak it adds to: one transaction. */
  async function recordFailure(claim: string, delivery: ClaimedDelivery, record: AttemptRecord, leaseEnd: Date) {
    const now = clock.now();
    const retryAt = retryTime(record.attempts - delivery.attempts_before_round, delivery.first_attempt_at ?? record.startedAt, delivery);
    await whileLeaseLasts(leaseEnd, () =>
      transaction(db, async (trx) => {
        await noteFailure(trx, delivery, now);
        await recordDeliveryFailure(trx, delivery.id, claim, record, retryAt);
      }),
    );
    logFailure(delivery.public_id, delivery.event_public_id, record, retryAt);
  }

  /** `delivery`: the PENDING row's public ID (null: a first attempt from the stream, whose row is written after). */
  function logFailure(delivery: string | null, event: string, record: AttemptRecord, retryAt: Date | null) {
    log.info(
      { delivery, event, attempts: record.attempts, status: record.status, error: record.error },
      retryAt ? 'event delivery failed; will retry' : 'event delivery failed for good (retry window over)',
    );
  }

  const envelope = (
    d: { event_public_id: string; type: string; version: number; event_created_at: Date; payload: Record<string, unknown> } | StreamEvent,
  ): OutgoingEvent =>
    'event_public_id' in d
      ? { id: d.event_public_id, type: d.type, version: d.version, timestamp: d.event_created_at.toISOString(), data: d.payload }
      : { id: d.public_id, type: d.type, version: d.version, timestamp: d.created_at.toISOString(), data: d.payload };

  const loop = backgroundLoop({
    run: () => runOnce({ yielding: true }),
    // A full batch means more may be waiting: go again at once (while busy, runOnce takes only urgent kinds).
    // (Not runOnce's count, which adds the streams claimed beside the deliveries.)
    pauseAfter: () => (lastBatchFull ? 0 : deps.pollIntervalMs),
    retryMs: deps.pollIntervalMs,
    onError: (error) => log.error({ err: error }, 'event dispatcher claim failed'),
  });

  /** Waits for every share being sent. */
  const settle = async () => {
    while (inFlight.size > 0) await Promise.all(inFlight.values());
  };

  return {
    /** Claims what is due and starts sending it; resolves once claimed (the sends go on). */
    runOnce,
    /**
     * Sends everything due now and what becomes due by doing so (the next
     * event of an ordering key), until nothing is due; for tests and tools,
     * with the loop stopped. Returns how many claims of a delivery or a
     * stream were made.
     */
    async deliverDue(): Promise<number> {
      let total = 0;
      for (;;) {
        const claimed = await runOnce();
        await settle();
        if (claimed === 0) {
          // Another sequencer (an endpoint being created, another process) holds the inbox: its events are next.
          if (!(await inboxWaiting(db))) return total;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        total += claimed;
      }
    },
    start: () => loop.start(0),
    /** Stops claiming; the attempts under way finish (each within its timeout) and are recorded. */
    async stop() {
      await loop.stop();
      await settle();
    },
  };
}

export type EventDispatcher = ReturnType<typeof createEventDispatcher>;
