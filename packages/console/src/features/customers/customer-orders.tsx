import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { money, when } from '../../lib/format';
import { customerOrdersQuery } from './api';

/** A customer's orders, newest first, a page at a time (the page is in the URL). */
export function CustomerOrders({ userId, email, page }: { userId: string; email: string; page: number }) {
  const navigate = useNavigate({ from: '/customers/$userId' });
  const orders = useQuery(customerOrdersQuery(userId, page));
  type OrderRow = NonNullable<typeof orders.data>['data'][number];
  const columns: Column<OrderRow>[] = [
    {
      key: 'number',
      header: 'Order',
      nowrap: true,
      render: (order) => (
        <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: order.public_id }} />}>
          {order.order_number}
        </Anchor>
      ),
    },
    { key: 'placed', header: 'Placed', render: (order) => when(order.placed_at) },
    { key: 'status', header: 'Status', render: (order) => <StatusBadge status={order.status} /> },
    { key: 'total', header: 'Total', align: 'right', render: (order) => money(order.total, order.currency) },
  ];
  return (
    <QueryState query={orders}>
      {(result) => (
        <DataTable
          label={`Orders of ${email}`}
          columns={columns}
          rows={result.data}
          rowKey={(order) => order.public_id}
          meta={result.meta}
          loading={orders.isFetching}
          onPage={(p) => void navigate({ search: { page: p } })}
          empty={<Text>No orders yet.</Text>}
        />
      )}
    </QueryState>
  );
}
