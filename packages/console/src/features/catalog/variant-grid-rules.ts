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
