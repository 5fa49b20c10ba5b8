import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app.js';
import { connectDatabase } from './db/connect.js';
import { systemClock } from './lib/clock.js';
import { startProcess } from './lib/process.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/server.js';

/**
 * `npm start`: config, database (embedded unless DATABASE_URL), migrations
 * (or, with MIGRATE_ON_START=false, not ready until they are applied), HTTP.
 * SIGTERM and SIGINT drain: readiness fails at once (and, for SHUTDOWN_DELAY_MS, the
 * instance serves on while a balancer notices), then stop accepting, finish the requests in flight
 * (within SHUTDOWN_GRACE_MS), let the email worker finish its message, close
 * the pool, then stop the embedded server if this process runs it.
 */
startProcess(async ({ config, log, shutdown }) => {
  let metrics: Metrics | null = null;
  const { db, schema } = await connectDatabase(config, log, shutdown, () => metrics?.connectionLost());
  // A later release's migrations appearing while this instance waits for its own: it cannot serve them.
  schema.current.catch((error: unknown) => {
    log.fatal({ err: error }, 'start-up failed');
    void shutdown.run('the database schema is newer than this version', 1);
  });
  metrics = createMetrics({ db, clock: systemClock });
  let stopping = false;
  const app = await buildApp({ config, db, log, metrics, schema, stopping: () => stopping });
  shutdown.add('http', async (deadline) => {
    stopping = true;
    // Requests in flight finish. A keep-alive connection whose request finishes during the drain
    // would otherwise stay open until its keep-alive timeout: idle ones are closed as they appear.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    // Past the grace period the connections still open are cut.
    const cut = setTimeout(
      () => {
        log.warn('grace period over; closing the connections still open');
        app.server.closeAllConnections();
      },
      Math.max(0, deadline - Date.now()),
    );
    try {
      await app.close(); // stops accepting, waits for in-flight requests, then stops the email worker
    } finally {
      clearInterval(idle);
      clearTimeout(cut);
    }
  });
  await app.listen({ port: config.port, host: config.host });
  if (config.metrics.port !== null) {
    const server = await startMetricsServer({ registry: metrics.registry, ...config.metrics, port: config.metrics.port, log });
    if (server) shutdown.add('metrics', () => new Promise<void>((resolve) => server.close(() => resolve())));
  }
  // The first step to run, once serving (an instance that never listened has no balancer to wait for):
  // not ready, still serving, until the balancer has taken this instance out; it then sends nothing on
  // the connections the drain closes, so no request meets a connection closing under it.
  // A second signal ends the delay at once.
  shutdown.add('readiness', async (deadline, hurry) => {
    stopping = true;
    if (config.shutdownDelayMs === 0 || hurry.aborted) return;
    log.info({ delay_ms: config.shutdownDelayMs }, 'not ready; serving until the delay ends, then draining');
    await sleep(Math.min(config.shutdownDelayMs, Math.max(0, deadline - Date.now())), undefined, { signal: hurry }).catch(() => {
      log.info('delay cut short by a second signal; draining');
    });
  });
});
