import type { ImportReport } from './api';

/** The column the import reads past (src/catalog/import-rows.ts), so the file imports back once its rows are fixed. */
const REFUSAL_COLUMN = 'refused_because';

/**
 * A CSV file's records as lists of cells. Empty lines are skipped, as the import skips them, so
 * record n is the import's line n + 1 (the header is line 1). Only called on a file the import has
 * read already, so it need not refuse malformed ones.
 */
function readCsv(csv: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  const text = csv.startsWith('\uFEFF') ? csv.slice(1) : csv;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      records.push([...record, cell]);
      record = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records.filter((r) => r.length > 1 || r[0] !== '');
}

const writeCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/**
 * The refused rows of a checked file, in its own columns and as it gave them, each with why it was
 * refused in a last column: fixed, the file imports back as it is.
 */
export function refusedRowsCsv(csv: string, refused: ImportReport['refused']): string {
  const [header = [], ...rows] = readCsv(csv);
  // A file of refused rows checked again has the column already: its old reasons make way for the new.
  const kept = header.flatMap((name, i) => (name.trim() === REFUSAL_COLUMN ? [] : [i]));
  const reasons = new Map<number, string[]>();
  for (const r of refused) reasons.set(r.line, [...(reasons.get(r.line) ?? []), `${r.field}: ${r.message}`]);
  const lines = [...reasons]
    .sort(([a], [b]) => a - b)
    .map(([line, why]) => [...kept.map((i) => rows[line - 2]?.[i] ?? ''), why.join('\n')]);
  return `${[[...kept.map((i) => header[i]!), REFUSAL_COLUMN], ...lines].map((cells) => cells.map(writeCell).join(',')).join('\r\n')}\r\n`;
}

/** `mugs.csv` → `mugs-refused.csv`. */
export const refusedRowsFilename = (name: string) => `${name.replace(/\.csv$/i, '')}-refused.csv`;
