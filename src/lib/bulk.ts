import { Type, type Static } from 'typebox';
import { mapError } from './error-handler.js';
import { PublicIdRef } from './schemas.js';
import { ALL_ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * Bulk actions: one request acting on many items, each item through the same service function a
 * single request uses (its own transaction, its own audit entry), one after another. One item's
 * refusal does not stop the others; the answer says, item by item, what was done and what was
 * refused and why. A fault that is not a refusal (a 500) ends the request as it would one item.
 */

/** Most items one bulk request may name. */
export const BULK_MAX = 100;

export const BulkIds = (prefix: string) =>
  Type.Array(PublicIdRef(prefix), {
    minItems: 1,
    maxItems: BULK_MAX,
    uniqueItems: true,
  });

const Outcome = Type.Object({
  public_id: Type.String(),
  outcome: Type.Union([Type.Literal('done'), Type.Literal('refused')]),
  error: Type.Union([
    Type.Object({
      code: Type.Unsafe<ErrorCode>(Type.String({ enum: ALL_ERROR_CODES })),
      message: Type.String(),
    }),
    Type.Null(),
  ]),
});

export const BulkResult = Type.Object({
  done: Type.Integer({ minimum: 0 }),
  refused: Type.Integer({ minimum: 0 }),
  results: Type.Array(Outcome, { description: 'One per item, in the order given' }),
});
export type BulkResult = Static<typeof BulkResult>;

export async function eachItem(ids: readonly string[], work: (id: string) => Promise<unknown>): Promise<BulkResult> {
  const results: BulkResult['results'] = [];
  for (const id of ids) {
    try {
      await work(id);
      results.push({ public_id: id, outcome: 'done', error: null });
    } catch (error) {
      const refusal = mapError(error as Error);
      if (!refusal || refusal.status >= 500) throw error;
      results.push({ public_id: id, outcome: 'refused', error: { code: refusal.code, message: refusal.message } });
    }
  }
  const done = results.filter((r) => r.outcome === 'done').length;
  return { done, refused: results.length - done, results };
}
