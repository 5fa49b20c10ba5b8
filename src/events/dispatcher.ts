import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Trx } from '../db/database.js';
import type { TargetKind } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { backgroundLoop } from '../lib/background-loop.js';
import type { Clock } from '../lib/clock.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import {
  claimDueDeliveries,
  markDeliveriesSucceeded,
  recordDeliveryFailure,
  releaseDeliveryClaims,
  type AttemptRecord,
  type ClaimedDelivery,
} from './delivery-repository.js';
import { nextAttemptAt, type RetryPolicy } from './retry.js';
import { clearTargetFailing, markTargetFailing, pauseFailingTarget } from './target-repository.js';

/**
 * Delivers the event stream to its targets, at least once, in the order of
 * their events per target and ordering key. Any number of dispatchers, in
 * any number of processes, share the work: a batch is claimed in one short
 * statement (FOR UPDATE SKIP LOCKED) under a lease longer than any attempt
 * can take, so a delivery goes to one of them, and a dead dispatcher's batch
 * is taken over when its lease ends. No transaction is open while sending.
 *
 * Each target's share of a batch is sent on its own (its deliveries in
 * parallel: a batch never holds two of one ordering key), and the next claim
 * leaves out the targets still being sent to here, so a slow or hanging
 * receiver holds up only its own deliveries, for at most one attempt's
 * timeout. Successes are marked together when the target's share is done;
 * each failure is recorded with its next attempt (RetryPolicy), and a target
 * failing without a success for `pauseAfterMs` is paused in the same
 * transaction as the failure that showed it, its kind told (an email to the
 * super admins for webhooks).
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

export function createEventDispatcher(deps: DispatcherDeps) {
  const { db, clock, log } = deps;
  const busy = deps.busy ?? (() => false);
  const urgentKinds = (Object.keys(deps.kinds) as TargetKind[]).filter((kind) => deps.kinds[kind].urgent);
  /** When the last claim open to every kind was made (performance.now()): while busy, one per poll interval. */
  let lastOpenClaim = -Infinity;
  /** Each target's share of a batch being sent by this dispatcher. */
  const inFlight = new Map<number, Promise<void>>();

  /** Claims what is due and starts sending it; `yielding` lets a busy API hold back all but urgent kinds (the loop's claims). */
  async function runOnce({ yielding = false } = {}): Promise<number> {
    // While the API is busy, a claim within a poll interval of the last open one takes only urgent kinds.
    const paced = yielding && busy() && performance.now() - lastOpenClaim < deps.pollIntervalMs;
    if (paced && urgentKinds.length === 0) return 0;
    if (!paced) lastOpenClaim = performance.now();
    const claim = randomUUID();
    const now = clock.now();
    const leaseEnd = new Date(now.getTime() + deps.leaseMs);
    const batch = await claimDueDeliveries(db, {
      claim,
      now,
      leaseEnd,
      limit: BATCH,
      perTarget: PER_TARGET,
      busyTargets: [...inFlight.keys()],
      ...(paced ? { kinds: urgentKinds } : {}),
    });
    const byTarget = new Map<number, ClaimedDelivery[]>();
    for (const delivery of batch) byTarget.set(delivery.target_id, [...(byTarget.get(delivery.target_id) ?? []), delivery]);
    for (const [targetId, deliveries] of byTarget) {
      const work = sendShare(claim, deliveries, leaseEnd)
        .catch(async (error: unknown) => {
          log.error({ err: error, target_id: targetId }, 'event delivery batch failed; its deliveries are handed back');
          await releaseDeliveryClaims(db, [claim], clock.now()).catch(() => {});
        })
        .finally(() => {
          inFlight.delete(targetId);
          // A full share means more may be waiting for this target (left to the next poll while busy, unless urgent).
          if (deliveries.length === PER_TARGET && (!busy() || deps.kinds[deliveries[0]!.kind as TargetKind]?.urgent)) loop.nudge();
        });
      inFlight.set(targetId, work);
    }
    return batch.length;
  }

  /** One target's deliveries of a claim: sent in parallel, successes marked together, failures one by one. */
  async function sendShare(claim: string, deliveries: ClaimedDelivery[], leaseEnd: Date): Promise<void> {
    const first = deliveries[0]!;
    const kind = deps.kinds[first.kind as TargetKind] as DeliveryKind<unknown> | undefined;
    const destination = kind ? (await kind.load([first.target_id])).get(first.target_id) : undefined;
    const succeeded: { id: number; attempt: AttemptRecord }[] = [];
    await Promise.all(
      deliveries.map(async (delivery) => {
        const startedAt = clock.now();
        const started = performance.now();
        const outcome: Outcome =
          kind && destination !== undefined
            ? await kind.send(destination, envelope(delivery))
            : { ok: false, status: null, body: null, error: `no ${first.kind} target ${first.target_public_id}` };
        const attempt: AttemptRecord = {
          attempts: delivery.attempts + 1,
          startedAt,
          status: outcome.status,
          body: outcome.body,
          latencyMs: Math.round(performance.now() - started),
          error: outcome.error,
        };
        if (outcome.ok) {
          succeeded.push({ id: delivery.id, attempt });
          kind?.delivered?.(delivery.event_created_at);
        } else await recordFailure(claim, delivery, attempt);
      }),
    );
    if (succeeded.length > 0) {
      await markSucceeded(succeeded, leaseEnd);
      if (first.failing_since) await clearTargetFailing(db, first.target_id);
    }
  }

  /**
   * Sent is sent: the mark is retried while the connection to the database is
   * lost and the lease lasts, so a failover right after the answers does not
   * send them again; only a database away for the whole lease can (at least
   * once, under the same webhook-id).
   */
  async function markSucceeded(succeeded: { id: number; attempt: AttemptRecord }[], leaseEnd: Date) {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
      try {
        return await markDeliveriesSucceeded(db, succeeded);
      } catch (error) {
        if (!isDatabaseUnavailable(error) || clock.now() >= leaseEnd) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * The failure, the target's failure streak and, when the streak has lasted
   * `pauseAfterMs`, the pause with its notice: one transaction, the target's
   * row before the delivery's (src/db/LOCKING.md).
   */
  async function recordFailure(claim: string, delivery: ClaimedDelivery, attempt: AttemptRecord) {
    const now = clock.now();
    const policy = deps.kinds[delivery.kind as TargetKind]?.policy ?? deps;
    const retryAt = nextAttemptAt(attempt.attempts, delivery.first_attempt_at ?? attempt.startedAt, now, policy.retry);
    await transaction(db, async (trx) => {
      await markTargetFailing(trx, delivery.target_id, now);
      const paused =
        policy.pauseAfterMs === null
          ? undefined
          : await pauseFailingTarget(trx, delivery.target_id, new Date(now.getTime() - policy.pauseAfterMs), now);
      if (paused) {
        log.warn({ target: paused.public_id, failing_since: paused.failing_since }, 'event target paused: failing without a success');
        await deps.kinds[paused.kind].paused(trx, { id: paused.id, publicId: paused.public_id, failingSince: paused.failing_since! });
      }
      await recordDeliveryFailure(trx, delivery.id, claim, attempt, retryAt);
    });
    log.info(
      {
        delivery: delivery.public_id,
        event: delivery.event_public_id,
        attempts: attempt.attempts,
        status: attempt.status,
        error: attempt.error,
      },
      retryAt ? 'event delivery failed; will retry' : 'event delivery failed for good (retry window over)',
    );
  }

  const envelope = (d: ClaimedDelivery): OutgoingEvent => ({
    id: d.event_public_id,
    type: d.type,
    version: d.version,
    timestamp: d.event_created_at.toISOString(),
    data: d.payload,
  });

  const loop = backgroundLoop({
    run: () => runOnce({ yielding: true }),
    // A full batch means more may be waiting: go again at once (while busy, runOnce takes only urgent kinds).
    pauseAfter: (count) => (count === BATCH ? 0 : deps.pollIntervalMs),
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
     * with the loop stopped. Returns how many attempts were made.
     */
    async deliverDue(): Promise<number> {
      let total = 0;
      for (;;) {
        const claimed = await runOnce();
        await settle();
        if (claimed === 0) return total;
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
