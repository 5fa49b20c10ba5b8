import { ActionIcon, Anchor, Button, Group, Paper, Select, Text, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { EXPENSE_CATEGORIES, type ExpenseCategory } from '../../api/domain';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRange } from '../../components/DateRange';
import { QueryState } from '../../components/QueryState';
import { confirmThen } from '../../lib/confirm';
import { day, money } from '../../lib/format';
import { compact } from '../../lib/search';
import { expensesQuery, useDeleteExpense } from './api';
import { categoryLabel, openExpenseForm, type Expense } from './expense-form';
import type { MoneySearch } from './search';

/** The operating expenses, filtered by category and days spent, sorted and paged in the URL. */
export function ExpensesPanel({ search, currency }: { search: MoneySearch; currency: string | undefined }) {
  const navigate = useNavigate({ from: '/money' });
  const query = compact({
    page: search.page ?? 1,
    limit: 10,
    category: search.category,
    from: search.spent_from,
    to: search.spent_to,
    sort: search.expense_sort ?? '-spent_at',
  });
  const expenses = useQuery(expensesQuery(query));
  const deletion = useDeleteExpense();
  /** A change to the expenses' filters starts them again at page 1. */
  const filter = (changes: Pick<MoneySearch, 'category' | 'spent_from' | 'spent_to'>) =>
    void navigate({ search: (s) => compact({ ...s, page: undefined, ...changes }) });
  const remove = (e: Expense) =>
    confirmThen({
      title: 'Delete this expense?',
      body: (
        <>
          <bdi>{e.description}</bdi>, {money(e.amount, currency)} on {day(e.spent_at)}. The P&L of that month changes.
        </>
      ),
      confirm: 'Delete',
      action: () => deletion.mutateAsync(e.public_id),
      done: 'Expense deleted',
      failed: 'Not deleted',
    });

  const columns: Column<Expense>[] = [
    { key: 'day', header: 'Spent on', sort: 'spent_at', render: (e) => day(e.spent_at) },
    { key: 'description', header: 'Description', render: (e) => <bdi>{e.description}</bdi> },
    { key: 'category', header: 'Category', render: (e) => categoryLabel(e.category) },
    { key: 'amount', header: 'Amount', sort: 'amount', align: 'right', render: (e) => money(e.amount, currency) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (e) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ActionIcon variant="subtle" aria-label={`Edit ${e.description}`} onClick={() => openExpenseForm(e)}>
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${e.description}`} onClick={() => remove(e)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ),
    },
  ];
  const filtered = Boolean(search.category || search.spent_from || search.spent_to);
  return (
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
          data={EXPENSE_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }))}
          value={search.category ?? null}
          onChange={(value) => filter({ category: (value ?? undefined) as ExpenseCategory | undefined })}
        />
        <DateRange
          labels={['Spent from (UTC)', 'Spent to (UTC)']}
          from={search.spent_from}
          to={search.spent_to}
          onChange={(changes) => filter('from' in changes ? { spent_from: changes.from } : { spent_to: changes.to })}
        />
        {filtered ? (
          <Button variant="subtle" onClick={() => filter({ category: undefined, spent_from: undefined, spent_to: undefined })}>
            Clear filters
          </Button>
        ) : null}
      </Group>
      <QueryState query={expenses}>
        {(result) => (
          <DataTable
            label="Operating expenses"
            columns={columns}
            rows={result.data}
            rowKey={(e) => e.public_id}
            meta={result.meta}
            loading={expenses.isFetching}
            sort={query.sort}
            onSort={(sort) =>
              void navigate({ search: (s) => compact({ ...s, page: undefined, expense_sort: sort as MoneySearch['expense_sort'] }) })
            }
            onPage={(p) => void navigate({ search: (s) => ({ ...s, page: p }) })}
            empty={
              filtered ? (
                <Text>No expenses match these filters.</Text>
              ) : (
                <Text>
                  No expenses yet.{' '}
                  <Anchor component="button" onClick={() => openExpenseForm()}>
                    Record the first one
                  </Anchor>
                </Text>
              )
            }
          />
        )}
      </QueryState>
    </Paper>
  );
}
