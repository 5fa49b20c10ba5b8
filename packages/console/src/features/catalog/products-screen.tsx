import { Anchor, Button, Select, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment } from 'react';
import { PRODUCT_STATUSES } from '../../api/domain';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SearchInput } from '../../components/SearchInput';
import { StatusBadge } from '../../components/StatusBadge';
import { count, money, titleCase, when } from '../../lib/format';
import { compact } from '../../lib/search';
import { useSelection } from '../../lib/selection';
import { ProductsBulkBar } from './products-bulk';
import { productsQuery } from './products-api';
import type { ProductsSearch } from './search';

export function ProductsScreen() {
  const search = useSearch({ from: '/staff/products' });
  const navigate = useNavigate({ from: '/products' });
  const update = (changes: Partial<ProductsSearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });
  const query = compact({ page: search.page ?? 1, limit: 25, search: search.q, status: search.status, sort: search.sort ?? '-created_at' });
  const products = useQuery(productsQuery(query));
  // Rows picked for a bulk action: the ones on this page; another page or filter starts afresh.
  const [selected, setSelected] = useSelection(query);
  const names = new Map((products.data?.data ?? []).map((p) => [p.public_id, p.name]));
  type Row = NonNullable<typeof products.data>['data'][number];
  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: 'Product',
      sort: 'name',
      render: (p) => (
        <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: p.public_id }} />}>
          <bdi>{p.name}</bdi>
        </Anchor>
      ),
    },
    { key: 'status', header: 'Status', render: (p) => <StatusBadge status={p.status} /> },
    { key: 'variants', header: 'Variants', align: 'right', render: (p) => count(p.variants.length) },
    {
      key: 'price',
      header: 'Price',
      sort: 'price',
      align: 'right',
      render: (p) => {
        const prices = p.variants.map((v) => Number(v.price));
        if (prices.length === 0) return '—';
        const [low, high] = [Math.min(...prices), Math.max(...prices)];
        return low === high ? money(String(low)) : `${money(String(low))} – ${money(String(high))}`;
      },
    },
    {
      key: 'categories',
      header: 'Categories',
      render: (p) =>
        p.categories.length === 0
          ? '—'
          : p.categories.map((c, index) => (
              <Fragment key={c.public_id}>
                {index > 0 ? ', ' : ''}
                <bdi>{c.name}</bdi>
              </Fragment>
            )),
    },
    { key: 'created', header: 'Created', sort: 'created_at', render: (p) => when(p.created_at) },
  ];
  const filtered = Boolean(search.q || search.status);
  return (
    <>
      <PageHeader
        title="Products"
        subtitle="The catalog: drafts, products on sale and archived ones"
        actions={
          <Button leftSection={<IconPlus size={16} />} renderRoot={(props) => <Link {...props} to="/products/new" />}>
            New product
          </Button>
        }
      />
      <FilterBar onClear={filtered ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput label="Search" placeholder="Name, brand, description or SKU" value={search.q} onSearch={(q) => update({ q })} />
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          w={160}
          data={PRODUCT_STATUSES.map((s) => ({ value: s, label: titleCase(s) }))}
          value={search.status ?? null}
          onChange={(status) => update({ status: (status ?? undefined) as ProductsSearch['status'] })}
        />
      </FilterBar>
      <ProductsBulkBar selected={[...selected]} name={(id) => names.get(id) ?? id} onDone={() => setSelected(new Set())} />
      <QueryState query={products}>
        {(result) => (
          <DataTable
            label="Products"
            columns={columns}
            rows={result.data}
            rowKey={(p) => p.public_id}
            selection={{ selected, onChange: setSelected, name: (p) => p.name }}
            meta={result.meta}
            loading={products.isFetching}
            sort={query.sort}
            onSort={(sort) => update({ sort: sort as ProductsSearch['sort'] })}
            onPage={(p) => void navigate({ search: (previous) => ({ ...previous, page: p }) })}
            empty={<Text>{filtered ? 'No products match.' : 'No products yet.'}</Text>}
          />
        )}
      </QueryState>
    </>
  );
}
