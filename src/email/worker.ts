import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { EmailKind } from '../outbox/outbox.js';
import { renderEmail } from './templates.js';
import type { MailTransport } from './transport.js';

/**
 * Delivers the outbox. Each batch is claimed with FOR UPDATE SKIP LOCKED, so
 * several instances never send the same message; a message is marked
 * delivered in the same transaction that claimed it, so a crash before the
 * commit leaves it pending and it is sent again (at least once, never lost).
 * Failures retry with exponential backoff: 10 s, 20 s, 40 s ... capped at 1 h.
 */
export interface EmailWorkerDeps {
  db: Db;
  transport: MailTransport;
  clock: Clock;
  log: FastifyBaseLogger;
  mailFrom: string;
  publicBaseUrl: string;
  pollIntervalMs: number;
}

const BATCH = 20;
const MAX_ATTEMPTS = 15;
const backoffMs = (attempts: number) => Math.min(10_000 * 2 ** (attempts - 1), 3_600_000);

export function createEmailWorker(deps: EmailWorkerDeps) {
  const { db, transport, clock, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = true;

  async function runOnce(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const batch = await trx
        .selectFrom('outbox')
        .select(['id', 'kind', 'recipient', 'payload', 'attempts'])
        .where('delivered_at', 'is', null)
        .where('next_attempt_at', '<=', clock.now())
        .orderBy('id')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      for (const message of batch) {
        const email = renderEmail(message.kind as EmailKind, message.payload, deps.publicBaseUrl);
        try {
          const sent = await transport.send({ from: deps.mailFrom, to: message.recipient, subject: email.subject, text: email.text, html: email.html });
          // Once sent, the token is no longer needed in the database; the rest stays for support.
          const { token: _token, ...kept } = message.payload;
          await trx
            .updateTable('outbox')
            .set({ delivered_at: clock.now(), attempts: message.attempts + 1, payload: JSON.stringify(kept), last_error: null })
            .where('id', '=', message.id)
            .execute();
          if (sent.file) log.info({ kind: message.kind, file: sent.file, link: email.link }, 'email written to file (no SMTP_URL configured)');
        } catch (error) {
          const attempts = message.attempts + 1;
          const retryAt = attempts >= MAX_ATTEMPTS ? sql<Date>`'infinity'::timestamptz` : new Date(clock.now().getTime() + backoffMs(attempts));
          await trx
            .updateTable('outbox')
            .set({ attempts, next_attempt_at: retryAt, last_error: String((error as Error)?.message ?? error).slice(0, 500) })
            .where('id', '=', message.id)
            .execute();
          log.warn({ kind: message.kind, outbox_id: message.id, attempts, err: error }, 'email delivery failed; will retry');
        }
      }
      return batch.length;
    });
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce().catch((error: unknown) => {
        log.error({ err: error }, 'email worker batch failed');
        return 0;
      });
      void running.then((count) => {
        running = null;
        // A full batch means more may be waiting: go again at once.
        schedule(count === BATCH ? 0 : deps.pollIntervalMs);
      });
    }, delay);
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    /** Stops polling and waits for a batch in flight to finish. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await running;
    },
  };
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;
