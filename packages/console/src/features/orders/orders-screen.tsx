import { Anchor, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { ORDER_STATUSES } from '../../api/domain';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRange } from '../../components/DateRange';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SearchInput } from '../../components/SearchInput';
import { SinceFilter } from '../../components/SinceFilter';
import { StatusBadge } from '../../components/StatusBadge';
import { money, titleCase, when } from '../../lib/format';
import { compact, instantRange } from '../../lib/search';
import { ordersQuery } from './api';
import type { OrdersSearch } from './search';

const PAGE_SIZE = 25;

export function OrdersScreen() {
  const search = useSearch({ from: '/staff/orders' });
  const navigate = useNavigate({ from: '/orders' });
  const update = (changes: Partial<OrdersSearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });

  const placed = instantRange(search);
  const query = compact({
    page: search.page ?? 1,
    limit: PAGE_SIZE,
    sort: search.sort ?? '-placed_at',
    status: search.status,
    search: search.q,
    placed_from: placed.from,
    placed_to: placed.to,
  });
  const orders = useQuery(ordersQuery(query));

  type Row = NonNullable<typeof orders.data>['data'][number];
  const columns: Column<Row>[] = [
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
    { key: 'placed', header: 'Placed', sort: 'placed_at', render: (order) => when(order.placed_at) },
    {
      key: 'customer',
      header: 'Customer',
      render: (order) => (
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: order.customer.public_id }} />}>
          <bdi>{order.customer.email}</bdi>
        </Anchor>
      ),
    },
    { key: 'status', header: 'Status', render: (order) => <StatusBadge status={order.status} /> },
    { key: 'items', header: 'Items', align: 'right', render: (order) => order.items.reduce((n, item) => n + item.quantity, 0) },
    { key: 'total', header: 'Total', sort: 'total', align: 'right', nowrap: true, render: (order) => money(order.total, order.currency) },
  ];

  const filtered = Boolean(search.status || search.q || search.from || search.to || search.since);
  return (
    <>
      <PageHeader title="Orders" subtitle="Every order placed in the store" />
      <FilterBar onClear={filtered ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput label="Search" placeholder="Order number or customer email" value={search.q} onSearch={(q) => update({ q })} />
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={ORDER_STATUSES.map((status) => ({ value: status, label: titleCase(status) }))}
          value={search.status ?? null}
          onChange={(status) => update({ status: (status ?? undefined) as OrdersSearch['status'] })}
          w={170}
        />
        <DateRange labels={['Placed from (UTC)', 'Placed to (UTC)']} from={search.from} to={search.to} onChange={update} />
        <SinceFilter label="Placed" since={search.since} onRemove={() => update({ since: undefined })} />
      </FilterBar>
      <QueryState query={orders}>
        {(result) => (
          <DataTable
            label="Orders"
            columns={columns}
            rows={result.data}
            rowKey={(order) => order.public_id}
            meta={result.meta}
            loading={orders.isFetching}
            sort={query.sort}
            onSort={(sort) => update({ sort: sort as OrdersSearch['sort'] })}
            onPage={(page) => void navigate({ search: (previous) => ({ ...previous, page }) })}
            empty={<Text>{filtered ? 'No orders match these filters.' : 'No orders yet.'}</Text>}
          />
        )}
      </QueryState>
    </>
  );
}
