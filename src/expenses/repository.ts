import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { ExpenseCategory, ExpensesTable } from '../db/schema.js';
import { countOf, paged } from '../lib/sql.js';
import type { Sort } from '../lib/pagination.js';
import type { ExpenseListQuery, ExpenseSortField } from './schemas.js';

/** SQL of `expenses`, their one owner (analytics reads them for the P&L). */

export type ExpenseRow = Selectable<ExpensesTable>;

const filtered = (db: Executor, query: ExpenseListQuery) => {
  let base = db.selectFrom('expenses').where('deleted_at', 'is', null);
  if (query.category) base = base.where('category', '=', query.category as ExpenseCategory);
  if (query.from) base = base.where('spent_at', '>=', query.from);
  if (query.to) base = base.where('spent_at', '<=', query.to);
  return base;
};

/** A page of live expenses in the asked order (public ID breaks ties), each row with the filtered total as `total_count`. */
export function listExpenses(db: Executor, query: ExpenseListQuery, sort: Sort<ExpenseSortField>) {
  return filtered(db, query)
    .selectAll()
    .select(countOf(filtered(db, query)).as('total_count'))
    .orderBy(sort.field, sort.direction)
    .orderBy('public_id', sort.direction)
    .$call(paged(query))
    .execute();
}

export async function countExpenses(db: Executor, query: ExpenseListQuery): Promise<number> {
  return (await countOf(filtered(db, query)).executeTakeFirstOrThrow()).n;
}

/** A live expense, row-locked for an edit or a delete. */
export function lockExpense(db: Executor, publicId: string): Promise<ExpenseRow | undefined> {
  return db
    .selectFrom('expenses')
    .selectAll()
    .where('public_id', '=', publicId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function insertExpense(
  db: Executor,
  row: { public_id: string; description: string; category: ExpenseCategory; amount: string; spent_at: string; created_by: number },
): Promise<ExpenseRow> {
  return db.insertInto('expenses').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateExpense(db: Executor, id: number, changes: Updateable<ExpensesTable>, now: Date): Promise<ExpenseRow> {
  return db
    .updateTable('expenses')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
