import type { components, webhooks } from './generated/openapi.js';

/**
 * What the service POSTs to a webhook endpoint: one envelope per event
 * (`id`, `type`, `version`, `timestamp`, `data`), from the `webhooks` of its
 * OpenAPI document. Narrow on `type` to get the event's `data`.
 */
export type WebhookEvent = components['schemas']['WebhookEvent'];
export type WebhookEventType = WebhookEvent['type'];
/** The one event of this type: `WebhookEventOf<'order.placed'>['data']['order']`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

export type { webhooks };
