import { EVENT_CATALOG, EventEnvelope, type EventType } from '../events/catalog.js';

/**
 * The events as OpenAPI 3.1 `webhooks`: one entry per event type, the POST
 * the service makes to a subscribed endpoint, its body the event's envelope
 * (a schema of its own under components, `<Type>Event`, and `WebhookEvent`
 * the union of them all, told apart by `type`), its headers those of the
 * Standard Webhooks signature. The typed client is generated from these, so
 * a receiver written in TypeScript is typed too.
 */
type Schema = Record<string, unknown>;

/** `order.status_changed` -> `OrderStatusChangedEvent`. */
export const eventSchemaName = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('') + 'Event';

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

const HEADERS = [
  header(
    'webhook-id',
    'The event ID: the same on every attempt and redelivery, so a receiver can drop repeats',
    'evt_3f0c5a1e9b7d4e2a8c6b0d1f2e3a4b5c',
  ),
  header('webhook-timestamp', 'When this attempt was signed, in seconds since the epoch; refuse it when far from now', '1767225600'),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` with each live secret (two during a rotation overlap); verify with any Standard Webhooks library',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

const RECEIVING = `Sent as \`POST\` with a JSON body to every active endpoint subscribed to the type, at least once: a 2xx answer within the
timeout (WEBHOOK_TIMEOUT_MS, 10 s) is a success; anything else, a redirect included (never followed), is retried with exponential backoff and
jitter for about three days under the same \`webhook-id\`. Deliveries about the same resource reach an endpoint in the order they happened.`;

export function documentWebhooks(document: Schema): void {
  const components = (document.components ??= {}) as Schema;
  const schemas = (components.schemas ??= {}) as Schema;
  const webhooks: Schema = {};
  const mapping: Record<string, string> = {};
  for (const type of Object.keys(EVENT_CATALOG) as EventType[]) {
    const entry = EVENT_CATALOG[type];
    const name = eventSchemaName(type);
    const ref = `#/components/schemas/${name}`;
    schemas[name] = {
      ...structuredClone(EventEnvelope(type, entry.version, entry.data)),
      description: `${type}, version ${entry.version}`,
    };
    mapping[type] = ref;
    webhooks[type] = {
      post: {
        operationId: `event_${type.replace(/\./g, '_')}`,
        tags: ['Webhooks'],
        summary: entry.summary,
        description: `${entry.summary}\n\nPayload version ${entry.version}; ordered by ${entry.orderedBy}.\n\n${RECEIVING}`,
        parameters: HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: ref } } } },
        responses: {
          '2XX': { description: 'Received. Anything else is retried.' },
        },
      },
    };
  }
  schemas.WebhookEvent = {
    description: 'Any event the service sends, told apart by `type`',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping },
  };
  document.webhooks = webhooks;
}
