import type { OrderStatus } from '../../api/domain';
import { accountKeys, couponKeys, inventoryKeys, orderKeys, productKeys, reportKeys, statsKeys } from '../../api/query-keys';
import { titleCase } from '../../lib/format';

/**
 * How the order screen offers a move: its button's words and colour. Which moves an order can take
 * is the API's answer (`allowed_transitions`); this only names them.
 */
export interface Step {
  to: OrderStatus;
  label: string;
  color?: string;
}

const LABELS: Partial<Record<OrderStatus, Omit<Step, 'to'>>> = {
  CONFIRMED: { label: 'Confirm' },
  SHIPPED: { label: 'Ship' },
  FULFILLED: { label: 'Mark fulfilled' },
  CANCELLED: { label: 'Cancel order', color: 'red' },
};

export const stepTo = (to: OrderStatus): Step => ({ to, ...(LABELS[to] ?? { label: titleCase(to) }) });

export interface OrderFacts {
  items: { sku: string; quantity: number }[];
  coupon_code: string | null;
}

/** "2 × MUG-1, 1 × MUG-2": the order's units per SKU (lines of one variant counted together, as the API does). */
export function units(items: OrderFacts['items']): string {
  const bySku = new Map<string, number>();
  for (const item of items) bySku.set(item.sku, (bySku.get(item.sku) ?? 0) + item.quantity);
  return [...bySku].map(([sku, quantity]) => `${quantity} × ${sku}`).join(', ');
}

/**
 * What a step does, line by line, as src/orders/service.ts does it: confirming keeps the
 * reservation, shipping takes the units out of on hand and reserved (and emails the customer),
 * cancelling gives the reserved units back, releases the coupon use and marks the payment refunded.
 */
export function stepEffects(to: OrderStatus, order: OrderFacts): string[] {
  const lines = units(order.items);
  switch (to) {
    case 'CONFIRMED':
      return [`Stock stays reserved for this order: ${lines}.`];
    case 'SHIPPED':
      return [`Shipping takes ${lines} out of on hand and reserved stock.`, 'The customer is emailed the carrier and tracking number.'];
    case 'CANCELLED':
      return [
        `Cancelling releases ${lines} back to available stock.`,
        ...(order.coupon_code ? [`The use of coupon ${order.coupon_code} is released: it counts as unused again.`] : []),
        'The payment is marked refunded. A cancelled order cannot be reopened.',
      ];
    default:
      return ['No stock change.'];
  }
}

/** The change a step sends: the carrier and tracking number only when shipping, a note when written. */
export function statusChange(step: Step, values: { carrier: string; tracking_number: string; note: string }) {
  const shipping = step.to === 'SHIPPED';
  return {
    status: step.to,
    ...(shipping ? { carrier: values.carrier.trim() } : {}),
    ...(shipping && values.tracking_number.trim() ? { tracking_number: values.tracking_number.trim() } : {}),
    ...(values.note.trim() ? { note: values.note.trim() } : {}),
  };
}

/**
 * What moving an order to `to` changes beyond the order itself (src/orders/service.ts): every step
 * moves the dashboard's figures; shipping takes units out of stock and cancelling gives reserved ones
 * back (the inventory screens, a product's variants); cancelling also gives back the coupon use,
 * leaves the P&L and the customer's spend.
 */
export function changedByMove(to: OrderStatus) {
  return [
    orderKeys.all,
    statsKeys.all,
    ...(to === 'SHIPPED' || to === 'CANCELLED' ? [inventoryKeys.all, productKeys.all] : []),
    ...(to === 'CANCELLED' ? [couponKeys.all, reportKeys.all, accountKeys.all] : []),
  ];
}
