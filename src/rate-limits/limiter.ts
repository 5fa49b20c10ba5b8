import type { Executor } from '../db/database.js';
import type { RateLimitName, RateLimitRule } from '../config.js';
import { rateLimited } from '../lib/errors.js';
import { countEvent, deleteCounter, uncountEvent } from './repository.js';

/**
 * Fixed-window counters kept in PostgreSQL, so every instance of the service
 * sees the same counts. `hit` counts one event in a single upsert (safe under
 * concurrency) and, with `enforce`, refuses the event that goes over the limit.
 */
export interface RateLimiter {
  /** Counts one event; with `enforce`, throws 429 when this event goes over the limit. */
  hit(db: Executor, name: RateLimitName, key: string, options?: { enforce?: boolean }): Promise<void>;
  reset(db: Executor, name: RateLimitName, key: string): Promise<void>;
  /** Gives back one event counted by `hit` that turned out not to count (a successful login). */
  release(db: Executor, name: RateLimitName, key: string): Promise<void>;
}

export function createRateLimiter(rules: Readonly<Record<RateLimitName, RateLimitRule>>, now: () => Date): RateLimiter {
  const retryAfter = (windowStartedAt: Date, windowSeconds: number) =>
    (windowStartedAt.getTime() + windowSeconds * 1000 - now().getTime()) / 1000;

  return {
    async hit(db, name, key, options = {}) {
      const rule = rules[name];
      if (!rule) return;
      const at = now();
      const windowStart = new Date(at.getTime() - rule.windowSeconds * 1000);
      // A window older than the rule restarts at 1; otherwise count up.
      const row = await countEvent(db, name, key, at, windowStart);
      if (options.enforce && row.hits > rule.count) throw rateLimited(retryAfter(row.window_started_at, rule.windowSeconds));
    },

    async reset(db, name, key) {
      await deleteCounter(db, name, key);
    },

    async release(db, name, key) {
      if (!rules[name]) return;
      await uncountEvent(db, name, key);
    },
  };
}
