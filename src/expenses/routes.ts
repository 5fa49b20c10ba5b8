import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import { Expense, ExpenseCreate, ExpenseListQuery, ExpensePatch } from './schemas.js';
import type { ExpenseService } from './service.js';

export const expenseRoutes =
  (deps: { expenses: ExpenseService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { expenses } = deps;
    const config = { access: 'super_admin' as const };
    const tags = ['Admin: finance'];
    const params = IdParam('expense_public_id', 'exp');

    app.get('/admin/expenses', {
      config,
      schema: {
        tags,
        summary: 'Operating expenses, newest first',
        querystring: ExpenseListQuery,
        response: { 200: Page(Expense), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await expenses.list(request.query)) }),
    });

    app.post('/admin/expenses', {
      config,
      schema: { tags, summary: 'Record an operating expense', body: ExpenseCreate, response: { 201: Ok(Expense), ...errorResponses() } },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await expenses.create(authedCtxOf(request), request.body) }),
    });

    app.patch('/admin/expenses/:expense_public_id', {
      config,
      schema: {
        tags,
        summary: 'Edit an expense',
        params,
        body: ExpensePatch,
        response: { 200: Ok(Expense), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await expenses.update(authedCtxOf(request), request.params.expense_public_id, request.body),
      }),
    });

    app.delete('/admin/expenses/:expense_public_id', {
      config,
      schema: { tags, summary: 'Delete an expense (soft)', params, response: { 204: NoContent, ...errorResponses('NOT_FOUND') } },
      handler: async (request, reply) => {
        await expenses.remove(authedCtxOf(request), request.params.expense_public_id);
        return sendEmpty(reply, 204);
      },
    });
  };
