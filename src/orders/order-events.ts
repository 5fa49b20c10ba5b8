import type { Trx } from '../db/database.js';
import type { EventOrder } from '../events/catalog.js';
import { recordEvent } from '../events/repository.js';
import type { AuthedCtx } from '../lib/context.js';
import { findOrderRow, orderDetails, toOrders } from './repository.js';
import type { AdminOrder, OrderStatus } from './schemas.js';

/** An order as events carry it (src/events/catalog.ts): the admin view's facts, without its history. */
export const toEventOrder = (order: AdminOrder): EventOrder => ({
  public_id: order.public_id,
  order_number: order.order_number,
  status: order.status,
  customer: order.customer,
  items: order.items,
  subtotal: order.subtotal,
  discount_total: order.discount_total,
  shipping_total: order.shipping_total,
  tax_total: order.tax_total,
  total: order.total,
  currency: order.currency,
  coupon_code: order.coupon_code,
  shipping_address: order.shipping_address,
  payment: order.payment,
  notes: order.notes,
  shipment: order.shipment,
  placed_at: order.placed_at,
});

/**
 * The events of a status change, in the transaction that made it (after the
 * change, so the order they carry is the new one): order.status_changed, and
 * for a cancellation order.cancelled after it, both ordered by the order.
 * Returns the order as they carry it, read once, for the change's email.
 */
export async function recordStatusEvents(
  trx: Trx,
  ctx: AuthedCtx,
  publicId: string,
  from: OrderStatus,
  to: OrderStatus,
  note: string | null,
): Promise<AdminOrder> {
  const row = await findOrderRow(trx, publicId);
  const [order] = toOrders([row!], await orderDetails(trx, [row!.id]));
  const payload = toEventOrder(order!);
  const actor = { public_id: ctx.actor.publicId, role: ctx.actor.role };
  await recordEvent(trx, 'order.status_changed', publicId, { order: payload, from, to, note, changed_by: actor });
  if (to === 'CANCELLED') await recordEvent(trx, 'order.cancelled', publicId, { order: payload, from, cancelled_by: actor });
  return order!;
}
