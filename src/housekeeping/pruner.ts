import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { backgroundLoop } from '../lib/background-loop.js';
import { deleteExpiredUploadTokens, pruneMediaFiles } from '../media/repository.js';
import { deleteDeliveredEmails } from '../outbox/repository.js';
import { cancelOrphanedDeliveries, deleteFinishedDeliveries } from '../events/delivery-repository.js';
import { deleteOldEvents } from '../events/repository.js';
import { pruneStream } from '../events/stream-repository.js';
import { KEY_TTL_MS } from '../idempotency/idempotency.js';
import { deleteExpiredKeys, keyAgesIndexed } from '../idempotency/repository.js';

/**
 * Deletes what accounts and traffic leave behind, so no one can fill the
 * database by using the service: uploads nothing points at, expired upload
 * tokens, Idempotency-Keys past their 24 hours, delivered mail, and events with their finished deliveries (an
 * event stays while a delivery of it waits; one for a deleted endpoint is
 * cancelled first, whatever its age; an event stays too until every live
 * target has read it from the stream), each after its retention period (config
 * `retention`). Work goes in batches of `batchSize` rows per statement, at
 * most MAX_BATCHES per kind per run, so a backlog is worked off over several
 * runs without long statements; a run that left one behind is followed by
 * the next after BACKLOG_PAUSE_MS instead of the interval, so the pruner
 * keeps up with any rate of traffic, not only `batchSize * MAX_BATCHES` rows
 * per interval. Several instances may run it at once.
 */
export interface PruneResult {
  uploadsDeleted: number;
  uploadsKept: number;
  uploadTokensDeleted: number;
  /** Idempotency-Keys past their replay window (KEY_TTL_MS), with the responses they kept. */
  idempotencyKeysDeleted: number;
  emailsDeleted: number;
  deliveriesCancelled: number;
  /** Stream positions every live target's cursor had passed (whatever their age). */
  streamPruned: number;
  deliveriesDeleted: number;
  eventsDeleted: number;
}

export const MAX_BATCHES = 20;
/** The pause after a run that stopped at MAX_BATCHES with more to delete (the interval, when shorter). */
export const BACKLOG_PAUSE_MS = 500;

export interface PrunerDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  retention: Config['retention'];
}

export function createPruner({ db, clock, log, retention }: PrunerDeps) {
  const ago = (seconds: number) => new Date(clock.now().getTime() - seconds * 1000);

  /** Whether the run under way stopped a drain at MAX_BATCHES full batches. */
  let leftBehind = false;

  /** Runs `batch` until it comes back short of a full batch (or MAX_BATCHES); returns the total. */
  async function drain(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const count = await batch();
      total += count;
      if (count < retention.batchSize) return total;
    }
    leftBehind = true;
    return total;
  }

  async function runOnce(): Promise<PruneResult> {
    leftBehind = false;
    const result: PruneResult = {
      uploadsDeleted: 0,
      uploadsKept: 0,
      uploadTokensDeleted: 0,
      idempotencyKeysDeleted: 0,
      emailsDeleted: 0,
      deliveriesCancelled: 0,
      streamPruned: 0,
      deliveriesDeleted: 0,
      eventsDeleted: 0,
    };
    const { unreferencedUploads, expiredUploadTokens, deliveredEmails, events, batchSize } = retention;
    if (unreferencedUploads !== null) {
      await drain(async () => {
        const pass = await pruneMediaFiles(db, ago(unreferencedUploads), clock.now(), batchSize);
        result.uploadsDeleted += pass.deleted;
        result.uploadsKept += pass.kept;
        return pass.deleted + pass.kept;
      });
    }
    if (expiredUploadTokens !== null) {
      result.uploadTokensDeleted = await drain(() => deleteExpiredUploadTokens(db, ago(expiredUploadTokens), batchSize));
    }
    // Without their age index (built after an upgrade's migrations, src/db/concurrent-indexes.ts) each batch
    // would read the whole table: the keys wait for it.
    if (await keyAgesIndexed(db)) {
      result.idempotencyKeysDeleted = await drain(() => deleteExpiredKeys(db, new Date(clock.now().getTime() - KEY_TTL_MS), batchSize));
    }
    if (deliveredEmails !== null) {
      result.emailsDeleted = await drain(() => deleteDeliveredEmails(db, ago(deliveredEmails), batchSize));
    }
    result.deliveriesCancelled = await drain(() => cancelOrphanedDeliveries(db, batchSize, clock.now()));
    result.streamPruned = await drain(() => pruneStream(db, batchSize));
    if (events !== null) {
      result.deliveriesDeleted = await drain(() => deleteFinishedDeliveries(db, ago(events), batchSize));
      result.eventsDeleted = await drain(() => deleteOldEvents(db, ago(events), batchSize));
    }
    const { uploadsKept: _kept, ...deleted } = result;
    if (Object.values(deleted).some((count) => count > 0)) log.info({ pruned: result }, 'pruned old data');
    return result;
  }

  const loop = backgroundLoop({
    run: async () => {
      await runOnce();
      return leftBehind;
    },
    pauseAfter: (behind) => (behind ? Math.min(BACKLOG_PAUSE_MS, retention.intervalMs!) : retention.intervalMs!),
    retryMs: retention.intervalMs ?? 0,
    onError: (error) => log.error({ err: error }, 'pruning failed; will try again'),
  });

  return {
    runOnce,
    /** First run soon after start, then every `intervalMs`. */
    start() {
      if (retention.intervalMs !== null) loop.start(Math.min(retention.intervalMs, 60_000));
    },
    /** Stops scheduling and waits for a run in flight. */
    stop: () => loop.stop(),
  };
}

export type Pruner = ReturnType<typeof createPruner>;
