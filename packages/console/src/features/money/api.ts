import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { expenseKeys, reportKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

export type ExpensesQuery = NonNullable<QueryOf<'/api/v1/admin/expenses'>>;
export type ExpenseBody = BodyOf<'/api/v1/admin/expenses', 'post'>;

export const pnlQuery = (range: { from?: string; to?: string }) =>
  queryOptions({
    queryKey: reportKeys.pnl(range),
    queryFn: async () => (await api.GET('/api/v1/admin/analytics/pnl', { params: { query: range } })).data,
    placeholderData: keepPreviousData,
  });

export const expensesQuery = (query: ExpensesQuery) =>
  queryOptions({
    queryKey: expenseKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/expenses', { params: { query } }),
    placeholderData: keepPreviousData,
  });

export const couponReportQuery = (query: { page: number; limit: number }) =>
  queryOptions({
    queryKey: reportKeys.coupons(query),
    queryFn: () => api.GET('/api/v1/admin/analytics/coupons', { params: { query } }),
    placeholderData: keepPreviousData,
  });

/** An expense is in the expenses list and in the P&L of its month. */
const EXPENSE_CHANGES = [expenseKeys.all, reportKeys.all];

/** Records an expense (no `id`) or saves one. */
export function useSaveExpense() {
  return useWrite({
    mutationFn: ({ id, body }: { id: string | null; body: ExpenseBody }) =>
      id
        ? api.PATCH('/api/v1/admin/expenses/{expense_public_id}', { params: { path: { expense_public_id: id } }, body })
        : api.POST('/api/v1/admin/expenses', { body }),
    invalidates: EXPENSE_CHANGES,
  });
}

export function useDeleteExpense() {
  return useWrite({
    mutationFn: (id: string) => api.DELETE('/api/v1/admin/expenses/{expense_public_id}', { params: { path: { expense_public_id: id } } }),
    invalidates: EXPENSE_CHANGES,
  });
}
