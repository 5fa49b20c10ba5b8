import { Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { TableFrame } from '../../components/TableFrame';
import { money } from '../../lib/format';
import type { pnlQuery } from './api';
import classes from './pnl-report.module.css';

const PnlChart = lazy(() => import('./pnl-chart'));

type Report = Awaited<ReturnType<NonNullable<ReturnType<typeof pnlQuery>['queryFn']>>>;
type Figure = keyof Report['total'];

/**
 * The columns in the order a P&L reads, in three groups: what sales made (revenue less discounts and
 * the cost of the goods sold is gross profit), other income (the shipping customers paid, kept apart
 * from the expense category "Shipping costs", which is what couriers cost the store), and the costs
 * of running the store; net profit is gross profit plus other income less those costs.
 */
const GROUPS: { label: string; columns: { key: Figure; label: string }[] }[] = [
  {
    label: 'Sales',
    columns: [
      { key: 'revenue', label: 'Revenue' },
      { key: 'discounts', label: '−\u00a0Discounts' },
      { key: 'cost_of_goods_sold', label: '−\u00a0Cost of goods' },
      { key: 'gross_profit', label: '=\u00a0Gross profit' },
    ],
  },
  { label: 'Other income', columns: [{ key: 'shipping_income', label: '+\u00a0Shipping income' }] },
  { label: 'Costs', columns: [{ key: 'operating_expenses', label: '−\u00a0Operating expenses' }] },
];
const COLUMNS = GROUPS.flatMap((group) => group.columns);

/** The profit and loss by month: the table with every figure, newest month first, and a chart. */
export function PnlReport({ report }: { report: Report }) {
  const cell = (value: string, key: string) => (
    <Table.Td key={key} ta="right">
      {money(value, report.currency)}
    </Table.Td>
  );
  return (
    <Stack gap="md" mb="md">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4">
          Profit and loss
        </Title>
        <Text size="xs" c="dimmed" mb="sm">
          Net profit is gross profit, plus the shipping customers paid, less operating expenses (among them “Shipping costs”, what couriers
          cost the store). Months are UTC months.
        </Text>
        <TableFrame label="Profit and loss by month" minWidth={760}>
          <Table aria-label="Profit and loss by month" striped className={classes.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th rowSpan={2} scope="col">
                  Month
                </Table.Th>
                {GROUPS.map((group) => (
                  <Table.Th key={group.label} colSpan={group.columns.length} scope="colgroup" ta="center" className={classes.group}>
                    {group.label}
                  </Table.Th>
                ))}
                <Table.Th rowSpan={2} scope="col" ta="right">
                  {'=\u00a0Net profit'}
                </Table.Th>
              </Table.Tr>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column.key} scope="col" ta="right">
                    {column.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...report.months].reverse().map((m) => (
                <Table.Tr key={m.month}>
                  <Table.Th scope="row" style={{ whiteSpace: 'nowrap', fontWeight: 400 }}>
                    {m.month}
                  </Table.Th>
                  {COLUMNS.map((column) => cell(m[column.key], column.key))}
                  <Table.Td ta="right" fw={600} c={Number(m.net_profit) < 0 ? 'red.8' : undefined}>
                    {money(m.net_profit, report.currency)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row">Total</Table.Th>
                {[...COLUMNS.map((column) => column.key), 'net_profit' as const].map((key) => (
                  <Table.Th key={key} ta="right">
                    {money(report.total[key], report.currency)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </TableFrame>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          By month
        </Title>
        <Suspense fallback={<Skeleton h={280} />}>
          <PnlChart months={report.months} currency={report.currency} />
        </Suspense>
      </Paper>
    </Stack>
  );
}
