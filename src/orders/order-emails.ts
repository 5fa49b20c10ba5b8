import type { EmailPayloads, OrderEmailLine } from '../outbox/emails.js';
import type { AdminOrder, Order } from './schemas.js';

/** What the order emails (src/email/templates.ts) say about an order, taken from the order as the API answers it. */

/** The lines as an email lists them: the checkout snapshot, without the IDs. */
export const orderEmailLines = (items: Order['items']): OrderEmailLine[] =>
  items.map(({ product_name, sku, options, quantity, unit_price, line_total }) => ({
    product_name,
    sku,
    options,
    quantity,
    unit_price,
    line_total,
  }));

/** The cancellation email of an order just cancelled (read after the change, so its payment status is the new one). */
export const orderCancelledEmail = (order: AdminOrder, cancelledBy: 'customer' | 'staff'): EmailPayloads['order_cancelled'] => ({
  order_public_id: order.public_id,
  order_number: order.order_number,
  subtotal: order.subtotal,
  discount_total: order.discount_total,
  shipping_total: order.shipping_total,
  tax_total: order.tax_total,
  total: order.total,
  coupon_code: order.coupon_code,
  currency: order.currency,
  items: orderEmailLines(order.items),
  refunded: order.payment.status === 'REFUNDED',
  cancelled_by: cancelledBy,
});
