import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authedCtxOf } from '../auth/guard.js';
import { validationError } from '../lib/errors.js';
import { Ok, errorResponses } from '../lib/schemas.js';
import { multiline } from '../lib/text.js';
import { PRODUCT_CSV_COLUMNS } from './product-csv.js';
import { REFUSAL_COLUMN } from './import-rows.js';
import { ImportQuery, ImportReport } from './import-schemas.js';
import type { CatalogImport } from './import-service.js';

/** The file as text; bytes that are not UTF-8 are refused with the line they are on. */
function utf8Text(bytes: Buffer): string {
  const strict = new TextDecoder('utf-8', { fatal: true });
  try {
    return strict.decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let end = bytes.indexOf(0x0a); ; end = bytes.indexOf(0x0a, start)) {
      const stop = end === -1 ? bytes.length : end;
      try {
        strict.decode(bytes.subarray(start, stop));
      } catch {
        break;
      }
      if (end === -1) break;
      line++;
      start = end + 1;
    }
    throw validationError(`The file is not UTF-8 text (line ${line}): save it as "CSV UTF-8" and import it again`, [
      { field: 'file', message: `line ${line} has bytes that are not UTF-8` },
    ]);
  }
}

/** Largest import file: about 10,000 rows of a wide catalog. */
const IMPORT_BYTES = 5 * 1024 * 1024;

/** No more characters than the file's bytes. */
const CsvFile = Type.String({ description: 'The CSV file, header first (Content-Type: text/csv)', maxLength: IMPORT_BYTES, ...multiline });

export const catalogImportRoutes =
  (deps: { imports: CatalogImport }): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Only these routes read CSV bodies; elsewhere text/csv stays an unsupported media type.
    // Read as bytes and decoded strictly: a file saved as Latin-1 (as spreadsheets often do) would otherwise
    // turn "Café" into "Caf\uFFFD" in every name it touched, silently.
    app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: IMPORT_BYTES }, (_request, body, done) => {
      try {
        done(null, utf8Text(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    });

    app.post('/admin/imports/products', {
      config: { access: 'admin', documentedBody: { contentType: 'text/csv', schema: CsvFile } },
      bodyLimit: IMPORT_BYTES,
      schema: {
        tags: ['Admin: catalog'],
        summary: 'Import products, variants and stock from CSV (the export format), idempotent on SKU',
        description: `Columns (any subset with sku, in any order): ${PRODUCT_CSV_COLUMNS.join(', ')}. Up to 10,000 rows, 5 MB. An empty cell leaves a value as it is; \`none\` clears brand, compare_at_price, cost_price or reorder_level. A stock count is a file of sku and quantity_on_hand with a reason: each changed quantity becomes an adjustment. A \`${REFUSAL_COLUMN}\` column (the console's file of refused rows, fixed) is read past.`,
        querystring: ImportQuery,
        body: CsvFile,
        response: { 200: Ok(ImportReport), ...errorResponses('PAYLOAD_TOO_LARGE', 'SKU_TAKEN', 'SLUG_TAKEN', 'CONFLICT') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await deps.imports.importProducts(authedCtxOf(request), request.body, request.query.mode, request.query.reason),
      }),
    });
  };
