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

interface Checker {
  document: Document;
  ajv: Ajv2020;
}

/**
 * The checkers this process has made, by the document's text: files that share a process build
 * the same app one after another, and compiling the same response schemas again for each app cost
 * about 3% of the HTTP tests' CPU time. An app whose document differs (other settings) gets its own.
 */
const checkers = new Map<string, Checker>();

function checkerFor(app: FastifyInstance): Checker {
  const text = JSON.stringify(app.swagger());
  let checker = checkers.get(text);
  if (!checker) {
    const document = JSON.parse(text) as Document;
    // The document itself is checked against OpenAPI 3.1 once, by packages/client/test/openapi-document.unit.test.ts:
    // validating it against the meta-schema here cost every test file a tenth of a CPU-second.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    checker = { document, ajv };
    checkers.set(text, checker);
  }
  return checker;
}

export function checkResponsesAgainstDocument(app: FastifyInstance): { problems: string[] } {
  const problems: string[] = [];
  let checker: Checker | null = null;
  const prepare = () => (checker ??= checkerFor(app));

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
