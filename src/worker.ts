import { connectDatabase } from './db/connect.js';
import { createMailTransport } from './email/transport.js';
import { createEmailWorker } from './email/worker.js';
import { systemClock } from './lib/clock.js';
import { startProcess } from './lib/process.js';

/**
 * `npm run worker`: the outbox's email worker in a process of its own (run
 * the API with EMAIL_WORKER=off, or beside in-process workers: claims keep
 * every message to one sender). SIGTERM lets it finish the message it is
 * sending and hand back the rest of its batch.
 */
startProcess(async ({ config, log, shutdown }) => {
  const db = await connectDatabase(config, log, shutdown);
  const transport = createMailTransport(config);
  const worker = createEmailWorker({
    db,
    transport,
    clock: systemClock,
    log,
    mailFrom: config.mailFrom,
    publicBaseUrl: config.publicBaseUrl,
    pollIntervalMs: config.emailPollIntervalMs,
    leaseMs: config.emailLeaseMs,
  });
  shutdown.add('email worker', async () => {
    await worker.stop();
    transport.close();
  });
  worker.start();
  log.info('email worker started');
});
