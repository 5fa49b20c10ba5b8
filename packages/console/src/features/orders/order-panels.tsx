import { Anchor, Paper, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconPackage, IconTruck, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, type ReactNode } from 'react';
import type { OrderStatus } from '../../api/domain';
import { titleCase, when } from '../../lib/format';
import { personQuery, type OrderDetail } from './api';

/** Where the order goes, and with which carrier once shipped; each line is the customer's text, isolated. */
export function ShipTo({ order }: { order: OrderDetail }) {
  const address = order.shipping_address;
  // `City, State ZIP`, as the storefront and the order emails print it.
  const town = [address.city, address.state].filter((part): part is string => Boolean(part));
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Ship to
      </Title>
      <Text>
        <bdi>{address.recipient_name}</bdi>
      </Text>
      <Text size="sm">
        <bdi>{address.address_1}</bdi>
      </Text>
      {address.address_2 ? (
        <Text size="sm">
          <bdi>{address.address_2}</bdi>
        </Text>
      ) : null}
      <Text size="sm">
        {town.map((part, index) => (
          <Fragment key={index}>
            {index > 0 ? ', ' : ''}
            <bdi>{part}</bdi>
          </Fragment>
        ))}
        {address.zip_code ? (
          <>
            {' '}
            <bdi>{address.zip_code}</bdi>
          </>
        ) : null}
      </Text>
      <Text size="sm">
        <bdi>{address.country}</bdi>
      </Text>
      <Text size="sm" c="dimmed">
        <bdi>{address.phone_number}</bdi>
      </Text>
      {order.shipment ? (
        <Text size="sm" mt="xs">
          Shipped with <bdi>{order.shipment.carrier}</bdi>
          {order.shipment.tracking_number ? (
            <>
              , tracking <bdi>{order.shipment.tracking_number}</bdi>
            </>
          ) : null}
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

/** Who moved the order: the customer, or the staff member by name (linked to their account), with their role. */
function MovedBy({ by, order }: { by: { public_id: string; role: string }; order: OrderDetail }) {
  const person = useQuery({ ...personQuery(by.public_id), enabled: by.public_id !== order.customer.public_id });
  const link = (name: ReactNode) => (
    <Anchor size="xs" renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: by.public_id }} />}>
      {name}
    </Anchor>
  );
  if (by.public_id === order.customer.public_id) return <>by the customer</>;
  if (!person.data) return <>by {link(`a staff member (${titleCase(by.role)})`)}</>;
  return (
    <>
      by{' '}
      {link(
        <>
          <bdi>{person.data.first_name}</bdi> <bdi>{person.data.last_name}</bdi>
        </>,
      )}{' '}
      ({titleCase(by.role)})
    </>
  );
}

/** Every status the order had, when, by whom (the person, not only a role) and with the note written then. */
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
                {entry.by ? (
                  <>
                    {' · '}
                    <MovedBy by={entry.by} order={order} />
                  </>
                ) : null}
              </Text>
              {entry.note ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  <bdi>{entry.note}</bdi>
                </Text>
              ) : null}
            </Timeline.Item>
          );
        })}
      </Timeline>
    </Paper>
  );
}
