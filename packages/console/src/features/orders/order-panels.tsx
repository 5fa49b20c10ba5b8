import { Paper, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconPackage, IconTruck, IconX } from '@tabler/icons-react';
import type { OrderStatus } from '../../api/domain';
import { titleCase, when } from '../../lib/format';
import type { OrderDetail } from './api';

/** Where the order goes, and with which carrier once shipped. */
export function ShipTo({ order }: { order: OrderDetail }) {
  const address = order.shipping_address;
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Ship to
      </Title>
      <Text>{address.recipient_name}</Text>
      <Text size="sm">{address.address_1}</Text>
      {address.address_2 ? <Text size="sm">{address.address_2}</Text> : null}
      <Text size="sm">{[address.zip_code, address.city, address.state].filter(Boolean).join(' ')}</Text>
      <Text size="sm">{address.country}</Text>
      <Text size="sm" c="dimmed">
        {address.phone_number}
      </Text>
      {order.shipment ? (
        <Text size="sm" mt="xs">
          Shipped with {order.shipment.carrier}
          {order.shipment.tracking_number ? `, tracking ${order.shipment.tracking_number}` : ''}
        </Text>
      ) : null}
    </Paper>
  );
}

export function Payment({ order }: { order: OrderDetail }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Payment
      </Title>
      <Text size="sm">
        {titleCase(order.payment.method)} · {titleCase(order.payment.status)}
      </Text>
    </Paper>
  );
}

const ICONS: Record<OrderStatus, typeof IconCheck> = {
  PLACED: IconPackage,
  CONFIRMED: IconCheck,
  SHIPPED: IconTruck,
  FULFILLED: IconCheck,
  CANCELLED: IconX,
};

/** Every status the order had, when, by whom and with the note written then. */
export function OrderHistory({ order }: { order: OrderDetail }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        History
      </Title>
      <Timeline active={order.status_history.length - 1} bulletSize={22} lineWidth={2}>
        {order.status_history.map((entry) => {
          const Icon = ICONS[entry.status];
          return (
            <Timeline.Item key={`${entry.status}-${entry.at}`} title={titleCase(entry.status)} bullet={<Icon size={12} />}>
              <Text size="xs" c="dimmed">
                {when(entry.at)}
                {entry.by ? ` · ${titleCase(entry.by.role)}` : ''}
              </Text>
              {entry.note ? <Text size="sm">{entry.note}</Text> : null}
            </Timeline.Item>
          );
        })}
      </Timeline>
    </Paper>
  );
}
