import { randomUUID } from 'node:crypto';
import { writeAudit } from '../audit/audit-log.js';
import type { Db, Trx } from '../db/database.js';
import { transaction } from '../db/transaction.js';
import { EVENT_CATALOG, SUBSCRIBABLE_TYPES, type EventType } from '../events/catalog.js';
import { cancelPendingDeliveries, deliverPendingNow, redeliverFailedSince, redeliverOne } from '../events/delivery-repository.js';
import { countDeliveries, findDelivery, listDeliveries, type DeliveryLogRow } from '../events/log-repository.js';
import { recordEvent } from '../events/repository.js';
import { deleteTarget, insertTarget, lockTarget, updateTarget, type TargetRow } from '../events/target-repository.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { toPage } from '../lib/pagination.js';
import type { AddressPolicy } from './address-policy.js';
import { checkEndpointUrl } from './endpoint-url.js';
import type { Resolve } from './http-sender.js';
import {
  countEndpoints,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type EndpointRow,
} from './repository.js';
import type {
  CreatedEndpoint,
  Delivery,
  DeliveryDetail,
  DeliveryListQuery,
  Endpoint,
  EndpointCreate,
  EndpointListQuery,
  EndpointPatch,
} from './schemas.js';
import { newSigningSecret } from './signing.js';

export interface WebhookServiceDeps {
  db: Db;
  clock: Clock;
  allowHttp: boolean;
  policy: AddressPolicy;
  resolve: Resolve;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const toEndpoint = (row: EndpointRow): Endpoint => ({
  public_id: row.public_id,
  url: row.url,
  description: row.description,
  event_types: row.event_types as EventType[] as Endpoint['event_types'],
  status: row.status,
  paused_reason: row.paused_reason,
  paused_at: iso(row.paused_at),
  failing_since: iso(row.failing_since),
  previous_secret_expires_at: iso(row.previous_secret_expires_at),
  events_waiting: row.events_waiting,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** A delivery as the log shows it; `now` tells a claim whose lease runs (in flight) from one whose sender died. */
const toDelivery = (row: Omit<DeliveryLogRow, 'total_count'>, now: Date): Delivery => {
  const inFlight = row.state === 'PENDING' && row.claim !== null && row.next_attempt_at > now;
  return {
    public_id: row.public_id,
    event: { public_id: row.event_public_id, type: row.type, version: row.version },
    status: row.state,
    in_flight: inFlight,
    attempts: row.attempts,
    next_attempt_at: row.state === 'PENDING' && !inFlight ? row.next_attempt_at.toISOString() : null,
    last_attempt_at: iso(row.last_attempt_at),
    latency_ms: row.latency_ms,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.last_error,
    delivered_at: iso(row.delivered_at),
    created_at: row.created_at.toISOString(),
  };
};

/** What an audit entry records of an endpoint: never a secret. */
const audited = (e: { url: string; description: string; event_types: string[]; status: string }) => ({
  url: e.url,
  description: e.description,
  event_types: e.event_types,
  status: e.status,
});

/**
 * Webhook endpoints (SUPER_ADMIN): each is an event target of kind
 * `webhook` (src/events/) with its URL and signing secrets. The secret is
 * shown once, when made (at creation or rotation); every write is audited
 * without it. Deliveries are the event stream's; this module lists them and
 * sends them again on request.
 */
export function createWebhookService({ db, clock, ...rules }: WebhookServiceDeps) {
  const url = (raw: string) => checkEndpointUrl(raw, rules);

  async function read(trx: Trx | Db, publicId: string): Promise<EndpointRow> {
    const row = isPublicId('whe', publicId) ? await findEndpoint(trx, publicId) : undefined;
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  /** The endpoint's target, row-locked: every write that touches its deliveries takes it first (src/db/LOCKING.md). */
  async function lock(trx: Trx, publicId: string): Promise<TargetRow> {
    const target = isPublicId('whe', publicId) ? await lockTarget(trx, 'webhook', publicId) : undefined;
    if (!target) throw notFound('Webhook endpoint');
    return target;
  }

  async function deliveryOf(executor: Trx | Db, targetId: number, publicId: string): Promise<DeliveryDetail> {
    const row = isPublicId('dlv', publicId) ? await findDelivery(executor, targetId, publicId) : undefined;
    if (!row) throw notFound('Delivery');
    const payload = {
      id: row.event_public_id,
      type: row.type,
      version: row.version,
      timestamp: row.event_created_at.toISOString(),
      data: row.payload,
    };
    return { ...toDelivery(row, clock.now()), payload };
  }

  return {
    eventTypes: () =>
      (Object.keys(EVENT_CATALOG) as EventType[]).map((type) => ({
        type,
        version: EVENT_CATALOG[type].version,
        summary: EVENT_CATALOG[type].summary,
        ordered_by: EVENT_CATALOG[type].orderedBy,
        subscribable: (SUBSCRIBABLE_TYPES as readonly string[]).includes(type),
      })),

    async list(query: EndpointListQuery) {
      const rows = await listEndpoints(db, query.status, query);
      return toPage(rows, query, () => countEndpoints(db, query.status), toEndpoint);
    },

    get: async (publicId: string): Promise<Endpoint> => toEndpoint(await read(db, publicId)),

    async create(ctx: AuthedCtx, input: EndpointCreate): Promise<CreatedEndpoint> {
      const href = await url(input.url);
      const secret = newSigningSecret();
      return transaction(db, async (trx) => {
        const target = await insertTarget(trx, {
          publicId: newPublicId('whe'),
          kind: 'webhook',
          eventTypes: input.event_types,
          status: input.status ?? 'ACTIVE',
          now: clock.now(),
        });
        const description = input.description ?? '';
        await insertEndpoint(trx, { targetId: target.id, url: href, description, secret });
        const endpoint = toEndpoint(await read(trx, target.public_id));
        await writeAudit(trx, ctx, {
          action: 'webhook.create',
          entityType: 'webhook_endpoint',
          entityPublicId: endpoint.public_id,
          changes: { before: null, after: audited(endpoint) },
        });
        return { ...endpoint, secret };
      });
    },

    async update(ctx: AuthedCtx, publicId: string, patch: EndpointPatch): Promise<Endpoint> {
      const href = patch.url === undefined ? undefined : await url(patch.url);
      return transaction(db, async (trx) => {
        const target = await lock(trx, publicId);
        const before = toEndpoint(await read(trx, publicId));
        const now = clock.now();
        const resumed = patch.status === 'ACTIVE' && target.status === 'PAUSED';
        if (patch.event_types || (patch.status && patch.status !== target.status)) {
          await updateTarget(
            trx,
            target.id,
            { eventTypes: patch.event_types, status: patch.status !== target.status ? patch.status : undefined },
            now,
          );
        }
        await updateEndpoint(trx, target.id, {
          ...(href !== undefined ? { url: href } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
        });
        // Resumed: what waited goes out now, in order, not at the end of a backoff meant for a receiver that was down.
        if (resumed) await deliverPendingNow(trx, target.id, now);
        const after = toEndpoint(await read(trx, publicId));
        await writeAudit(trx, ctx, {
          action: 'webhook.update',
          entityType: 'webhook_endpoint',
          entityPublicId: publicId,
          changes: { before: audited(before), after: audited(after) },
        });
        return after;
      });
    },

    async remove(ctx: AuthedCtx, publicId: string): Promise<void> {
      await transaction(db, async (trx) => {
        const target = await lock(trx, publicId);
        const before = toEndpoint(await read(trx, publicId));
        await deleteTarget(trx, target.id, clock.now());
        await cancelPendingDeliveries(trx, target.id);
        await writeAudit(trx, ctx, {
          action: 'webhook.delete',
          entityType: 'webhook_endpoint',
          entityPublicId: publicId,
          changes: { before: audited(before), after: null },
        });
      });
    },

    /** A new secret, shown once; the old one keeps signing beside it for `overlapSeconds`. */
    async rotateSecret(ctx: AuthedCtx, publicId: string, overlapSeconds: number) {
      const secret = newSigningSecret();
      return transaction(db, async (trx) => {
        const target = await lock(trx, publicId);
        const until = overlapSeconds > 0 ? new Date(clock.now().getTime() + overlapSeconds * 1000) : null;
        await rotateSecret(trx, target.id, secret, until);
        await writeAudit(trx, ctx, {
          action: 'webhook.rotate_secret',
          entityType: 'webhook_endpoint',
          entityPublicId: publicId,
          changes: { before: null, after: { previous_secret_expires_at: iso(until) } },
        });
        return { secret, previous_secret_expires_at: iso(until) };
      });
    },

    /** A `webhook.test` event for this endpoint alone; on a paused endpoint it waits with the rest until resumed. */
    async sendTest(ctx: AuthedCtx, publicId: string): Promise<Delivery> {
      return transaction(db, async (trx) => {
        const target = await lock(trx, publicId);
        const eventId = await recordEvent(
          trx,
          'webhook.test',
          `test:${randomUUID()}`,
          { endpoint_public_id: publicId, message: 'A test event, sent on request.' },
          target.id,
        );
        const [row] = await listDeliveries(trx, target.id, { type: 'webhook.test' }, { page: 1, limit: 1 });
        await writeAudit(trx, ctx, {
          action: 'webhook.test',
          entityType: 'webhook_endpoint',
          entityPublicId: publicId,
          changes: { after: { event: eventId } },
        });
        return toDelivery(row!, clock.now());
      });
    },

    async deliveries(publicId: string, query: DeliveryListQuery) {
      const endpoint = await read(db, publicId);
      const filters = {
        state: query.status,
        type: query.event_type,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      };
      const rows = await listDeliveries(db, endpoint.id, filters, query);
      const now = clock.now();
      return toPage(
        rows,
        query,
        () => countDeliveries(db, endpoint.id, filters),
        (row) => toDelivery(row, now),
      );
    },

    delivery: async (publicId: string, deliveryPublicId: string) => deliveryOf(db, (await read(db, publicId)).id, deliveryPublicId),

    /** Sends one delivery again (a new round of retries, the same webhook-id); one being sent right now is left to finish. */
    async redeliver(ctx: AuthedCtx, publicId: string, deliveryPublicId: string): Promise<Delivery> {
      return transaction(db, async (trx) => {
        const target = await lock(trx, publicId);
        const before = await deliveryOf(trx, target.id, deliveryPublicId);
        await redeliverOne(trx, target.id, deliveryPublicId, clock.now());
        await writeAudit(trx, ctx, {
          action: 'webhook.redeliver',
          entityType: 'webhook_endpoint',
          entityPublicId: publicId,
          changes: {
            before: { delivery: deliveryPublicId, status: before.status },
            after: { delivery: deliveryPublicId, status: 'PENDING' },
          },
        });
        const { payload: _payload, ...after } = await deliveryOf(trx, target.id, deliveryPublicId);
        return after;
      });
    },

    /** Every delivery that gave up (FAILED) for an event at or after `since`, sent again; returns how many. */
    async redeliverFailed(ctx: AuthedCtx, publicId: string, since: string): Promise<{ redelivered: number }> {
      return transaction(db, async (trx) => {
        const target = await lock(trx, publicId);
        const redelivered = await redeliverFailedSince(trx, target.id, new Date(since), clock.now());
        await writeAudit(trx, ctx, {
          action: 'webhook.redeliver_failed',
          entityType: 'webhook_endpoint',
          entityPublicId: publicId,
          changes: { after: { since, redelivered } },
        });
        return { redelivered };
      });
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
