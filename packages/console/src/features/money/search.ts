import { EXPENSE_CATEGORIES, valuesOf, type ExpenseCategory, type SortOf } from '../../api/domain';
import { date, oneOf, pageOrNone } from '../../lib/search';

export const EXPENSE_SORTS = valuesOf<SortOf<'/api/v1/admin/expenses'>>()(['-spent_at', 'spent_at', '-amount', 'amount']);

export interface MoneySearch {
  /** The P&L range: calendar days, both inclusive (the API's defaults: the last twelve months). */
  from?: string | undefined;
  to?: string | undefined;
  /** The expenses list below it: its page, category and days spent (both inclusive). */
  page?: number | undefined;
  category?: ExpenseCategory | undefined;
  spent_from?: string | undefined;
  spent_to?: string | undefined;
  expense_sort?: (typeof EXPENSE_SORTS)[number] | undefined;
  /** The coupon performance table's page. */
  coupon_page?: number | undefined;
}

export const moneySearch = (search: Record<string, unknown>): MoneySearch => ({
  from: date(search.from),
  to: date(search.to),
  page: pageOrNone(search.page),
  category: oneOf(search.category, EXPENSE_CATEGORIES),
  spent_from: date(search.spent_from),
  spent_to: date(search.spent_to),
  expense_sort: oneOf(search.expense_sort, EXPENSE_SORTS),
  coupon_page: pageOrNone(search.coupon_page),
});
