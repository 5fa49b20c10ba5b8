/**
 * The catalog's CSV format, one row per variant, shared by the export (GET /admin/products with
 * format=csv) and the import (POST /admin/imports/products), so an export edited in a spreadsheet
 * imports back as it is. A product's columns repeat on each of its variants' rows.
 *
 * - `categories`: category slugs separated by `|`.
 * - `options`: `name=value` pairs separated by `;`, e.g. `size=M; colour=Blue` (a `;`, `=` or `\`
 *   inside a name or value is written with a `\` before it).
 * - Money as `19.99`; `quantity_on_hand` and `reorder_level` as whole numbers.
 */

export const PRODUCT_CSV_COLUMNS = [
  'product_slug',
  'product_name',
  'product_status',
  'brand',
  'description',
  'categories',
  'sku',
  'variant_name',
  'options',
  'price',
  'compare_at_price',
  'cost_price',
  'variant_status',
  'quantity_on_hand',
  'reorder_level',
] as const;

export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
export type ProductCsvRow = Record<ProductCsvColumn, string>;

const escapeOption = (text: string) => text.replace(/[\\;=]/g, (c) => `\\${c}`);

export function formatOptions(options: Record<string, string>): string {
  return Object.entries(options)
    .map(([name, value]) => `${escapeOption(name)}=${escapeOption(value)}`)
    .join('; ');
}

/** `size=M; colour=Blue` as an object; null when a pair has no `=` or a name appears twice. */
export function parseOptions(text: string): Record<string, string> | null {
  const options: Record<string, string> = {};
  if (text.trim() === '') return options;
  const pairs: string[][] = [[]];
  let escaped = false;
  let current = '';
  for (const char of text) {
    if (escaped) {
      current += char;
      escaped = false;
    } else if (char === '\\') escaped = true;
    else if (char === '=' && pairs.at(-1)!.length === 0) {
      pairs.at(-1)!.push(current);
      current = '';
    } else if (char === ';') {
      pairs.at(-1)!.push(current);
      pairs.push([]);
      current = '';
    } else current += char;
  }
  pairs.at(-1)!.push(current);
  for (const pair of pairs) {
    if (pair.length === 1 && pair[0]!.trim() === '') continue; // a trailing `;`
    if (pair.length !== 2) return null;
    const name = pair[0]!.trim();
    if (name === '' || Object.hasOwn(options, name)) return null;
    options[name] = pair[1]!.trim();
  }
  return options;
}
