import { Button, Grid, Group, Paper } from '@mantine/core';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { DateRange } from '../../components/DateRange';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { compact } from '../../lib/search';
import { pnlQuery } from './api';
import { CouponPerformance } from './coupon-performance';
import { openExpenseForm } from './expense-form';
import { ExpensesPanel } from './expenses-panel';
import { PnlReport } from './pnl-report';

export function MoneyScreen() {
  const search = useSearch({ from: '/staff/money' });
  const navigate = useNavigate({ from: '/money' });
  const range = compact({ from: search.from, to: search.to });
  const pnl = useQuery(pnlQuery(range));
  const csv = `/api/v1/admin/analytics/pnl?${new URLSearchParams({ ...range, format: 'csv' }).toString()}`;
  return (
    <>
      <PageHeader
        title="Money"
        subtitle="Profit and loss by month, operating expenses, coupons"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => openExpenseForm()}>
            Record expense
          </Button>
        }
      />
      <Paper withBorder p="sm" mb="md" radius="md" role="search" aria-label="Profit and loss range">
        <Group gap="sm" align="flex-end">
          <DateRange
            labels={['From (UTC)', 'To (UTC)']}
            from={search.from ?? pnl.data?.from}
            to={search.to ?? pnl.data?.to}
            onChange={(changes) => void navigate({ search: (s) => ({ ...s, ...changes }) })}
          />
          <Button component="a" href={csv} download variant="default" leftSection={<IconDownload size={16} />}>
            Download CSV
          </Button>
        </Group>
      </Paper>
      <QueryState query={pnl}>{(report) => <PnlReport report={report} />}</QueryState>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, xl: 7 }}>
          <ExpensesPanel search={search} currency={pnl.data?.currency} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 5 }}>
          <CouponPerformance page={search.coupon_page ?? 1} currency={pnl.data?.currency} />
        </Grid.Col>
      </Grid>
    </>
  );
}
