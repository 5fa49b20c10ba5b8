import type { RunningApp } from './app.js';

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
