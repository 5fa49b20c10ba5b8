import type { FastifyReply, FastifyRequest } from 'fastify';

/** RFC 4180 CSV; cells that a spreadsheet would run as formulas are prefixed with a quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.join(','), ...rows.map((row) => columns.map((c) => cell(row[c])).join(','))].join('\r\n') + '\r\n';
}

/** CSV is asked for with `?format=csv` or `Accept: text/csv`. */
export function wantsCsv(request: FastifyRequest): boolean {
  const query = request.query as { format?: string } | undefined;
  return query?.format === 'csv' || /\btext\/csv\b/.test(request.headers.accept ?? '');
}

export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .serializer((payload: unknown) => String(payload))
    .send(csv);
}
