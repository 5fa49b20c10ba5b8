import {
  ActionIcon,
  Anchor,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconDownload, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { DateRange } from '../components/DateRange';
import { ModalFormFooter } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { notifyDone, notifyError, placeErrors } from '../lib/errors';
import { count, day, localDay, money, titleCase } from '../lib/format';
import { compact } from '../lib/search';
import { EXPENSE_CATEGORIES, type MoneySearch } from '../routes/money';

const PnlChart = lazy(() => import('../components/PnlChart'));

type Category = (typeof EXPENSE_CATEGORIES)[number];
interface ExpenseValues {
  description: string;
  category: Category;
  amount: string;
  spent_at: string;
}

/** `onSubmit` throws the API's refusal: field errors go next to their inputs, the rest above the buttons. */
function ExpenseForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: ExpenseValues;
  submitLabel: string;
  onSubmit: (values: ExpenseValues) => Promise<void>;
}) {
  const form = useForm<ExpenseValues>({
    initialValues: initial,
    validate: {
      description: (value) => (value.trim() === '' ? 'Describe the expense' : value.length > 500 ? 'At most 500 characters' : null),
      amount: (value) => (!/^\d{1,10}(\.\d{1,2})?$/.test(value.trim()) || Number(value) <= 0 ? 'An amount above zero, like 49.90' : null),
      spent_at: (value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? null : 'Pick the day it was spent'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await onSubmit({ ...values, description: values.description.trim(), amount: values.amount.trim() });
        } catch (error) {
          form.setErrors(placeErrors(error, { inputs: ['description', 'category', 'amount', 'spent_at'] }));
        }
      })}
    >
      <Stack>
        <Textarea label="Description" required autosize minRows={2} maxLength={500} data-autofocus {...form.getInputProps('description')} />
        <Select
          label="Category"
          required
          allowDeselect={false}
          data={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: titleCase(c) }))}
          {...form.getInputProps('category')}
        />
        <Group grow>
          <TextInput label="Amount" required inputMode="decimal" {...form.getInputProps('amount')} />
          <TextInput label="Spent on" type="date" required {...form.getInputProps('spent_at')} />
        </Group>
        <ModalFormFooter form={form} submit={submitLabel} />
      </Stack>
    </form>
  );
}

export function MoneyScreen() {
  const search = useSearch({ from: '/staff/money' });
  const navigate = useNavigate({ from: '/money' });
  const queryClient = useQueryClient();
  const range = compact({ from: search.from, to: search.to });

  const pnl = useQuery({
    queryKey: ['pnl', range],
    queryFn: async () => (await api.GET('/api/v1/admin/analytics/pnl', { params: { query: range } })).data,
    placeholderData: keepPreviousData,
  });
  const expenseQuery = compact({
    page: search.page ?? 1,
    limit: 10,
    category: search.category,
    from: search.spent_from,
    to: search.spent_to,
    sort: search.expense_sort ?? '-spent_at',
  });
  const expenses = useQuery({
    queryKey: ['expenses', expenseQuery],
    queryFn: async () => api.GET('/api/v1/admin/expenses', { params: { query: expenseQuery } }),
    placeholderData: keepPreviousData,
  });
  const couponQuery = { page: search.coupon_page ?? 1, limit: 10 };
  const coupons = useQuery({
    queryKey: ['coupon-analytics', couponQuery],
    queryFn: async () => api.GET('/api/v1/admin/analytics/coupons', { params: { query: couponQuery } }),
    placeholderData: keepPreviousData,
  });
  /** A change to the expenses' filters starts them again at page 1. */
  const filterExpenses = (changes: Pick<MoneySearch, 'category' | 'spent_from' | 'spent_to'>) =>
    void navigate({ search: (s) => compact({ ...s, page: undefined, ...changes }) });

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['expenses'] });
    void queryClient.invalidateQueries({ queryKey: ['pnl'] });
  };
  const save = async (id: string | null, values: ExpenseValues) => {
    if (id) await api.PATCH('/api/v1/admin/expenses/{expense_public_id}', { params: { path: { expense_public_id: id } }, body: values });
    else await api.POST('/api/v1/admin/expenses', { body: values });
    modals.closeAll();
    refresh();
    notifyDone(id ? 'Expense updated' : `Expense of ${money(values.amount)} recorded`);
  };
  const openForm = (expense?: { public_id: string; description: string; category: string; amount: string; spent_at: string }) =>
    modals.open({
      title: expense ? 'Edit expense' : 'Record an expense',
      children: (
        <ExpenseForm
          submitLabel={expense ? 'Save' : 'Record expense'}
          initial={
            expense
              ? {
                  description: expense.description,
                  category: expense.category as Category,
                  amount: expense.amount,
                  spent_at: expense.spent_at,
                }
              : { description: '', category: 'OTHER', amount: '', spent_at: localDay() }
          }
          onSubmit={(values) => save(expense?.public_id ?? null, values)}
        />
      ),
    });
  const remove = useMutation({
    mutationFn: async (id: string) =>
      api.DELETE('/api/v1/admin/expenses/{expense_public_id}', { params: { path: { expense_public_id: id } } }),
    onSuccess: () => {
      refresh();
      notifyDone('Expense deleted');
    },
    onError: (error) => notifyError(error, 'Not deleted'),
  });

  type ExpenseRow = NonNullable<typeof expenses.data>['data'][number];
  const expenseColumns: Column<ExpenseRow>[] = [
    { key: 'day', header: 'Spent on', sort: 'spent_at', render: (e) => day(e.spent_at) },
    { key: 'description', header: 'Description', render: (e) => e.description },
    { key: 'category', header: 'Category', render: (e) => titleCase(e.category) },
    { key: 'amount', header: 'Amount', sort: 'amount', align: 'right', render: (e) => money(e.amount, pnl.data?.currency) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (e) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon variant="subtle" aria-label={`Edit ${e.description}`} onClick={() => openForm(e)}>
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${e.description}`}
            onClick={() =>
              modals.openConfirmModal({
                title: 'Delete this expense?',
                children: (
                  <Text size="sm">{`${e.description}, ${money(e.amount, pnl.data?.currency)} on ${day(e.spent_at)}. The P&L of that month changes.`}</Text>
                ),
                labels: { confirm: 'Delete', cancel: 'Keep it' },
                confirmProps: { color: 'red' },
                onConfirm: () => remove.mutate(e.public_id),
              })
            }
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ),
    },
  ];

  type CouponRow = NonNullable<typeof coupons.data>['data'][number];
  const couponColumns: Column<CouponRow>[] = [
    {
      key: 'code',
      header: 'Code',
      render: (c) => (
        <Anchor
          ff="monospace"
          renderRoot={(props) => <Link {...props} to="/coupons/$couponId" params={{ couponId: c.coupon_public_id }} />}
        >
          {c.code}
        </Anchor>
      ),
    },
    { key: 'uses', header: 'Uses', align: 'right', render: (c) => count(c.uses) },
    { key: 'discount', header: 'Discount given', align: 'right', render: (c) => money(c.discount_given, pnl.data?.currency) },
    { key: 'revenue', header: 'Order totals', align: 'right', render: (c) => money(c.revenue, pnl.data?.currency) },
  ];

  const csv = `/api/v1/admin/analytics/pnl?${new URLSearchParams({ ...range, format: 'csv' }).toString()}`;
  return (
    <>
      <PageHeader
        title="Money"
        subtitle="Profit and loss by month, operating expenses, coupons"
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => openForm()}>
            Record expense
          </Button>
        }
      />
      <Paper withBorder p="sm" mb="md" radius="md" role="search" aria-label="Profit and loss range">
        <Group gap="sm" align="flex-end">
          <DateRange
            labels={['From', 'To']}
            from={search.from ?? pnl.data?.from}
            to={search.to ?? pnl.data?.to}
            onChange={(changes) => void navigate({ search: (s) => ({ ...s, ...changes }) })}
          />
          <Button component="a" href={csv} download variant="default" leftSection={<IconDownload size={16} />}>
            Download CSV
          </Button>
        </Group>
      </Paper>
      <QueryState query={pnl}>
        {(report) => (
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
                        {(
                          [
                            'revenue',
                            'discounts',
                            'cost_of_goods_sold',
                            'gross_profit',
                            'shipping_income',
                            'operating_expenses',
                            'net_profit',
                          ] as const
                        ).map((k) => (
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
        )}
      </QueryState>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Operating expenses
            </Title>
            <Group gap="sm" mb="sm" align="flex-end" role="search" aria-label="Expense filters">
              <Select
                label="Category"
                placeholder="Any category"
                clearable
                w={170}
                data={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: titleCase(c) }))}
                value={search.category ?? null}
                onChange={(value) => filterExpenses({ category: (value ?? undefined) as Category | undefined })}
              />
              <DateRange
                labels={['Spent from', 'Spent to']}
                from={search.spent_from}
                to={search.spent_to}
                onChange={(changes) => filterExpenses('from' in changes ? { spent_from: changes.from } : { spent_to: changes.to })}
              />
              {search.category || search.spent_from || search.spent_to ? (
                <Button
                  variant="subtle"
                  onClick={() => filterExpenses({ category: undefined, spent_from: undefined, spent_to: undefined })}
                >
                  Clear filters
                </Button>
              ) : null}
            </Group>
            <QueryState query={expenses}>
              {(result) => (
                <DataTable
                  label="Operating expenses"
                  columns={expenseColumns}
                  rows={result.data}
                  rowKey={(e) => e.public_id}
                  meta={result.meta}
                  loading={expenses.isFetching}
                  sort={expenseQuery.sort}
                  onSort={(sort) =>
                    void navigate({ search: (s) => compact({ ...s, page: undefined, expense_sort: sort as MoneySearch['expense_sort'] }) })
                  }
                  onPage={(p) => void navigate({ search: (s) => ({ ...s, page: p }) })}
                  empty={
                    search.category || search.spent_from || search.spent_to ? (
                      <Text>No expenses match these filters.</Text>
                    ) : (
                      <Text>
                        No expenses yet.{' '}
                        <Anchor component="button" onClick={() => openForm()}>
                          Record the first one
                        </Anchor>
                      </Text>
                    )
                  }
                />
              )}
            </QueryState>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4">
              Coupons
            </Title>
            <Text size="xs" c="dimmed" mb="sm">
              Order totals are what the orders that used a code came to, shipping included, cancelled ones left out.
            </Text>
            <QueryState query={coupons}>
              {(result) => (
                <DataTable
                  label="Coupon performance"
                  columns={couponColumns}
                  rows={result.data}
                  rowKey={(c) => c.coupon_public_id}
                  meta={result.meta}
                  loading={coupons.isFetching}
                  minWidth={0}
                  onPage={(p) => void navigate({ search: (s) => ({ ...s, coupon_page: p }) })}
                  empty={
                    <Text c="dimmed" size="sm">
                      No coupons yet.
                    </Text>
                  }
                />
              )}
            </QueryState>
          </Paper>
        </Grid.Col>
      </Grid>
    </>
  );
}
