import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Checks every response the HTTP tests receive against the OpenAPI document:
 * the route and status must be documented, the content type declared, and a
 * JSON body must match the schema declared for that route, status and type.
 * Storefront routes whose bodies bypass Fastify's serializer (stored product
 * documents sent as JSON text) are checked like any other: the check reads
 * the bytes that leave the server. Mismatches are collected and reported
 * when the test app closes, so the document can never drift from behaviour.
 */
type Document = {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
};

const DOCUMENT_ID = 'openapi.json';

/** `/api/v1/orders/:order_public_id` and `/media/*` as the document writes them. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*/g, '{*}');

const pointer = (...segments: string[]) => '#/' + segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export function checkResponsesAgainstDocument(app: FastifyInstance): { problems: string[] } {
  const problems: string[] = [];
  let document: Document | null = null;
  let ajv: Ajv2020 | null = null;

  const prepare = () => {
    document ??= structuredClone(app.swagger()) as unknown as Document;
    if (!ajv) {
      // The document itself is checked against OpenAPI 3.1 once, by packages/client/test/openapi-document.unit.test.ts:
      // validating it against the meta-schema here cost every test file a tenth of a CPU-second.
      ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false });
      addFormats.default(ajv);
      ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    }
    return { document, ajv };
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (!url) return payload; // no route: the not-found handler (404/405), documented in the API conventions
    const { document, ajv } = prepare();
    const path = documentPath(url);
    const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase();
    const operation = document.paths[path]?.[method];
    if (!operation) return payload; // routes outside the document (/docs, /openapi.json)
    const status = String(reply.statusCode);
    const where = `${request.method} ${path} -> ${status}`;
    const response = operation.responses?.[status];
    if (!response) {
      problems.push(`${where}: status not in the document (${String(payload).slice(0, 200)})`);
      return payload;
    }
    if (!response.content || payload === null || payload === undefined || payload === '') return payload;
    const type = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim();
    if (!response.content[type]) {
      problems.push(`${where}: content type ${type || '(none)'} not declared (${Object.keys(response.content).join(', ')})`);
      return payload;
    }
    if (type !== 'application/json' || typeof payload !== 'string') return payload;
    const validate = ajv.getSchema(DOCUMENT_ID + pointer('paths', path, method, 'responses', status, 'content', type, 'schema'));
    if (!validate) {
      problems.push(`${where}: no schema to check against`);
      return payload;
    }
    if (!validate(JSON.parse(payload))) {
      problems.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: 'body' })} in ${payload.slice(0, 300)}`);
    }
    return payload;
  });
  return { problems };
}
