import type { Db, Trx } from '../db/database.js';
import type { DeliveryKind, OutgoingEvent, Outcome } from '../events/dispatcher.js';
import { activeSuperAdminEmails } from '../identity/repository.js';
import type { Clock } from '../lib/clock.js';
import { enqueueEmail } from '../outbox/repository.js';
import type { HttpSender } from './http-sender.js';
import { endpointDestinations } from './repository.js';
import { signatureHeaders } from './signing.js';

/**
 * Webhooks as a kind of event target: a delivery is a signed POST of the
 * event's envelope to the endpoint's URL (Standard Webhooks headers; the
 * webhook-id is the event's ID, the same on every retry), and a 2xx answer is
 * a success. A paused endpoint's news goes to every active SUPER_ADMIN by
 * email, through the outbox, in the pausing transaction.
 */
export interface WebhookDestination {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export function createWebhookKind({ db, clock, sender }: { db: Db; clock: Clock; sender: HttpSender }): DeliveryKind<WebhookDestination> {
  return {
    async load(targetIds) {
      const rows = await endpointDestinations(db, targetIds);
      return new Map(
        rows.map((row) => [
          row.target_id,
          {
            url: row.url,
            secret: row.secret,
            previousSecret: row.previous_secret,
            previousSecretExpiresAt: row.previous_secret_expires_at,
          },
        ]),
      );
    },

    async send(destination: WebhookDestination, event: OutgoingEvent): Promise<Outcome> {
      const now = clock.now();
      const body = JSON.stringify(event);
      // During a rotation's overlap both secrets sign, so the receiver may switch whenever it likes.
      const overlapping = destination.previousSecret !== null && destination.previousSecretExpiresAt! > now;
      const secrets = overlapping ? [destination.secret, destination.previousSecret!] : [destination.secret];
      const headers = {
        ...signatureHeaders(secrets, event.id, Math.floor(now.getTime() / 1000), body),
        'user-agent': 'commerce-webhooks/1',
      };
      const result = await sender.post(destination.url, headers, body);
      return { ok: result.error === null, status: result.status, body: result.body, error: result.error };
    },

    async paused(trx: Trx, target) {
      const [destination] = await endpointDestinations(trx, [target.id]);
      // The origin only: a URL's path or query may carry the receiver's own token.
      const origin = destination ? new URL(destination.url).origin : 'unknown';
      for (const email of await activeSuperAdminEmails(trx)) {
        await enqueueEmail(trx, 'webhook_endpoint_paused', email, {
          endpoint_public_id: target.publicId,
          endpoint_origin: origin,
          failing_since: target.failingSince.toISOString(),
        });
      }
    },
  };
}
