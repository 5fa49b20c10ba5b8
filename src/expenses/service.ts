import type { Db, Executor } from '../db/database.js';
import type { ExpenseCategory } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, validationError } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { parseSort, toPage } from '../lib/pagination.js';
import { countExpenses, insertExpense, listExpenses, lockExpense, updateExpense, type ExpenseRow } from './repository.js';
import type { Expense, ExpenseCreate, ExpenseListQuery, ExpensePatch, ExpenseSortField } from './schemas.js';
import { transaction } from '../db/transaction.js';

const toExpense = (row: ExpenseRow): Expense => ({
  public_id: row.public_id,
  description: row.description,
  category: row.category,
  amount: row.amount,
  spent_at: row.spent_at,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
const audited = (row: ExpenseRow) => ({ description: row.description, category: row.category, amount: row.amount, spent_at: row.spent_at });

const positive = (amount: string | undefined) => {
  if (amount !== undefined && Number(amount) <= 0)
    throw validationError('amount must be above zero', [{ field: 'amount', message: 'must be > 0' }]);
};

/** Operating expenses (SUPER_ADMIN), feeding the P&L. Deletes are soft. */
export function createExpenseService({ db, clock }: { db: Db; clock: Clock }) {
  async function find(executor: Executor, publicId: string): Promise<ExpenseRow> {
    const row = isPublicId('exp', publicId) ? await lockExpense(executor, publicId) : undefined;
    if (!row) throw notFound('Expense');
    return row;
  }

  return {
    async list(query: ExpenseListQuery) {
      const rows = await listExpenses(db, query, parseSort<ExpenseSortField>(query.sort));
      return toPage(rows, query, () => countExpenses(db, query), toExpense);
    },

    async create(ctx: AuthedCtx, input: ExpenseCreate): Promise<Expense> {
      positive(input.amount);
      return transaction(db, async (trx) => {
        const row = await insertExpense(trx, {
          public_id: newPublicId('exp'),
          description: input.description,
          category: input.category as ExpenseCategory,
          amount: input.amount,
          spent_at: input.spent_at,
          created_by: ctx.actor.userId,
        });
        await writeAudit(trx, ctx, {
          action: 'expense.create',
          entityType: 'expense',
          entityPublicId: row.public_id,
          changes: { before: null, after: audited(row) },
        });
        return toExpense(row);
      });
    },

    async update(ctx: AuthedCtx, publicId: string, patch: ExpensePatch): Promise<Expense> {
      positive(patch.amount);
      return transaction(db, async (trx) => {
        const before = await find(trx, publicId);
        const after = await updateExpense(
          trx,
          before.id,
          { ...patch, category: (patch.category ?? before.category) as ExpenseCategory },
          clock.now(),
        );
        await writeAudit(trx, ctx, {
          action: 'expense.update',
          entityType: 'expense',
          entityPublicId: publicId,
          changes: { before: audited(before), after: audited(after) },
        });
        return toExpense(after);
      });
    },

    async remove(ctx: AuthedCtx, publicId: string): Promise<void> {
      await transaction(db, async (trx) => {
        const before = await find(trx, publicId);
        const now = clock.now();
        await updateExpense(trx, before.id, { deleted_at: now }, now);
        await writeAudit(trx, ctx, {
          action: 'expense.delete',
          entityType: 'expense',
          entityPublicId: publicId,
          changes: { before: audited(before), after: null },
        });
      });
    },
  };
}

export type ExpenseService = ReturnType<typeof createExpenseService>;
