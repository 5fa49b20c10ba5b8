import type { Db, Executor } from '../db/database.js';
import type { Selectable } from 'kysely';
import type { ExpenseCategory, ExpensesTable } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, validationError } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { paged, toPage, countOf, totalOf } from '../lib/pagination.js';
import type { Expense, ExpenseCreate, ExpenseListQuery, ExpensePatch } from './schemas.js';
import { transaction } from '../db/transaction.js';

type ExpenseRow = Selectable<ExpensesTable>;

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
  if (amount !== undefined && Number(amount) <= 0) throw validationError('amount must be above zero', [{ field: 'amount', message: 'must be > 0' }]);
};

/** Operating expenses (SUPER_ADMIN), feeding the P&L. Deletes are soft. */
export function createExpenseService({ db }: { db: Db }) {
  async function find(executor: Executor, publicId: string): Promise<ExpenseRow> {
    const row = isPublicId('exp', publicId)
      ? await executor.selectFrom('expenses').selectAll().where('public_id', '=', publicId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst()
      : undefined;
    if (!row) throw notFound('Expense');
    return row;
  }

  return {
    async list(query: ExpenseListQuery) {
      let base = db.selectFrom('expenses').where('deleted_at', 'is', null);
      if (query.category) base = base.where('category', '=', query.category as ExpenseCategory);
      if (query.from) base = base.where('spent_at', '>=', query.from);
      if (query.to) base = base.where('spent_at', '<=', query.to);
      const rows = await base
        .selectAll()
        .select(countOf(base).as('total_count'))
        .orderBy('spent_at', 'desc')
        .orderBy('public_id', 'desc')
        .$call(paged(query))
        .execute();
      return toPage(rows, query, totalOf(base), toExpense);
    },

    async create(ctx: AuthedCtx, input: ExpenseCreate): Promise<Expense> {
      positive(input.amount);
      return transaction(db, async (trx) => {
        const row = await trx
          .insertInto('expenses')
          .values({ public_id: newPublicId('exp'), description: input.description, category: input.category as ExpenseCategory, amount: input.amount, spent_at: input.spent_at, created_by: ctx.actor.userId })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { action: 'expense.create', entityType: 'expense', entityPublicId: row.public_id, changes: { before: null, after: audited(row) } });
        return toExpense(row);
      });
    },

    async update(ctx: AuthedCtx, publicId: string, patch: ExpensePatch): Promise<Expense> {
      positive(patch.amount);
      return transaction(db, async (trx) => {
        const before = await find(trx, publicId);
        const after = await trx
          .updateTable('expenses')
          .set({ ...patch, category: (patch.category ?? before.category) as ExpenseCategory, updated_at: new Date() })
          .where('id', '=', before.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { action: 'expense.update', entityType: 'expense', entityPublicId: publicId, changes: { before: audited(before), after: audited(after) } });
        return toExpense(after);
      });
    },

    async remove(ctx: AuthedCtx, publicId: string): Promise<void> {
      await transaction(db, async (trx) => {
        const before = await find(trx, publicId);
        await trx.updateTable('expenses').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', before.id).execute();
        await writeAudit(trx, ctx, { action: 'expense.delete', entityType: 'expense', entityPublicId: publicId, changes: { before: audited(before), after: null } });
      });
    },
  };
}

export type ExpenseService = ReturnType<typeof createExpenseService>;
