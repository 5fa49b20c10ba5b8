import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { backgroundLoop } from '../lib/background-loop.js';
import type { Clock } from '../lib/clock.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import type { QueuedEmail } from '../outbox/emails.js';
import { claimDueEmails, markEmailDelivered, recordEmailFailure, releaseEmailClaim, renewEmailLease } from '../outbox/repository.js';
import { renderEmail } from './templates.js';
import type { MailTransport } from './transport.js';

/**
 * Delivers the outbox. A batch is claimed in one short statement (FOR UPDATE
 * SKIP LOCKED, so several workers, in any number of processes, never take the
 * same message) that tags the messages with a claim and hides them for a
 * short lease. While the worker is alive a heartbeat renews the lease of the
 * messages its claim still holds, so a batch never expires under a live
 * worker however slow SMTP is, and a dead worker's batch is taken over once
 * its lease ends (a minute by default); a worker whose heartbeats fail stops
 * sending before its lease can run out. Messages are sent with no
 * transaction open and each is marked delivered as soon as it is sent (the
 * mark retried across lost connections), so a crash sends again at most the
 * one in flight; its Message-ID is derived from the outbox row, so a repeat is
 * recognisable as the same message. Failures retry with exponential backoff:
 * 10 s, 20 s, 40 s ... capped at 1 h.
 */
export interface EmailWorkerDeps {
  db: Db;
  transport: MailTransport;
  clock: Clock;
  log: FastifyBaseLogger;
  mailFrom: string;
  publicBaseUrl: string;
  pollIntervalMs: number;
  leaseMs?: number;
}

const BATCH = 20;
const MAX_ATTEMPTS = 15;
const DEFAULT_LEASE_MS = 60_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const backoffMs = (attempts: number) => Math.min(10_000 * 2 ** (attempts - 1), 3_600_000);

/** The same message always carries the same Message-ID: `<outbox-ID@host of the store>`. */
export const messageIdOf = (outboxId: number, publicBaseUrl: string) => `<outbox-${outboxId}@${new URL(publicBaseUrl).hostname}>`;

export function createEmailWorker(deps: EmailWorkerDeps) {
  const { db, transport, clock, log } = deps;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  let releasing = false;

  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs);

  /** Takes up to BATCH due messages nobody else holds, under a new claim. */
  const claimBatch = (claim: string) => claimDueEmails(db, claim, clock.now(), leaseEnd(), BATCH);
  /** Renews the lease on what the claim still holds of its batch; returns the IDs it holds. */
  const heartbeat = (claim: string, ids: number[]) => renewEmailLease(db, claim, ids, leaseEnd());
  /** Hands back what the claim holds of its batch and has not sent, due at once (a stopping worker's unsent messages). */
  const release = (claim: string, ids: number[]) => releaseEmailClaim(db, claim, ids, clock.now());

  async function runOnce(): Promise<number> {
    const claim = randomUUID();
    let leaseUntil = leaseEnd().getTime();
    const batch = (await claimBatch(claim)).sort((a, b) => a.id - b.id);
    if (batch.length === 0) return 0;
    const ids = batch.map((message) => message.id);
    let held = new Set(ids);
    const beat = setInterval(
      () => {
        const renewedUntil = leaseEnd().getTime();
        heartbeat(claim, ids).then(
          (still) => {
            leaseUntil = renewedUntil;
            const lost = [...held].filter((id) => !still.has(id));
            if (lost.length > 0) log.warn({ outbox_ids: lost }, 'email lease lost (this worker was too slow); another worker sends them');
            held = new Set([...held].filter((id) => still.has(id)));
          },
          (error: unknown) => log.warn({ err: error }, 'email lease heartbeat failed'),
        );
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    beat.unref();
    const lease = { claim, left: () => leaseUntil - clock.now().getTime() };
    try {
      for (const message of batch) {
        if (releasing) break;
        // Heartbeats that keep failing (the database is away) let the lease run out; past a third of it
        // left, another worker may take these soon, so this one stops sending.
        if (lease.left() < leaseMs / 3) {
          log.warn({ claim }, 'email lease not renewed; leaving the rest of the batch to be taken over');
          break;
        }
        if (!held.has(message.id)) continue;
        await deliver(message, lease);
        held.delete(message.id);
      }
    } finally {
      clearInterval(beat);
      await release(claim, ids);
    }
    return batch.length;
  }

  /** The claim a batch was taken under, and how long its lease has left (ms) as of the last renewal. */
  type Lease = { claim: string; left: () => number };

  async function deliver(
    message: { id: number; kind: string; recipient: string; payload: Record<string, unknown>; attempts: number },
    lease: Lease,
  ) {
    const attempts = message.attempts + 1;
    let sent: Awaited<ReturnType<MailTransport['send']>>;
    let link: string | null;
    try {
      // The kind and payload were written together by enqueueEmail, typed by kind.
      const email = renderEmail({ kind: message.kind, payload: message.payload } as QueuedEmail, deps.publicBaseUrl);
      link = email.link;
      sent = await transport.send({
        from: deps.mailFrom,
        to: message.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: messageIdOf(message.id, deps.publicBaseUrl),
      });
    } catch (error) {
      // Only while this claim still holds the message: a worker whose lease lapsed must not push back one another is sending.
      const retryAt = attempts >= MAX_ATTEMPTS ? null : new Date(clock.now().getTime() + backoffMs(attempts));
      await recordEmailFailure(db, message.id, lease.claim, attempts, retryAt, String((error as Error)?.message ?? error));
      log.warn({ kind: message.kind, outbox_id: message.id, attempts, err: error }, 'email delivery failed; will retry');
      return;
    }
    await markDelivered(message, attempts, lease);
    if (sent.file) log.info({ kind: message.kind, file: sent.file, link }, 'email written to file (no SMTP_URL configured)');
  }

  /**
   * A sent message is marked delivered whoever holds it now (sent is sent).
   * The mark is retried while the connection to the database is lost and the
   * lease lasts, so a failover right after the SMTP answer does not send the
   * message again; only a database away for the whole lease can (at least
   * once, under the same Message-ID).
   */
  async function markDelivered(message: { id: number; kind: string; payload: Record<string, unknown> }, attempts: number, lease: Lease) {
    // Once sent, the token is no longer needed in the database; the rest stays for support.
    const { token: _token, ...kept } = message.payload;
    for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
      try {
        await markEmailDelivered(db, message.id, attempts, kept, clock.now());
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || lease.left() <= 0) {
          log.error(
            { err: error, outbox_id: message.id, kind: message.kind },
            'email sent but not marked delivered; it may be sent again under the same Message-ID',
          );
          throw error;
        }
        await sleep(delay);
      }
    }
  }

  const loop = backgroundLoop({
    run: runOnce,
    // A full batch means more may be waiting: go again at once.
    pauseAfter: (count) => (count === BATCH ? 0 : deps.pollIntervalMs),
    retryMs: deps.pollIntervalMs,
    onError: (error) => log.error({ err: error }, 'email worker batch failed'),
  });

  return {
    runOnce,
    start: () => loop.start(0),
    /** Stops polling; the message being sent finishes, the rest of the batch is handed back (due at once). */
    async stop() {
      releasing = true;
      log.info('email worker stopping: the message being sent finishes, the rest of its batch is handed back');
      await loop.stop();
      releasing = false; // a later runOnce (tests drive it by hand) sends its whole batch
    },
  };
}

export type EmailWorker = ReturnType<typeof createEmailWorker>;
