import { Anchor, Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { BulkBar } from '../../components/BulkBar';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SearchInput } from '../../components/SearchInput';
import { StatusBadge } from '../../components/StatusBadge';
import { count, when } from '../../lib/format';
import { compact } from '../../lib/search';
import { useSelection } from '../../lib/selection';
import { openBulkAdjust } from './bulk-adjust-form';
import { inventoryQuery } from './api';
import type { InventorySearch } from './search';

const PAGE_SIZE = 50;
const VIEWS = [
  { value: 'all', label: 'All' },
  { value: 'LOW_STOCK', label: 'Low stock' },
  { value: 'OUT_OF_STOCK', label: 'Out of stock' },
  { value: 'IN_STOCK', label: 'In stock' },
];

export function InventoryScreen() {
  const search = useSearch({ from: '/staff/inventory' });
  const navigate = useNavigate({ from: '/inventory' });
  const update = (changes: Partial<InventorySearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });
  const query = compact({
    page: search.page ?? 1,
    limit: PAGE_SIZE,
    search: search.q,
    stock_status: search.stock_status,
    sort: search.sort ?? 'product_name',
  });
  const records = useQuery(inventoryQuery(query));
  const [selected, setSelected] = useSelection(query);
  const picked = (records.data?.data ?? []).filter((r) => selected.has(r.variant_public_id));

  type Row = NonNullable<typeof records.data>['data'][number];
  const columns: Column<Row>[] = [
    {
      key: 'product',
      header: 'Product',
      sort: 'product_name',
      render: (r) => (
        <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/inventory/$variantId" params={{ variantId: r.variant_public_id }} />}>
          <bdi>{r.product_name}</bdi>
        </Anchor>
      ),
    },
    { key: 'sku', header: 'SKU', sort: 'sku', render: (r) => <bdi>{r.sku}</bdi> },
    { key: 'on_hand', header: 'On hand', sort: 'quantity_on_hand', align: 'right', render: (r) => count(r.quantity_on_hand) },
    { key: 'reserved', header: 'Reserved', align: 'right', render: (r) => count(r.quantity_reserved) },
    { key: 'available', header: 'Available', sort: 'quantity_available', align: 'right', render: (r) => count(r.quantity_available) },
    { key: 'reorder', header: 'Reorder at', align: 'right', render: (r) => (r.reorder_level === null ? '—' : count(r.reorder_level)) },
    { key: 'status', header: 'Status', render: (r) => <StatusBadge status={r.stock_status} /> },
    { key: 'updated', header: 'Last change', sort: 'last_stock_update', render: (r) => when(r.last_stock_update) },
  ];
  const filtered = Boolean(search.q || search.stock_status);
  return (
    <>
      <PageHeader
        title={search.stock_status === 'LOW_STOCK' ? 'Low stock' : 'Inventory'}
        subtitle="Stock of every variant: on hand, held by orders and available to sell"
      />
      <FilterBar onClear={filtered ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput label="Search" placeholder="Product name or SKU" value={search.q} onSearch={(q) => update({ q })} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="stock-view-label">
            Show
          </Text>
          <SegmentedControl
            aria-labelledby="stock-view-label"
            value={search.stock_status ?? 'all'}
            onChange={(value) => update({ stock_status: value === 'all' ? undefined : (value as InventorySearch['stock_status']) })}
            data={VIEWS}
          />
        </Stack>
      </FilterBar>
      <BulkBar selected={picked.length} noun={['record', 'records']} onClear={() => setSelected(new Set())}>
        <Button size="xs" variant="default" onClick={() => openBulkAdjust(picked, () => setSelected(new Set()))}>
          Adjust stock
        </Button>
      </BulkBar>
      <QueryState query={records}>
        {(result) => (
          <DataTable
            label="Inventory records"
            columns={columns}
            rows={result.data}
            rowKey={(r) => r.variant_public_id}
            selection={{ selected, onChange: setSelected, name: (r) => `${r.product_name} (${r.sku})` }}
            meta={result.meta}
            loading={records.isFetching}
            sort={query.sort}
            onSort={(sort) => update({ sort: sort as InventorySearch['sort'] })}
            onPage={(p) => void navigate({ search: (previous) => ({ ...previous, page: p }) })}
            empty={<Text>{filtered ? 'No records match.' : 'No inventory records yet.'}</Text>}
          />
        )}
      </QueryState>
    </>
  );
}
