import { Type, type Static } from 'typebox';
import { MoneyInput } from '../catalog/schemas.js';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { Money, RequiredText, Timestamp } from '../lib/schemas.js';
import { multiline } from '../lib/text.js';

const Day = Type.String({ format: 'date', description: 'Calendar date, YYYY-MM-DD' });

export const ExpenseCreate = Type.Object(
  {
    description: RequiredText(500, multiline),
    category: Type.Union(['RENT', 'SALARIES', 'MARKETING', 'SOFTWARE', 'SHIPPING', 'UTILITIES', 'OTHER'].map((c) => Type.Literal(c))),
    amount: { ...MoneyInput, description: 'Above zero' },
    spent_at: Day,
  },
  { additionalProperties: false },
);
export type ExpenseCreate = Static<typeof ExpenseCreate>;

export const ExpensePatch = Type.Partial(ExpenseCreate, { additionalProperties: false, minProperties: 1 });
export type ExpensePatch = Static<typeof ExpensePatch>;

export const Expense = Type.Object({
  public_id: Type.String(),
  description: Type.String(),
  category: Type.String(),
  amount: Money,
  spent_at: Type.String({ format: 'date' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Expense = Static<typeof Expense>;

export const EXPENSE_SORTS = ['spent_at', 'amount'] as const;
export type ExpenseSortField = (typeof EXPENSE_SORTS)[number];

export const ExpenseListQuery = Type.Object({
  ...PageQuery,
  sort: SortQuery(EXPENSE_SORTS, '-spent_at'),
  category: Type.Optional(ExpenseCreate.properties.category),
  from: Type.Optional({ ...Day, description: 'Inclusive' }),
  to: Type.Optional({ ...Day, description: 'Inclusive' }),
});
export type ExpenseListQuery = Static<typeof ExpenseListQuery>;
