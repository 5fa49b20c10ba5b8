import { Type, type Static, type TSchema } from 'typebox';
import { EVENT_CATALOG, SUBSCRIBABLE_TYPES, type EventType } from '../events/catalog.js';
import { PageQuery } from '../lib/pagination.js';
import { LongText, StringEnum, Timestamp } from '../lib/schemas.js';

/** Webhook endpoints, their secrets and their delivery log, as the admin API shows them (SUPER_ADMIN). */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const SubscribableType = StringEnum(SUBSCRIBABLE_TYPES, {
  description: 'An event type of the catalog (GET /admin/webhooks/event-types)',
});

const EventTypes = Type.Array(SubscribableType, { minItems: 1, maxItems: SUBSCRIBABLE_TYPES.length, uniqueItems: true });

export const EndpointStatus = StringEnum(['ACTIVE', 'PAUSED']);

export const EndpointCreate = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'https (http only where WEBHOOK_ALLOW_HTTP allows it); not a loopback, private or link-local address',
    }),
    description: Type.Optional(LongText(500)),
    event_types: EventTypes,
    status: Type.Optional({ ...EndpointStatus, description: 'Default ACTIVE' }),
  },
  { additionalProperties: false },
);
export type EndpointCreate = Static<typeof EndpointCreate>;

export const EndpointPatch = Type.Partial(EndpointCreate, {
  additionalProperties: false,
  minProperties: 1,
  description: 'PAUSED stops deliveries (events are kept); ACTIVE resumes them, in order, from where they stopped',
});
export type EndpointPatch = Static<typeof EndpointPatch>;

export const Endpoint = Type.Object(
  {
    public_id: Type.String({ description: 'Prefixed `whe_`' }),
    url: Type.String(),
    description: Type.String(),
    event_types: Type.Array(SubscribableType),
    status: EndpointStatus,
    paused_reason: Nullable(StringEnum(['MANUAL', 'FAILING'], { description: 'FAILING: paused after a day of failed deliveries' })),
    paused_at: Nullable(Timestamp),
    failing_since: Nullable({ ...Timestamp, description: 'The first failure since the last success' }),
    previous_secret_expires_at: Nullable({ ...Timestamp, description: 'Until then the secret before the last rotation signs too' }),
    events_waiting: Type.Integer({
      minimum: 0,
      description:
        'Events for this endpoint not yet tried: kept while it is paused, a moment while it is active (counted up to 10,000; retries are in its delivery log)',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'WebhookEndpoint' },
);
export type Endpoint = Static<typeof Endpoint>;

const Secret = Type.String({ description: 'The signing secret (`whsec_...`). Shown only now: store it with the receiver.' });

export const CreatedEndpoint = Type.Object({ ...Endpoint.properties, secret: Secret });
export type CreatedEndpoint = Static<typeof CreatedEndpoint>;

export const SecretRotation = Type.Object(
  {
    overlap_seconds: Type.Integer({
      minimum: 0,
      maximum: 7 * 86400,
      default: 86400,
      description: 'How long the old secret keeps signing beside the new one (0: stops at once)',
    }),
  },
  { additionalProperties: false },
);

export const RotatedSecret = Type.Object({
  secret: Secret,
  previous_secret_expires_at: Nullable(Timestamp),
});

export const EndpointListQuery = Type.Object({ ...PageQuery, status: Type.Optional(EndpointStatus) });
export type EndpointListQuery = Static<typeof EndpointListQuery>;

export const DeliveryStatus = StringEnum(['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED']);

const DateTime = Type.String({ format: 'date-time' });

export const DeliveryListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(DeliveryStatus),
  event_type: Type.Optional(StringEnum(Object.keys(EVENT_CATALOG) as EventType[])),
  from: Type.Optional({ ...DateTime, description: 'Events at or after (inclusive)' }),
  to: Type.Optional({ ...DateTime, description: 'Events before (exclusive)' }),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const Delivery = Type.Object(
  {
    public_id: Type.String({ description: 'Prefixed `dlv_`' }),
    event: Type.Object({
      public_id: Type.String({ description: 'The `webhook-id` the receiver sees (`evt_...`), the same on every attempt' }),
      type: Type.String(),
      version: Type.Integer(),
    }),
    status: DeliveryStatus,
    in_flight: Type.Boolean({ description: 'Being sent right now' }),
    attempts: Type.Integer(),
    next_attempt_at: Nullable({ ...Timestamp, description: 'When a PENDING delivery is tried next' }),
    last_attempt_at: Nullable(Timestamp),
    latency_ms: Nullable(Type.Integer({ description: 'Of the last attempt' })),
    response_status: Nullable(Type.Integer({ description: "The receiver's HTTP status at the last attempt" })),
    response_body: Nullable(Type.String({ description: 'The first bytes (1 KB) of its answer' })),
    error: Nullable(Type.String({ description: 'Why the last failed attempt failed (kept after a later success)' })),
    delivered_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
export type Delivery = Static<typeof Delivery>;

export const DeliveryDetail = Type.Object({
  ...Delivery.properties,
  payload: Type.Unknown({ description: 'The body sent: the event envelope (see the webhooks of this document)' }),
});
export type DeliveryDetail = Static<typeof DeliveryDetail>;

export const RedeliverFailed = Type.Object(
  { since: { ...DateTime, description: 'Every FAILED delivery of an event at or after this time is sent again' } },
  { additionalProperties: false },
);

export const Redelivered = Type.Object({ redelivered: Type.Integer({ minimum: 0 }) });

export const EventTypeInfo = Type.Object({
  type: Type.String(),
  version: Type.Integer(),
  summary: Type.String(),
  ordered_by: Type.String({ description: 'Deliveries about the same one of these reach an endpoint in the order they happened' }),
  subscribable: Type.Boolean(),
});
