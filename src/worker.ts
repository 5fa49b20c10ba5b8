import { connectDatabase } from './db/connect.js';
import { createDispatch } from './event-dispatch.js';
import { createMailTransport } from './email/transport.js';
import { createEmailWorker } from './email/worker.js';
import { createPruner } from './housekeeping/pruner.js';
import { systemClock } from './lib/clock.js';
import { startProcess } from './lib/process.js';
import { lastServedBaseUrl } from './media-endpoint.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/server.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Logger } from 'pino';

/**
 * `npm run worker`: the background work in a process of its own: the
 * outbox's email worker (run the API with EMAIL_WORKER=off, or beside
 * in-process workers: claims keep every message to one sender), the event
 * dispatcher that delivers webhooks (EVENT_WORKER=off on the API; claims
 * likewise keep each delivery to one dispatcher) and the pruner (safe to run
 * in any number of processes at once), with its own /metrics on WORKER_METRICS_PORT. SIGTERM lets the worker finish the
 * message it is sending and hand back the rest of its batch, and the
 * dispatcher finish the attempts under way.
 */
startProcess(async ({ config, log, shutdown }) => {
  let metrics: Metrics | null = null;
  const { db, schema } = await connectDatabase(config, log, shutdown, () => metrics?.connectionLost());
  // Its own /metrics: the outbox and delivery backlogs, the purges it sends, its pool and Node's own.
  metrics = createMetrics({ db, clock: systemClock });
  if (config.metrics.workerPort !== null) {
    const server = await startMetricsServer({ registry: metrics.registry, ...config.metrics, port: config.metrics.workerPort, log });
    if (server) shutdown.add('metrics', () => new Promise<void>((resolve) => server.close(() => resolve())));
  }
  // On a schema behind the code (MIGRATE_ON_START=false) nothing runs until `npm run db:migrate` has been.
  await schema.current;
  const transport = createMailTransport(config, systemClock);
  const worker = createEmailWorker({
    db,
    transport,
    clock: systemClock,
    log,
    mailFrom: config.mailFrom,
    publicBaseUrl: await linkBase(config, db, log),
    pollIntervalMs: config.emailPollIntervalMs,
    leaseMs: config.emailLeaseMs,
  });
  shutdown.add('email worker', async () => {
    await worker.stop();
    transport.close();
  });
  const dispatch = createDispatch({ db, clock: systemClock, log, config, registry: metrics.registry });
  shutdown.add('event dispatcher', () => dispatch.close());
  const pruner = createPruner({ db, clock: systemClock, log, retention: config.retention });
  shutdown.add('pruner', () => pruner.stop());
  worker.start();
  await dispatch.start();
  pruner.start();
  log.info('email worker and pruner started');
  log.info('event dispatcher started');
});

/**
 * The shop's address the email links start with. PUBLIC_BASE_URL when set (as in production, on the API
 * and here alike); unset, the address the API last started with (recorded with its image host), not
 * this process's own default of localhost and its PORT, which a worker that serves nothing need not share.
 */
async function linkBase(config: Config, db: Db, log: Logger): Promise<string> {
  if (config.publicBaseUrlSet) return config.publicBaseUrl;
  const base = await lastServedBaseUrl(db, config);
  if (base) {
    log.info({ public_base_url: base }, 'PUBLIC_BASE_URL is not set: email links use the address the service last started with');
    return base;
  }
  log.warn(
    { public_base_url: config.publicBaseUrl },
    "PUBLIC_BASE_URL is not set: email links use this default; set it to the shop's address, as on the API",
  );
  return config.publicBaseUrl;
}
