import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authedCtxOf } from '../auth/guard.js';
import { Ok, errorResponses } from '../lib/schemas.js';
import { multiline } from '../lib/text.js';
import { PRODUCT_CSV_COLUMNS } from './product-csv.js';
import { REFUSAL_COLUMN } from './import-rows.js';
import { ImportQuery, ImportReport } from './import-schemas.js';
import type { CatalogImport } from './import-service.js';

/** Largest import file: about 10,000 rows of a wide catalog. */
const IMPORT_BYTES = 5 * 1024 * 1024;

/** No more characters than the file's bytes. */
const CsvFile = Type.String({ description: 'The CSV file, header first (Content-Type: text/csv)', maxLength: IMPORT_BYTES, ...multiline });

export const catalogImportRoutes =
  (deps: { imports: CatalogImport }): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Only these routes read CSV bodies; elsewhere text/csv stays an unsupported media type.
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_BYTES }, (_request, body, done) => done(null, body));

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
