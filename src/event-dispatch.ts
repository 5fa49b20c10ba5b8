import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { createEventDispatcher } from './events/dispatcher.js';
import type { Clock } from './lib/clock.js';
import { createAddressPolicy } from './webhooks/address-policy.js';
import { createHttpSender } from './webhooks/http-sender.js';
import { createWebhookKind } from './webhooks/kind.js';

/** How many bytes of a receiver's answer are read and kept in the delivery log. */
export const RESPONSE_BYTES_KEPT = 1024;

/**
 * The event dispatcher with every kind of target it delivers to (webhooks
 * today), as both the API process (src/app.ts) and `npm run worker` run it.
 * A new kind of target (cache purges, say) is one more entry in `kinds`.
 */
export function createDispatch({ db, clock, log, config }: { db: Db; clock: Clock; log: FastifyBaseLogger; config: Config }) {
  const sender = createHttpSender({
    policy: createAddressPolicy(config.webhooks.allowedNetworks),
    timeoutMs: config.webhooks.timeoutMs,
    maxBodyBytes: RESPONSE_BYTES_KEPT,
  });
  const dispatcher = createEventDispatcher({
    db,
    clock,
    log,
    kinds: { webhook: createWebhookKind({ db, clock, sender }) },
    pollIntervalMs: config.events.pollIntervalMs,
    leaseMs: config.events.leaseMs,
    retry: config.webhooks.retry,
    pauseAfterMs: config.webhooks.pauseAfterMs,
  });
  return {
    dispatcher,
    /** Stops claiming, lets the attempts under way finish, then closes the kept-alive connections. */
    async close() {
      await dispatcher.stop();
      sender.close();
    },
  };
}
