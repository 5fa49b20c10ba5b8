import type { FastifyBaseLogger } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { DeliveryKind, OutgoingEvent, Outcome } from '../events/dispatcher.js';
import type { Clock } from '../lib/clock.js';
import { cacheDestinations } from './repository.js';

/**
 * Caches as a kind of event target: a `cache.purge` event (written by the
 * database in the transaction of the change, migration 0018) becomes one
 * POST to the cache's purge URL (several for a purge of more than
 * KEYS_PER_REQUEST keys), its surrogate keys in the `Surrogate-Key` header
 * (space-separated, as Varnish and Fastly take them) and in a JSON body, the
 * token as a bearer credential. A 2xx answer is a success; any
 * other answer, a timeout or a refused connection is retried by the
 * dispatcher (seconds apart, for a day): a cache that is down gets every
 * purge it missed when it comes back. A cache is never paused.
 */
export interface CacheDestination {
  url: string;
}

export interface PurgeMetrics {
  sent(cache: string, keys: number): void;
  failed(cache: string): void;
  lag(seconds: number): void;
}

/** Purges sent and failed (per cache origin), and the lag from the change's commit to the cache's answer. */
export function createPurgeMetrics(registry: Registry | null): PurgeMetrics {
  if (!registry) return { sent() {}, failed() {}, lag() {} };
  const sent = new Counter({
    name: 'cache_purges_sent_total',
    help: 'Purge requests a cache accepted, by cache origin',
    labelNames: ['cache'] as const,
    registers: [registry],
  });
  const keys = new Counter({
    name: 'cache_purged_keys_total',
    help: 'Surrogate keys in the purge requests a cache accepted, by cache origin',
    labelNames: ['cache'] as const,
    registers: [registry],
  });
  const failed = new Counter({
    name: 'cache_purges_failed_total',
    help: 'Purge attempts that failed (refused, timed out, not 2xx) and will be retried, by cache origin',
    labelNames: ['cache'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'cache_purge_lag_seconds',
    help: 'From the change (its purge event) to the cache accepting the purge',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  return {
    sent(cache, count) {
      sent.inc({ cache });
      keys.inc({ cache }, count);
    },
    failed: (cache) => failed.inc({ cache }),
    lag: (seconds) => lag.observe(seconds),
  };
}

/** Keys per purge request: with public IDs of 24 characters, about 2.5 KB of header. */
export const KEYS_PER_REQUEST = 100;

export function createCachePurgeKind(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Config['httpCache'];
  metrics: PurgeMetrics;
}): DeliveryKind<CacheDestination> {
  const { config, metrics } = deps;

  async function purge(url: string, keys: string[]): Promise<Outcome> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.purgeToken ?? ''}`,
          'content-type': 'application/json',
          'surrogate-key': keys.join(' '),
          'user-agent': 'commerce-cache-purge/1',
        },
        body: JSON.stringify({ keys }),
        signal: AbortSignal.timeout(config.purgeTimeoutMs),
      });
      const body = (await response.text()).slice(0, 1024);
      if (response.ok) return { ok: true, status: response.status, body, error: null };
      return { ok: false, status: response.status, body, error: `cache answered ${response.status}` };
    } catch (error) {
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      return { ok: false, status: null, body: null, error: `purge not delivered: ${reason}` };
    }
  }

  return {
    policy: { retry: config.purgeRetry, pauseAfterMs: null },
    // A change must show through the cache within about a second, busy API or not.
    urgent: true,

    async load(targetIds) {
      const rows = await cacheDestinations(deps.db, targetIds);
      return new Map(rows.map((row) => [row.target_id, { url: row.url }]));
    },

    async send(destination: CacheDestination, event: OutgoingEvent): Promise<Outcome> {
      const keys = (event.data as { keys?: unknown }).keys;
      if (!Array.isArray(keys) || keys.length === 0) return { ok: true, status: null, body: null, error: null };
      const cache = new URL(destination.url).origin;
      // A bulk write's purge (an import, a bulk status change) is sent in parts a cache's header limit takes
      // (Varnish's is 8 KB); a part that fails fails the whole, which is sent again (purging twice is harmless).
      let last: Outcome = { ok: true, status: null, body: null, error: null };
      for (let start = 0; start < keys.length && last.ok; start += KEYS_PER_REQUEST) {
        last = await purge(destination.url, keys.slice(start, start + KEYS_PER_REQUEST) as string[]);
        if (last.ok) metrics.sent(cache, Math.min(KEYS_PER_REQUEST, keys.length - start));
        else metrics.failed(cache);
      }
      return last;
    },

    delivered(eventAt) {
      metrics.lag(Math.max(0, (deps.clock.now().getTime() - eventAt.getTime()) / 1000));
    },

    async paused() {
      // Never: the policy above has no pause.
    },
  };
}
