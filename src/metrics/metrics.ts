import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolStats, type Db } from '../db/database.js';
import { transactionRetries } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import { errorCodeOf } from '../lib/error-handler.js';
import { emailBacklog } from '../outbox/repository.js';
import { deliveryBacklog } from '../events/delivery-repository.js';

/**
 * What an operator graphs and alerts on, in Prometheus's format: requests
 * (rate, latency, status) by route, the pool (connections in use, requests
 * waiting for one, connections lost), checkout outcomes, rate-limit
 * refusals, the outbox (backlog and the age of its oldest pending message),
 * event deliveries (the same, for active targets),
 * and Node's own (CPU, memory, event-loop lag). Served on a listener of its
 * own (src/metrics/server.ts), never on the public port.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Counts a pooled connection the server ended or the network lost. */
  connectionLost(): void;
  /** Adds the request hooks to an app. */
  instrument(app: FastifyInstance): void;
}

const CHECKOUT_ROUTE = '/api/v1/orders';

export function createMetrics(deps: { db: Db; clock: Clock }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_request_errors_total',
    help: 'Requests answered with an error envelope, by route and error code',
    labelNames: ['method', 'route', 'code'] as const,
    registers: [registry],
  });
  const checkouts = new Counter({
    name: 'checkouts_total',
    help: 'POST /orders outcomes: placed, replayed (Idempotency-Key), or the error code',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 RATE_LIMITED, by route',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const lost = new Counter({
    name: 'db_connections_lost_total',
    help: 'Pooled connections the server ended or the network lost',
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Pool connections by state (in_use, idle) and the configured maximum (max)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = poolStats(deps.db);
      this.set({ state: 'in_use' }, pool.total - pool.idle);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'max' }, pool.max);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a pool connection (the pool is exhausted while this is above 0)',
    registers: [registry],
    collect() {
      this.set(poolStats(deps.db).waiting);
    },
  });
  const retried = { deadlock: 0, serialization: 0 };
  new Counter({
    name: 'db_transaction_retries_total',
    help: 'Transactions run again after PostgreSQL aborted them as a deadlock victim or a serialization failure (src/db/LOCKING.md: zero while the lock order holds)',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      const now = transactionRetries(deps.db);
      for (const reason of ['deadlock', 'serialization'] as const) {
        if (now[reason] > retried[reason]) this.inc({ reason }, now[reason] - retried[reason]);
        retried[reason] = now[reason];
      }
    },
  });
  // Both outbox gauges come from one query per scrape (prom-client collects every metric at once).
  let outbox: { at: number; state: Promise<{ pending: number; age: number }> } | null = null;
  const outboxState = () => {
    const now = deps.clock.now().getTime();
    if (!outbox || now - outbox.at > 1000) outbox = { at: now, state: emailBacklog(deps.db) };
    return outbox.state;
  };
  // While the database is away the pool and request metrics report it; these two keep their last value.
  new Gauge({
    name: 'outbox_pending_messages',
    help: 'Emails not yet delivered',
    registers: [registry],
    async collect() {
      await outboxState().then(
        (state) => this.set(state.pending),
        () => {},
      );
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest email not yet delivered (0 when none)',
    registers: [registry],
    async collect() {
      await outboxState().then(
        (state) => this.set(state.age),
        () => {},
      );
    },
  });
  let deliveries: { at: number; state: Promise<{ pending: number; age: number }> } | null = null;
  const deliveryState = () => {
    const now = deps.clock.now().getTime();
    if (!deliveries || now - deliveries.at > 1000) deliveries = { at: now, state: deliveryBacklog(deps.db, 'webhook') };
    return deliveries.state;
  };
  new Gauge({
    name: 'event_deliveries_pending',
    help: 'Webhook deliveries waiting for an active endpoint, retries included',
    registers: [registry],
    async collect() {
      await deliveryState().then(
        (state) => this.set(state.pending),
        () => {},
      );
    },
  });
  new Gauge({
    name: 'event_oldest_pending_delivery_age_seconds',
    help: 'Age of the oldest event delivery waiting for an active target (0 when none)',
    registers: [registry],
    async collect() {
      await deliveryState().then(
        (state) => this.set(state.age),
        () => {},
      );
    },
  });

  let purges: { at: number; state: Promise<{ pending: number; age: number }> } | null = null;
  const purgeState = () => {
    const now = deps.clock.now().getTime();
    if (!purges || now - purges.at > 1000) purges = { at: now, state: deliveryBacklog(deps.db, 'cache') };
    return purges.state;
  };
  new Gauge({
    name: 'cache_purges_pending',
    help: 'Cache purges not yet accepted by their cache (src/http-cache/), retries included',
    registers: [registry],
    async collect() {
      await purgeState().then(
        (state) => this.set(state.pending),
        () => {},
      );
    },
  });
  new Gauge({
    name: 'cache_purge_oldest_pending_age_seconds',
    help: 'Age of the oldest cache purge not yet accepted (0 when none): how stale a cache may be serving',
    registers: [registry],
    async collect() {
      await purgeState().then(
        (state) => this.set(state.age),
        () => {},
      );
    },
  });

  return {
    registry,
    connectionLost: () => lost.inc(),
    instrument(app) {
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched';
        const status = reply.statusCode;
        requests.inc({ method: request.method, route, status: String(status) });
        duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
        const code = errorCodeOf(request);
        if (code) errors.inc({ method: request.method, route, code });
        if (code === 'RATE_LIMITED') refusals.inc({ route });
        if (route === CHECKOUT_ROUTE && request.method === 'POST') {
          checkouts.inc({
            outcome: status === 201 ? (reply.getHeader('idempotent-replayed') ? 'replayed' : 'placed') : (code ?? String(status)),
          });
        }
      });
    },
  };
}
