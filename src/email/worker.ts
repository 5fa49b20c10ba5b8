import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import type { EmailKind } from '../outbox/outbox.js';
import { keyIn } from '../lib/sql.js';
import { renderEmail } from './templates.js';
import type { MailTransport } from './transport.js';

/**
 * Delivers the outbox. A batch is claimed in one short statement (FOR UPDATE
 * SKIP LOCKED, so several instances never take the same message) that moves
 * the messages' next attempt past a lease; they are sent with no transaction
 * open, and the delivered ones are marked in one statement. A crash between
 * sending and marking leaves a message pending until its lease ends, and it
 * is sent again (at least once, never lost). Failures retry with exponential
 * backoff: 10 s, 20 s, 40 s ... capped at 1 h.
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
/** How long a claimed batch stays hidden from other workers: well past the longest a batch can take (20 sends, each up to 40 s of SMTP timeouts). */
const LEASE_MS = 30 * 60_000;
const backoffMs = (attempts: number) => Math.min(10_000 * 2 ** (attempts - 1), 3_600_000);

export function createEmailWorker(deps: EmailWorkerDeps) {
  const { db, transport, clock, log } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = true;

  /** Takes up to BATCH due messages nobody else holds and hides them from other workers for the lease. */
  function claim() {
    const due = db
      .selectFrom('outbox')
      .select('id')
      .where('delivered_at', 'is', null)
      .where('next_attempt_at', '<=', clock.now())
      .orderBy('id')
      .limit(BATCH)
      .forUpdate()
      .skipLocked();
    return db
      .updateTable('outbox')
      .set({ next_attempt_at: new Date(clock.now().getTime() + LEASE_MS) })
      .where(keyIn('id', due))
      .returning(['id', 'kind', 'recipient', 'payload', 'attempts'])
      .execute();
  }

  async function runOnce(): Promise<number> {
    const batch = (await claim()).sort((a, b) => a.id - b.id);
    const delivered: { id: number; attempts: number; payload: Record<string, unknown> }[] = [];
    for (const message of batch) {
      try {
        const email = renderEmail(message.kind as EmailKind, message.payload, deps.publicBaseUrl);
        const sent = await transport.send({ from: deps.mailFrom, to: message.recipient, subject: email.subject, text: email.text, html: email.html });
        // Once sent, the token is no longer needed in the database; the rest stays for support.
        const { token: _token, ...kept } = message.payload;
        delivered.push({ id: message.id, attempts: message.attempts + 1, payload: kept });
        if (sent.file) log.info({ kind: message.kind, file: sent.file, link: email.link }, 'email written to file (no SMTP_URL configured)');
      } catch (error) {
        const attempts = message.attempts + 1;
        const retryAt = attempts >= MAX_ATTEMPTS ? sql<Date>`'infinity'::timestamptz` : new Date(clock.now().getTime() + backoffMs(attempts));
        await db
          .updateTable('outbox')
          .set({ attempts, next_attempt_at: retryAt, last_error: String((error as Error)?.message ?? error).slice(0, 500) })
          .where('id', '=', message.id)
          .execute();
        log.warn({ kind: message.kind, outbox_id: message.id, attempts, err: error }, 'email delivery failed; will retry');
      }
    }
    if (delivered.length > 0) {
      await sql`
        UPDATE outbox o SET delivered_at = ${clock.now()}, attempts = d.attempts, payload = d.payload, last_error = NULL
        FROM jsonb_to_recordset(${JSON.stringify(delivered)}::jsonb) AS d(id bigint, attempts integer, payload jsonb)
        WHERE o.id = d.id
      `.execute(db);
    }
    return batch.length;
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
