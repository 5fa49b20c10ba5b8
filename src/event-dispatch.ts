import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { createEventDispatcher } from './events/dispatcher.js';
import { createCachePurgeKind, createPurgeMetrics } from './http-cache/purge-kind.js';
import { syncCacheTargets } from './http-cache/targets.js';
import type { Clock } from './lib/clock.js';
import { createAddressPolicy } from './webhooks/address-policy.js';
import { createHostResolver } from './webhooks/host-resolver.js';
import { createHttpSender } from './webhooks/http-sender.js';
import { createWebhookKind } from './webhooks/kind.js';

/** How many bytes of a receiver's answer are read and kept in the delivery log. */
export const RESPONSE_BYTES_KEPT = 1024;

/**
 * The event dispatcher with every kind of target it delivers to (webhooks,
 * and the caches told to purge what changed), as both the API process
 * (src/app.ts) and `npm run worker` run it. `registry`, when given, gets the
 * purge metrics.
 */
export function createDispatch({
  db,
  clock,
  log,
  config,
  registry = null,
  busy,
}: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Config;
  registry?: Registry | null;
  /** Whether the API beside it needs the machine (the dispatcher then yields); absent in `npm run worker`. */
  busy?: () => boolean;
}) {
  const sender = createHttpSender({
    policy: createAddressPolicy(config.webhooks.allowedNetworks),
    timeoutMs: config.webhooks.timeoutMs,
    maxBodyBytes: RESPONSE_BYTES_KEPT,
    resolve: createHostResolver({ timeoutMs: config.webhooks.timeoutMs, servers: config.webhooks.dnsServers }),
  });
  const dispatcher = createEventDispatcher({
    db,
    clock,
    log,
    kinds: {
      webhook: createWebhookKind({ db, clock, sender }),
      cache: createCachePurgeKind({ db, clock, log, config: config.httpCache, metrics: createPurgeMetrics(registry) }),
    },
    pollIntervalMs: config.events.pollIntervalMs,
    leaseMs: config.events.leaseMs,
    retry: config.webhooks.retry,
    pauseAfterMs: config.webhooks.pauseAfterMs,
    ...(busy ? { busy } : {}),
  });
  return {
    dispatcher,
    /**
     * Makes the cache targets the configured ones (CACHE_PURGE_URLS), then starts delivering. A sync that
     * fails (the database away at that moment) is logged and the targets stay as the last start left them.
     */
    async start() {
      const removed = await syncCacheTargets(db, clock, config.httpCache.purgeUrls).catch((error: unknown) => {
        log.error({ err: error }, 'cache purge targets not synced with CACHE_PURGE_URLS; they stay as they were');
        return [];
      });
      // Loud: an instance started without the deployment's CACHE_PURGE_URLS stops every purge.
      for (const url of removed) log.warn({ url }, 'cache purge target removed: CACHE_PURGE_URLS no longer names it, so it gets no purges');
      dispatcher.start();
    },
    /** Stops claiming, lets the attempts under way finish, then closes the kept-alive connections. */
    async close() {
      await dispatcher.stop();
      sender.close();
    },
  };
}
