import { Grid, Group, Paper, SegmentedControl, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { when } from '../../lib/format';
import { statsQuery } from './api';
import { DashboardFigures } from './dashboard-figures';
import { PERIOD_LABELS } from './period-labels';
import type { Period } from './search';
import { TopProducts } from './top-products';

const RevenueChart = lazy(() => import('./revenue-chart'));

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
        {(data) => (
          <>
            <DashboardFigures stats={data} today={today.data} period={period} />
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
                <TopProducts stats={data} />
              </Grid.Col>
            </Grid>
            <Group mt="xs">
              <Text size="xs" c="dimmed">
                Figures in {data.currency}. Days are UTC days: “today” began at 00:00 UTC; this period runs from {when(data.from)} to now,
                and the order lists these figures link to start there too.
              </Text>
            </Group>
          </>
        )}
      </QueryState>
    </>
  );
}
