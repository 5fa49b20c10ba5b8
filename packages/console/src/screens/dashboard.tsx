import { Anchor, Grid, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Table, Text, Title } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { api } from '../api';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatCard } from '../components/StatCard';
import { count, money, when } from '../lib/format';
import type { Period } from '../routes/dashboard';

const RevenueChart = lazy(() => import('../components/RevenueChart'));

const PERIOD_LABELS: Record<Period, string> = { today: 'Today', '7d': '7 days', '30d': '30 days', '90d': '90 days' };

export const statsQuery = (period: Period) =>
  queryOptions({
    queryKey: ['stats', period],
    queryFn: async () => (await api.GET('/api/v1/admin/stats', { params: { query: { period } } })).data,
  });

export function DashboardScreen() {
  const { period = '30d' } = useSearch({ from: '/staff/' });
  const navigate = useNavigate({ from: '/' });
  const stats = useQuery(statsQuery(period));
  const today = useQuery(statsQuery('today'));

  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle="How the store is doing"
        actions={
          <SegmentedControl
            aria-label="Period"
            value={period}
            onChange={(value) => void navigate({ search: { period: value === '30d' ? undefined : (value as Period) } })}
            data={Object.entries(PERIOD_LABELS).map(([value, label]) => ({ value, label }))}
          />
        }
      />
      <QueryState query={stats}>
        {(data) => {
          // The lists behind the figures start where the figures do: today since 00:00 UTC (the API's day),
          // a period at its exact start (the last 7 days are now minus 7 × 24 hours, not whole days).
          const since = data.from;
          const todayFrom = (today.data?.from ?? new Date().toISOString()).slice(0, 10);
          const ordersBehind = (label: string, extra: { status?: 'PLACED' } = {}, size = 'sm') => (
            <Anchor
              size={size}
              renderRoot={(props) => (
                <Link {...props} to="/orders" search={period === 'today' ? { from: todayFrom, ...extra } : { since, ...extra }} />
              )}
            >
              {label}
            </Anchor>
          );
          return (
            <>
              <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} mb="md">
                <StatCard
                  label="Revenue today"
                  value={today.data ? money(today.data.revenue.net, data.currency) : <Skeleton h={30} w={120} />}
                  hint={
                    today.data ? `${count(today.data.orders.total)} ${today.data.orders.total === 1 ? 'order' : 'orders'} today` : undefined
                  }
                  link={
                    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/orders" search={{ from: todayFrom }} />}>
                      Today’s orders
                    </Anchor>
                  }
                />
                <StatCard
                  label={`Net revenue · ${PERIOD_LABELS[period]}`}
                  value={money(data.revenue.net, data.currency)}
                  hint={`Gross ${money(data.revenue.gross, data.currency)} − discounts ${money(data.revenue.discounts, data.currency)} − cancelled ${money(data.revenue.cancellations, data.currency)}`}
                  link={ordersBehind('The orders behind it')}
                />
                <StatCard
                  label="Orders"
                  value={count(data.orders.total)}
                  hint={
                    data.orders.by_status.PLACED > 0
                      ? ordersBehind(`${count(data.orders.by_status.PLACED)} waiting for confirmation`, { status: 'PLACED' }, 'xs')
                      : 'None waiting for confirmation'
                  }
                  link={ordersBehind('Orders in this period')}
                />
                <StatCard
                  label="Average order value"
                  value={money(data.average_order_value, data.currency)}
                  hint="Net revenue per order not cancelled"
                  link={ordersBehind('The orders it averages')}
                />
                <StatCard
                  label="New customers"
                  value={count(data.new_customers)}
                  hint="Signed up in this period"
                  link={
                    <Anchor
                      size="sm"
                      renderRoot={(props) => (
                        <Link
                          {...props}
                          to="/customers"
                          search={period === 'today' ? { role: 'CUSTOMER', from: todayFrom } : { role: 'CUSTOMER', since }}
                        />
                      )}
                    >
                      Customers who joined
                    </Anchor>
                  }
                />
                <StatCard
                  label="Low stock"
                  value={count(data.inventory.low_stock)}
                  hint="At or below the reorder level"
                  link={
                    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/inventory" search={{ stock_status: 'LOW_STOCK' }} />}>
                      Low-stock list
                    </Anchor>
                  }
                />
                <StatCard
                  label="Out of stock"
                  value={count(data.inventory.out_of_stock)}
                  hint="Nothing left to sell"
                  link={
                    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/inventory" search={{ stock_status: 'OUT_OF_STOCK' }} />}>
                      Out-of-stock list
                    </Anchor>
                  }
                />
                <StatCard
                  label="Pending reviews"
                  value={count(data.pending_reviews)}
                  hint="Waiting for moderation"
                  link={
                    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/reviews" />}>
                      Moderation queue
                    </Anchor>
                  }
                />
              </SimpleGrid>
              <Grid gap="md">
                <Grid.Col span={{ base: 12, lg: 8 }}>
                  <Paper withBorder p="md" radius="md">
                    <Title order={2} size="h4" mb="sm">
                      Net revenue per day
                    </Title>
                    <Suspense fallback={<Skeleton h={260} />}>
                      <RevenueChart series={data.series} currency={data.currency} />
                    </Suspense>
                  </Paper>
                </Grid.Col>
                <Grid.Col span={{ base: 12, lg: 4 }}>
                  <Paper withBorder p="md" radius="md" h="100%">
                    <Title order={2} size="h4" mb="sm">
                      Top products
                    </Title>
                    {data.top_products.length === 0 ? (
                      <Text c="dimmed" size="sm">
                        No sales in this period yet.
                      </Text>
                    ) : (
                      <Table>
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th>Product</Table.Th>
                            <Table.Th ta="right">Units</Table.Th>
                            <Table.Th ta="right">Revenue</Table.Th>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {data.top_products.map((product) => (
                            <Table.Tr key={product.product_public_id}>
                              <Table.Td>
                                <Anchor
                                  size="sm"
                                  renderRoot={(props) => (
                                    <Link {...props} to="/products/$productId" params={{ productId: product.product_public_id }} />
                                  )}
                                >
                                  {product.name}
                                </Anchor>
                              </Table.Td>
                              <Table.Td ta="right">{count(product.units)}</Table.Td>
                              <Table.Td ta="right">{money(product.revenue, data.currency)}</Table.Td>
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    )}
                  </Paper>
                </Grid.Col>
              </Grid>
              <Group mt="xs">
                <Text size="xs" c="dimmed">
                  Figures in {data.currency}. Days are UTC days: “today” began at 00:00 UTC; this period runs from {when(data.from)} to now,
                  and the order lists these figures link to start there too.
                </Text>
              </Group>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
