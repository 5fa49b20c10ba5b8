import { createEmailWorker } from '../../src/email/worker.js';
import type { MailTransport } from '../../src/email/transport.js';
import type { RunningApp } from './app.js';
import { waitFor } from './mail.js';

/**
 * The proof that nothing (more) arrives, without waiting on the clock: stops
 * the app's email worker (a batch under way finishes first), sends by hand
 * whatever is still due, then lets the worker poll again. Outbox rows are
 * written in the request's transaction, so once this returns, what the mail
 * catcher (or DATA_DIR/mail) holds is all a finished request will ever send.
 * Returns how many messages the hand-run batch claimed.
 */
export async function sendDueMail(t: Pick<RunningApp, 'app'>): Promise<number> {
  await t.app.emailWorker.stop();
  try {
    return await t.app.emailWorker.runOnce();
  } finally {
    t.app.emailWorker.start();
  }
}

/** The outbox rows to `recipient`, oldest first. */
export const outboxRows = (t: Pick<RunningApp, 'db'>, recipient: string) =>
  t.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('id').execute();

/** Waits until the one message to `recipient` is marked delivered, and returns its row. */
export async function deliveredRow(t: Pick<RunningApp, 'db'>, recipient: string) {
  return waitFor(async () => {
    const rows = await outboxRows(t, recipient);
    return rows.length === 1 && rows[0]!.delivered_at ? rows[0] : undefined;
  });
}

/** A second worker over the app's outbox, with a transport of its own. */
export const anotherWorker = (t: RunningApp, transport: MailTransport, leaseMs?: number) =>
  createEmailWorker({
    leaseMs,
    db: t.db,
    transport,
    clock: t.clock,
    log: t.app.log,
    mailFrom: t.config.mailFrom,
    publicBaseUrl: t.config.publicBaseUrl,
    pollIntervalMs: 10,
  });
