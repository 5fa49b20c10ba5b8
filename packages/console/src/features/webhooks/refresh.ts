import type { DataOf } from '@commerce/client';

export type Delivery = DataOf<'/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries', 'get'>[number];

/**
 * How soon an endpoint's delivery log is read again. It moves on its own (the dispatcher): every few
 * seconds, and every second while a delivery on view is due within those seconds, so what a person
 * just sent (a test event, a delivery sent again, a resumed endpoint's backlog) shows its outcome at once.
 */
export function deliveriesRefreshMs(deliveries: readonly Pick<Delivery, 'status' | 'next_attempt_at'>[], now = Date.now()): number {
  const dueSoon = deliveries.some(
    (delivery) =>
      delivery.status === 'PENDING' && (delivery.next_attempt_at === null || Date.parse(delivery.next_attempt_at) <= now + 5_000),
  );
  return dueSoon ? 1_000 : 5_000;
}
