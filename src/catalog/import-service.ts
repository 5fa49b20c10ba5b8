import type { Db } from '../db/database.js';
import { transaction } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { applyImport, type ImportCounts } from './import-apply.js';
import { planImport, type ImportPlan } from './import-plan.js';
import { readImportFile } from './import-rows.js';
import type { ImportMode, ImportReport } from './import-schemas.js';

const NOTHING: ImportCounts = {
  created: { products: 0, variants: 0, stock_records: 0 },
  updated: { products: 0, variants: 0, stock_records: 0 },
};

/**
 * The counts the valid rows change of variants the store has: what a stock count will adjust, shown
 * before it is applied. A new variant's first count is no change, and would only repeat the file.
 */
const stockChanges = (plan: ImportPlan): ImportReport['stock_changes'] =>
  plan.targets.flatMap(({ line, row, existing, onHand }) =>
    existing && row.quantity_on_hand !== undefined && row.quantity_on_hand !== onHand
      ? [{ line, sku: row.sku, on_hand_now: onHand, on_hand_new: row.quantity_on_hand }]
      : [],
  );

/**
 * Products, variants and stock from a CSV file (src/catalog/product-csv.ts), idempotent on SKU:
 * every row is checked first, and the report lists each refused row with its reason. `validate`
 * writes nothing; `all_or_nothing` writes only when no row is refused; `valid_rows` writes the
 * rows that passed. Writes happen in one transaction, so an import is applied whole or not at all.
 */
export function createCatalogImport({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async importProducts(ctx: AuthedCtx, csv: string, mode: ImportMode, reason = 'CSV import'): Promise<ImportReport> {
      const { rows, refused } = readImportFile(csv);
      const total = rows.length + new Set(refused.map((r) => r.line)).size;
      return transaction(db, async (trx) => {
        const plan = await planImport(trx, rows, refused);
        const report = { mode, rows: total, valid: plan.targets.length, refused: plan.refused, stock_changes: stockChanges(plan) };
        const apply = mode === 'valid_rows' || (mode === 'all_or_nothing' && plan.refused.length === 0);
        if (!apply || plan.targets.length === 0) return { ...report, applied: false, ...NOTHING };
        return { ...report, applied: true, ...(await applyImport(trx, ctx, plan, clock.now(), reason)) };
      });
    },
  };
}

export type CatalogImport = ReturnType<typeof createCatalogImport>;
