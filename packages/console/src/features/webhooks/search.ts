import {
  DELIVERY_STATUSES,
  ENDPOINT_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type DeliveryStatus,
  type EndpointStatus,
  type WebhookEventType,
} from '../../api/domain';
import { date, oneOf, pageOrNone } from '../../lib/search';

export interface WebhooksSearch {
  page?: number | undefined;
  status?: EndpointStatus | undefined;
}

export const webhooksSearch = (search: Record<string, unknown>): WebhooksSearch => ({
  page: pageOrNone(search.page),
  status: oneOf(search.status, ENDPOINT_STATUSES),
});

/** An endpoint's delivery log: its filters are in the URL, so a view of it can be shared. */
export interface DeliveriesSearch {
  page?: number | undefined;
  status?: DeliveryStatus | undefined;
  event?: WebhookEventType | undefined;
  /** UTC days, both inclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

export const deliveriesSearch = (search: Record<string, unknown>): DeliveriesSearch => ({
  page: pageOrNone(search.page),
  status: oneOf(search.status, DELIVERY_STATUSES),
  event: oneOf(search.event, WEBHOOK_EVENT_TYPES),
  from: date(search.from),
  to: date(search.to),
});
