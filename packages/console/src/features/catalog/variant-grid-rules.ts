import type { VariantBatch } from './products-api';

/** How the variants grid makes its rows: every combination of the option values picked, named and given a SKU. */

export interface OptionAxis {
  name: string;
  values: string[];
}

/** The batch endpoint takes at most this many variants in one request. */
export const MAX_GRID_ROWS = 100;

/**
 * Every combination of the axes' values, in order (size S, M, L × colour Red, Blue: S/Red, S/Blue,
 * M/Red, ...). Axes without a name or values are left out; a value given twice counts once.
 */
export function combinations(axes: OptionAxis[]): Record<string, string>[] {
  const used = axes
    .map((axis) => ({ name: axis.name.trim(), values: [...new Set(axis.values.map((v) => v.trim()).filter(Boolean))] }))
    .filter((axis) => axis.name && axis.values.length > 0);
  if (used.length === 0) return [];
  return used.reduce<Record<string, string>[]>(
    (combos, axis) => combos.flatMap((combo) => axis.values.map((value) => ({ ...combo, [axis.name]: value }))),
    [{}],
  );
}

/** "S / Red": the combination's values, as its variant is named. */
export const comboName = (combo: Record<string, string>) => Object.values(combo).join(' / ');

/** A SKU part from any text: upper case letters and digits, other runs as one dash ("Navy blue" → "NAVY-BLUE"). */
const skuPart = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** "MUG-S-RED": the prefix, then each value; at most 80 characters, as the API allows. */
export function comboSku(prefix: string, combo: Record<string, string>): string {
  return [skuPart(prefix), ...Object.values(combo).map(skuPart)].filter(Boolean).join('-').slice(0, 80).replace(/-+$/, '');
}

/** A SKU prefix from the product's slug or name ("speckled-mug" → "SPECKLED-MUG"), short enough to leave room for values. */
export const skuPrefix = (slugOrName: string) => skuPart(slugOrName).slice(0, 40).replace(/-+$/, '');

/** Whether two option sets are the same, in any key order (as the API compares them). */
export function sameOptions(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}

/** A row of the grid: one combination's variant, as typed (the numbers as text until sent). */
export interface GridRow {
  options: Record<string, string>;
  name: string;
  sku: string;
  price: string;
  compare_at_price: string;
  cost_price: string;
  stock: string;
  reorder_level: number | string;
}

/** The grid's form: the options' values, what applies to every row, and the rows made from them. */
export interface GridValues {
  axes: OptionAxis[];
  prefix: string;
  price: string;
  compare_at_price: string;
  cost_price: string;
  stock: string;
  reorder_level: number | string;
  rows: GridRow[];
}

/** The rows as the API's batch takes them: trimmed, optional prices left out when empty, each with its stock record. */
export function gridBatch(rows: readonly GridRow[]): VariantBatch {
  return {
    variants: rows.map((row) => ({
      sku: row.sku.trim(),
      name: row.name.trim(),
      options: row.options,
      price: row.price.trim(),
      ...(row.compare_at_price.trim() ? { compare_at_price: row.compare_at_price.trim() } : {}),
      ...(row.cost_price.trim() ? { cost_price: row.cost_price.trim() } : {}),
      stock: {
        quantity_on_hand: Number(row.stock),
        ...(row.reorder_level === '' ? {} : { reorder_level: Number(row.reorder_level) }),
      },
    })),
  };
}

/** The grid's field for a field the API names in a refused batch (variants.N.<field>): row N's input. */
export const gridField = (field: string) =>
  field
    .replace(/^variants\.(\d+)\.options(\..*)?$/, 'rows.$1.name')
    .replace(/^variants\.(\d+)\.stock\.quantity_on_hand$/, 'rows.$1.stock')
    .replace(/^variants\.(\d+)\.stock\.reorder_level$/, 'rows.$1.reorder_level')
    .replace(/^variants\./, 'rows.');
