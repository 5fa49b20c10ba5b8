import { Anchor, Grid, Group, Paper, SimpleGrid, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatCard } from '../../components/StatCard';
import { StatusBadge } from '../../components/StatusBadge';
import { count } from '../../lib/format';
import { stockRecordQuery } from './api';
import { MovementsTable } from './movements-table';
import { AdjustForm, ReorderLevelForm, ReservationForm } from './stock-forms';

export function StockRecordScreen() {
  const { variantId } = useParams({ from: '/staff/inventory/$variantId' });
  const search = useSearch({ from: '/staff/inventory/$variantId' });
  const record = useQuery(stockRecordQuery(variantId));
  return (
    <QueryState
      query={record}
      screen="Stock record"
      back={
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/inventory" />}>
          ← All inventory
        </Anchor>
      }
    >
      {(r) => (
        <>
          <PageHeader
            title={<bdi>{r.product_name}</bdi>}
            tabTitle={r.product_name}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={r.stock_status} /> SKU <bdi>{r.sku}</bdi> of{' '}
                <Anchor
                  size="sm"
                  renderRoot={(props) => <Link {...props} to="/products/$productId" params={{ productId: r.product_public_id }} />}
                >
                  the product <bdi>{r.product_name}</bdi>
                </Anchor>
              </Group>
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/inventory" />}>
            ← All inventory
          </Anchor>
          <SimpleGrid cols={{ base: 2, md: 4 }} mb="md">
            <StatCard label="On hand" value={count(r.quantity_on_hand)} />
            <StatCard label="Reserved" value={count(r.quantity_reserved)} hint="Held by open orders and by hand" />
            <StatCard label="Available" value={count(r.quantity_available)} hint="On hand minus reserved" />
            <StatCard
              label="Reorder at"
              value={r.reorder_level === null ? '—' : count(r.reorder_level)}
              hint="Low stock at or below this"
            />
          </SimpleGrid>
          <Grid gap="md" mb="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Paper withBorder p="md" radius="md" h="100%">
                <Title order={2} size="h4" mb="sm">
                  Adjust on hand
                </Title>
                <AdjustForm record={r} variantId={variantId} />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Paper withBorder p="md" radius="md" h="100%">
                <Title order={2} size="h4" mb="sm">
                  Reservation
                </Title>
                <ReservationForm record={r} variantId={variantId} />
                <Title order={2} size="h4" mt="lg" mb="sm">
                  Low-stock alert
                </Title>
                <ReorderLevelForm key={String(r.reorder_level)} record={r} variantId={variantId} />
              </Paper>
            </Grid.Col>
          </Grid>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Movements
            </Title>
            <MovementsTable variantId={variantId} page={search.page ?? 1} />
          </Paper>
        </>
      )}
    </QueryState>
  );
}
