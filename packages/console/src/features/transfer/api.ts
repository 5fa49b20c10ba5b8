import { apiErrorOf, NetworkError, type paths } from '@commerce/client';
import { api } from '../../api/client';
import { inventoryKeys, productKeys, statsKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';
import { csvRecordCounter } from '../../lib/csv-records';

type ImportOperation = paths['/api/v1/admin/imports/products']['post'];
export type ImportMode = ImportOperation['parameters']['query']['mode'];
export type ImportReport = ImportOperation['responses'][200]['content']['application/json']['data'];

/**
 * Sends a products CSV to the import: `validate` checks it and writes nothing; `all_or_nothing` and
 * `valid_rows` write (in one transaction) and change products, stock and the log.
 */
export function useImportProducts() {
  return useWrite({
    mutationFn: async ({ csv, mode, reason }: { csv: string; mode: ImportMode; reason?: string | undefined }) =>
      (
        await api.POST('/api/v1/admin/imports/products', {
          params: { query: { mode, ...(reason ? { reason } : {}) } },
          body: csv,
          // The file goes as it is, not as JSON.
          bodySerializer: (body: string) => body,
          headers: { 'Content-Type': 'text/csv' },
        })
      ).data,
    invalidates: ({ mode }) => (mode === 'validate' ? [] : [productKeys.all, inventoryKeys.all, statsKeys.all]),
  });
}

/** The exports, each with the filters its API takes. */
export interface ExportQueries {
  products: NonNullable<paths['/api/v1/admin/exports/products']['get']['parameters']['query']>;
  orders: NonNullable<paths['/api/v1/admin/exports/orders']['get']['parameters']['query']>;
  accounts: NonNullable<paths['/api/v1/admin/exports/accounts']['get']['parameters']['query']>;
}
export type ExportKind = keyof ExportQueries;

export interface ExportProgress {
  rows: number;
  /** From the API's `X-Total-Rows`, sent before the first row. */
  total: number | null;
}

/**
 * Streams an export and hands it to the browser as a file once complete, telling `onProgress` the
 * rows received against the total the API announced. A refusal before the first byte is the API's
 * error; a connection lost midway is a NetworkError, and no partial file is saved.
 */
export async function downloadExport<K extends ExportKind>(
  kind: K,
  query: ExportQueries[K],
  onProgress: (progress: ExportProgress) => void,
  signal?: AbortSignal,
): Promise<ExportProgress> {
  const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const url = `/api/v1/admin/exports/${kind}${params.size > 0 ? `?${params}` : ''}`;
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/csv' }, ...(signal ? { signal } : {}) });
  } catch (error) {
    throw new NetworkError(`GET ${url} failed`, error);
  }
  if (!response.ok || !response.body) throw await refusalOf(response);
  const announced = Number(response.headers.get('x-total-rows'));
  const total = Number.isInteger(announced) && announced >= 0 && response.headers.has('x-total-rows') ? announced : null;
  const counter = csvRecordCounter();
  const decoder = new TextDecoder();
  const parts: BlobPart[] = [];
  let progress: ExportProgress = { rows: 0, total };
  onProgress(progress);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      // Records ended so far, less the header.
      progress = { rows: Math.max(0, counter.add(decoder.decode(value, { stream: true })) - 1), total };
      onProgress(progress);
    }
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new NetworkError(`GET ${url} stopped before the end`, error);
  }
  saveFile(new Blob(parts, { type: 'text/csv' }), filenameOf(response) ?? `${kind}.csv`);
  return progress;
}

async function refusalOf(response: Response): Promise<Error> {
  return apiErrorOf(response, await response.json().catch(() => null));
}

const filenameOf = (response: Response) => /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null;

/** Hands `blob` to the browser as a download named `filename`. */
export function saveFile(blob: Blob, filename: string) {
  const href = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next task.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
