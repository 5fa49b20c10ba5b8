import { Grid, Paper, Skeleton, Table, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { money } from '../../lib/format';
import type { pnlQuery } from './api';

const PnlChart = lazy(() => import('./pnl-chart'));

type Report = Awaited<ReturnType<NonNullable<ReturnType<typeof pnlQuery>['queryFn']>>>;

const TOTALS = [
  'revenue',
  'discounts',
  'cost_of_goods_sold',
  'gross_profit',
  'shipping_income',
  'operating_expenses',
  'net_profit',
] as const;

/** The profit and loss by month: a chart, and the table with every figure, newest month first. */
export function PnlReport({ report }: { report: Report }) {
  return (
    <Grid gap="md" mb="md">
      <Grid.Col span={{ base: 12, xl: 5 }}>
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            By month
          </Title>
          <Suspense fallback={<Skeleton h={280} />}>
            <PnlChart months={report.months} currency={report.currency} />
          </Suspense>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, xl: 7 }}>
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            Profit and loss
          </Title>
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Profit and loss by month" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Month</Table.Th>
                  <Table.Th ta="right">Revenue</Table.Th>
                  <Table.Th ta="right">Discounts</Table.Th>
                  <Table.Th ta="right">Cost of goods</Table.Th>
                  <Table.Th ta="right">Gross profit</Table.Th>
                  <Table.Th ta="right">Shipping</Table.Th>
                  <Table.Th ta="right">Expenses</Table.Th>
                  <Table.Th ta="right">Net profit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...report.months].reverse().map((m) => (
                  <Table.Tr key={m.month}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{m.month}</Table.Td>
                    <Table.Td ta="right">{money(m.revenue, report.currency)}</Table.Td>
                    <Table.Td ta="right">{money(m.discounts, report.currency)}</Table.Td>
                    <Table.Td ta="right">{money(m.cost_of_goods_sold, report.currency)}</Table.Td>
                    <Table.Td ta="right">{money(m.gross_profit, report.currency)}</Table.Td>
                    <Table.Td ta="right">{money(m.shipping_income, report.currency)}</Table.Td>
                    <Table.Td ta="right">{money(m.operating_expenses, report.currency)}</Table.Td>
                    <Table.Td ta="right" fw={600} c={Number(m.net_profit) < 0 ? 'red.8' : undefined}>
                      {money(m.net_profit, report.currency)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th>Total</Table.Th>
                  {TOTALS.map((k) => (
                    <Table.Th key={k} ta="right">
                      {money(report.total[k], report.currency)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
