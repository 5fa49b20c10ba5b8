import { parse } from 'csv-parse/sync';
import { Type, type Static } from 'typebox';
import { validationError } from '../lib/errors.js';
import { LongText } from '../lib/schemas.js';
import { validatorCompiler } from '../lib/validation.js';
import { PRODUCT_CSV_COLUMNS, parseOptions, type ProductCsvColumn } from './product-csv.js';
import { refusalMessage, type RowIssue } from './import-refusals.js';
import { MoneyInput, ProductCreate, ProductStatus, Slug, VariantCreate, VariantStatus } from './schemas.js';

/**
 * An import file's rows, read and checked one by one against the same rules the API's own
 * requests follow (the schemas of POST /admin/products and of a variant), before anything is
 * looked up in the database. An empty cell means "not given": left as it is on an update, the
 * default on a create; `none` clears an optional value (compare-at price, cost, reorder level).
 */

/** Most rows one import may hold. */
export const IMPORT_MAX_ROWS = 10_000;

const Quantity = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
const Clearable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** A row once its cells are typed; the fields a row leaves out are absent. */
const ImportRow = Type.Object(
  {
    product_slug: Type.Optional(Slug),
    product_name: Type.Optional(ProductCreate.properties.name),
    product_status: Type.Optional(ProductStatus),
    brand: Clearable(Type.String({ maxLength: 100 })),
    description: Type.Optional(LongText(20000)),
    categories: Type.Optional(Type.Array(Slug, { maxItems: 20, uniqueItems: true })),
    sku: VariantCreate.properties.sku,
    variant_name: Type.Optional(VariantCreate.properties.name),
    options: Type.Optional(VariantCreate.properties.options),
    price: Type.Optional(MoneyInput),
    compare_at_price: Clearable(MoneyInput),
    cost_price: Clearable(MoneyInput),
    variant_status: Type.Optional(VariantStatus),
    quantity_on_hand: Type.Optional(Quantity),
    reorder_level: Clearable(Quantity),
  },
  { additionalProperties: false },
);
export type ImportRow = Static<typeof ImportRow>;

type RowCheck = {
  (value: unknown): boolean;
  errors?: RowIssue[] | null;
};
let compiledRowCheck: RowCheck | undefined;
/** Compiled on the first import, not when the module loads (most processes never import a file). */
const rowCheck = () =>
  (compiledRowCheck ??= validatorCompiler({ schema: ImportRow, httpPart: 'body', method: 'POST', url: '/import' }) as unknown as RowCheck);

/**
 * The column the console adds to a file of refused rows, saying why each was refused: read past, so
 * the file imports back once its rows are fixed.
 */
export const REFUSAL_COLUMN = 'refused_because';

const CLEARABLE = new Set<ProductCsvColumn>(['brand', 'compare_at_price', 'cost_price', 'reorder_level']);
const INTEGER = new Set<ProductCsvColumn>(['quantity_on_hand', 'reorder_level']);

export interface Refusal {
  /** The line of the file (the header is line 1). */
  line: number;
  sku: string | null;
  field: string;
  message: string;
}

export interface ParsedRow {
  line: number;
  row: ImportRow;
}

/** A cell as the value its column takes; `undefined` for an empty one. */
function cellValue(column: ProductCsvColumn, raw: string): unknown {
  const text = raw.trim();
  if (text === '') return undefined;
  if (CLEARABLE.has(column) && text.toLowerCase() === 'none') return null;
  // A sign is read too, so -3 is refused as below 0 rather than as not a number.
  if (INTEGER.has(column)) return /^[-+]?\d+$/.test(text) ? Number(text) : text;
  if (column === 'categories')
    return text
      .split('|')
      .map((slug) => slug.trim())
      .filter((slug) => slug !== '');
  if (column === 'options') return parseOptions(text) ?? text;
  if (column === 'description') return raw;
  return text;
}

/**
 * The file's rows, typed, and the refusals of those that break a rule (each naming its line, SKU
 * and column). A file that cannot be read as this format at all (not CSV, an unknown or missing
 * column, too many rows) is refused whole with 400.
 */
export function readImportFile(csv: string): { rows: ParsedRow[]; refused: Refusal[] } {
  let records: string[][];
  try {
    records = parse(csv, { bom: true, relax_column_count: false, skip_empty_lines: true });
  } catch (error) {
    throw validationError('The file is not valid CSV', [{ field: 'file', message: (error as Error).message }]);
  }
  const [header, ...data] = records;
  if (!header) throw validationError('The file is empty', [{ field: 'file', message: 'needs a header row and at least one row' }]);
  const columns = header.map((name) => name.trim());
  const unknown = columns.filter((name) => name !== REFUSAL_COLUMN && !(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw validationError(`Unknown columns: ${unknown.join(', ')}`, [
      { field: 'file', message: `columns are ${PRODUCT_CSV_COLUMNS.join(', ')} (any subset with sku, in any order)` },
    ]);
  }
  if (!columns.includes('sku')) throw validationError('The file has no sku column', [{ field: 'file', message: 'sku is required' }]);
  if (new Set(columns).size < columns.length)
    throw validationError('A column appears twice', [{ field: 'file', message: 'each column once' }]);
  if (data.length === 0)
    throw validationError('The file has no rows', [{ field: 'file', message: 'needs at least one row under the header' }]);
  if (data.length > IMPORT_MAX_ROWS) {
    throw validationError(`At most ${IMPORT_MAX_ROWS} rows per file`, [{ field: 'file', message: `has ${data.length} rows` }]);
  }

  const checkRow = rowCheck();
  const rows: ParsedRow[] = [];
  const refused: Refusal[] = [];
  data.forEach((cells, index) => {
    const line = index + 2;
    const values: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      if (column === REFUSAL_COLUMN) return;
      const value = cellValue(column as ProductCsvColumn, cells[i] ?? '');
      if (value !== undefined) values[column] = value;
    });
    const sku = typeof values.sku === 'string' ? values.sku : null;
    if (checkRow(values)) {
      rows.push({ line, row: values as ImportRow });
      return;
    }
    const seen = new Set<string>();
    for (const issue of checkRow.errors ?? []) {
      // Columns are checked against the format above, so every complaint is about one of them.
      const field = (issue.instancePath.split('/')[1] || String(issue.params?.missingProperty)) as ProductCsvColumn;
      if (seen.has(field)) continue;
      seen.add(field);
      refused.push({ line, sku, field, message: refusalMessage(field, ImportRow.properties[field], issue, values[field]) });
    }
  });
  return { rows, refused };
}
