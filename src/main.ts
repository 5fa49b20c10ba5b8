import { buildApp } from './app.js';
import { connectDatabase } from './db/connect.js';
import { systemClock } from './lib/clock.js';
import { startProcess } from './lib/process.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/server.js';

/**
 * `npm start`: config, database (embedded unless DATABASE_URL), migrations
 * (or, with MIGRATE_ON_START=false, not ready until they are applied), HTTP.
 * SIGTERM and SIGINT drain: stop accepting, finish the requests in flight
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
  const app = await buildApp({ config, db, log, metrics, schema });
  shutdown.add('http', async (deadline) => {
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
});
