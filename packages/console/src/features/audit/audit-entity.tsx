import { Anchor, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { AuditEntityType } from '../../api/domain';

/** What an entry is about, as the API labels it now (an order's number, an email, a SKU, a name), linked to its screen. */
export function AuditEntity({ type, id, label }: { type: AuditEntityType; id: string | null; label: string | null }) {
  const name = label ? <bdi>{label}</bdi> : id ? <bdi>{id}</bdi> : null;
  const kind = (
    <Text span size="xs" c="dimmed">
      {KIND[type]}
    </Text>
  );
  if (!name || !id) return kind;
  const linked = (anchor: ReactNode) => (
    <>
      {kind} {anchor}
    </>
  );
  switch (type) {
    case 'order':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: id }} />}>
          {name}
        </Anchor>,
      );
    case 'product':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: id }} />}>
          {name}
        </Anchor>,
      );
    case 'variant':
    case 'inventory':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/inventory/$variantId" params={{ variantId: id }} />}>
          {name}
        </Anchor>,
      );
    case 'coupon':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/coupons/$couponId" params={{ couponId: id }} />}>
          {name}
        </Anchor>,
      );
    case 'user':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: id }} />}>
          {name}
        </Anchor>,
      );
    case 'category':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/categories" />}>
          {name}
        </Anchor>,
      );
    case 'webhook_endpoint':
      return linked(
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/webhooks/$endpointId" params={{ endpointId: id }} />}>
          {name}
        </Anchor>,
      );
    default:
      return linked(name);
  }
}

const KIND: Record<AuditEntityType, string> = {
  order: 'Order',
  product: 'Product',
  variant: 'Variant',
  inventory: 'Stock of',
  category: 'Category',
  coupon: 'Coupon',
  review: 'Review of',
  expense: 'Expense',
  user: 'Account',
  session: 'Session',
  staff_invitation: 'Invitation',
  webhook_endpoint: 'Webhook endpoint',
  export: 'Export',
};

export const entityTypeLabel = (type: AuditEntityType) => KIND[type].replace(/ of$/, '');

/** `inventory.adjust` as a person reads it: "adjust", under the group "Inventory". */
export const actionGroup = (action: string) => {
  const [area = action] = action.split('.');
  return area.charAt(0).toUpperCase() + area.slice(1);
};
export const actionVerb = (action: string) => (action.split('.')[1] ?? action).replaceAll('_', ' ');
