import type { Db } from '../db/database.js';
import { transaction } from '../db/transaction.js';
import { cancelPendingDeliveries } from '../events/delivery-repository.js';
import { deleteTarget, insertTarget, updateTarget } from '../events/target-repository.js';
import type { Clock } from '../lib/clock.js';
import { newPublicId } from '../lib/ids.js';
import { insertCacheTarget, liveCacheTargets, lockCacheTargetSync } from './repository.js';

/** The one event type cache targets subscribe to (never offered to webhooks: it is not in the event catalog). */
export const PURGE_EVENT = 'cache.purge';

/**
 * Makes the cache targets the configured ones (CACHE_PURGE_URLS): a URL
 * without a target gets one, subscribed to purges from now on; a target whose
 * URL is no longer configured is deleted with the purges it still owed. Run
 * by every process that starts the dispatcher; the instances of one
 * deployment share a configuration, and concurrent starts take turns (an
 * advisory lock), so each URL has one target and gets each purge once.
 * Answers the URLs whose targets it deleted, for the log.
 */
export async function syncCacheTargets(db: Db, clock: Clock, urls: readonly string[]): Promise<string[]> {
  return transaction(db, async (trx) => {
    await lockCacheTargetSync(trx);
    const now = clock.now();
    const live = await liveCacheTargets(trx);
    const removed: string[] = [];
    for (const target of live) {
      if (!urls.includes(target.url)) {
        await deleteTarget(trx, target.id, now);
        await cancelPendingDeliveries(trx, target.id);
        removed.push(target.url);
      } else if (target.status !== 'ACTIVE') {
        await updateTarget(trx, target.id, { status: 'ACTIVE' }, now);
      }
    }
    for (const url of urls.filter((u) => !live.some((target) => target.url === u))) {
      const target = await insertTarget(trx, {
        publicId: newPublicId('cch'),
        kind: 'cache',
        eventTypes: [PURGE_EVENT],
        status: 'ACTIVE',
        now,
      });
      await insertCacheTarget(trx, target.id, url);
    }
    return removed;
  });
}
