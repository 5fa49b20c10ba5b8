import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** RFC 4180 CSV; cells that a spreadsheet would run as formulas are prefixed with a quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (columns: readonly string[], row: Record<string, unknown>) => columns.map((c) => cell(row[c])).join(',');

export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.join(','), ...rows.map((row) => line(columns, row))].join('\r\n') + '\r\n';
}

/** CSV is asked for with `?format=csv` or `Accept: text/csv`. */
export function wantsCsv(request: FastifyRequest): boolean {
  const query = request.query as { format?: string } | undefined;
  return query?.format === 'csv' || /\btext\/csv\b/.test(request.headers.accept ?? '');
}

/**
 * Sends CSV as its rows arrive, a batch at a time, so an export of any size never sits whole in
 * memory; the client sees the download start at once. A failure after the first bytes ends the
 * response early (it is logged); the file is then visibly cut short.
 */
export function sendCsvStream(
  reply: FastifyReply,
  filename: string,
  columns: readonly string[],
  batches: AsyncIterable<readonly Record<string, unknown>[]>,
  /** How many rows will follow, when known first: sent as `X-Total-Rows`, so a client can show progress. */
  totalRows?: number,
) {
  if (totalRows !== undefined) reply.header('x-total-rows', String(totalRows));
  async function* text() {
    yield `${columns.join(',')}\r\n`;
    for await (const rows of batches) if (rows.length > 0) yield `${rows.map((row) => line(columns, row)).join('\r\n')}\r\n`;
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(Readable.from(text()));
}

export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .serializer((payload: unknown) => String(payload))
    .send(csv);
}
