import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { date, oneOf, page } from '../lib/search';
import { staffRoute, superOnly } from './staff';

export const EXPENSE_CATEGORIES = ['RENT', 'SALARIES', 'MARKETING', 'SOFTWARE', 'SHIPPING', 'UTILITIES', 'OTHER'] as const;
export const EXPENSE_SORTS = ['-spent_at', 'spent_at', '-amount', 'amount'] as const;

export interface MoneySearch {
  /** The P&L range: calendar days, both inclusive (the API's defaults: the last twelve months). */
  from?: string | undefined;
  to?: string | undefined;
  /** The expenses list below it: its page, category and days spent (both inclusive). */
  page?: number | undefined;
  category?: (typeof EXPENSE_CATEGORIES)[number] | undefined;
  spent_from?: string | undefined;
  spent_to?: string | undefined;
  expense_sort?: (typeof EXPENSE_SORTS)[number] | undefined;
  /** The coupon performance table's page. */
  coupon_page?: number | undefined;
}

export const moneyRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/money',
  beforeLoad: superOnly,
  validateSearch: (search: Record<string, unknown>): MoneySearch => ({
    from: date(search.from),
    to: date(search.to),
    page: search.page === undefined ? undefined : page(search.page),
    category: oneOf(search.category, EXPENSE_CATEGORIES),
    spent_from: date(search.spent_from),
    spent_to: date(search.spent_to),
    expense_sort: oneOf(search.expense_sort, EXPENSE_SORTS),
    coupon_page: search.coupon_page === undefined ? undefined : page(search.coupon_page),
  }),
  component: lazyRouteComponent(() => import('../screens/money'), 'MoneyScreen'),
});
