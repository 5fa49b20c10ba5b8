import { Anchor, Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SearchInput } from '../../components/SearchInput';
import { StatusBadge } from '../../components/StatusBadge';
import { count, money, when } from '../../lib/format';
import { compact } from '../../lib/search';
import { couponsQuery } from './api';
import type { CouponsSearch } from './search';

export function CouponsScreen() {
  const search = useSearch({ from: '/staff/coupons' });
  const navigate = useNavigate({ from: '/coupons' });
  const query = compact({ page: search.page ?? 1, limit: 25, search: search.q, sort: search.sort ?? '-created_at' });
  const coupons = useQuery(couponsQuery(query));
  type Row = NonNullable<typeof coupons.data>['data'][number];
  const columns: Column<Row>[] = [
    {
      key: 'code',
      header: 'Code',
      sort: 'code',
      render: (c) => (
        <Anchor
          fw={600}
          ff="monospace"
          renderRoot={(props) => <Link {...props} to="/coupons/$couponId" params={{ couponId: c.public_id }} />}
        >
          {c.code}
        </Anchor>
      ),
    },
    {
      key: 'discount',
      header: 'Discount',
      render: (c) => (c.discount_type === 'PERCENTAGE' ? `${Number(c.discount_value)}%` : money(c.discount_value)),
    },
    { key: 'status', header: 'Status', render: (c) => <StatusBadge status={c.status} /> },
    {
      key: 'used',
      header: 'Used',
      sort: 'times_used',
      align: 'right',
      render: (c) => `${count(c.times_used)}${c.usage_limit === null ? '' : ` of ${count(c.usage_limit)}`}`,
    },
    { key: 'ends', header: 'Ends', render: (c) => (c.expires_at ? when(c.expires_at) : 'Never') },
  ];
  return (
    <>
      <PageHeader
        title="Coupons"
        subtitle="Discount codes customers enter at checkout"
        actions={
          <Button leftSection={<IconPlus size={16} />} renderRoot={(props) => <Link {...props} to="/coupons/new" />}>
            New coupon
          </Button>
        }
      />
      <FilterBar onClear={search.q ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput
          label="Search"
          placeholder="Code"
          value={search.q}
          onSearch={(q) => void navigate({ search: (previous) => compact({ ...previous, page: undefined, q }) })}
        />
      </FilterBar>
      <QueryState query={coupons}>
        {(result) => (
          <DataTable
            label="Coupons"
            columns={columns}
            rows={result.data}
            rowKey={(c) => c.public_id}
            meta={result.meta}
            loading={coupons.isFetching}
            sort={query.sort}
            onSort={(sort) =>
              void navigate({ search: (previous) => compact({ ...previous, page: undefined, sort: sort as CouponsSearch['sort'] }) })
            }
            onPage={(p) => void navigate({ search: (previous) => ({ ...previous, page: p }) })}
            empty={<Text>{search.q ? 'No coupon matches.' : 'No coupons yet.'}</Text>}
          />
        )}
      </QueryState>
    </>
  );
}
