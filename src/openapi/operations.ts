import type { Access } from '../auth/guard.js';
import { ERROR_CODES, errorSchemaId, type ErrorCode } from '../lib/error-codes.js';
import { ERROR_CODES_KEY } from '../lib/schemas.js';

/**
 * How a route's schema becomes an honest OpenAPI operation. Fastify's route
 * schemas describe what the server validates; a caller needs a little more:
 *
 * - A field with a `default` is filled in by the validator, so the caller may
 *   leave it out: it is not `required` in the document, whatever the schema says.
 * - A write without a body schema ignores its body: it may be sent empty or as `{}`.
 * - Every error response is the envelope with the codes that operation can
 *   give: the ones the route declares (`errorResponses(...)`) and the ones
 *   every route of its kind shares (validation, session, CSRF, role, body
 *   parsing, Node's own refusals of a malformed request).
 */
type Schema = Record<string, unknown>;

interface RouteFacts {
  url: string;
  access: Access;
  write: boolean;
  csrf: boolean;
  /** A body the route reads itself (a multipart form), described for the document only. */
  documentedBody?: { contentType: string; schema: unknown } | undefined;
  /** The 200 answer is only ever a CSV file. */
  csvOnly?: boolean;
}

const BODY_OPTIONAL_KEY = 'x-body-optional';
const CSV_KEY = 'x-csv';
const CSV_ONLY_KEY = 'x-csv-only';

const EMPTY_BODY = {
  type: 'object',
  maxProperties: 0,
  description: 'No body: send nothing or `{}`',
};

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of a request schema where no property with a default is required (the validator fills it in). */
export function defaultsOptional(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsOptional);
  if (!isObject(schema)) return schema;
  const out: Schema = { ...schema };
  const properties = isObject(out.properties) ? out.properties : null;
  if (properties) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, defaultsOptional(value)]));
    if (Array.isArray(out.required)) {
      const required = (out.required as string[]).filter(
        (name) => !(isObject(properties[name]) && 'default' in (properties[name] as Schema)),
      );
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) if (key in out) out[key] = defaultsOptional(out[key]);
  return out;
}

/** The codes every operation of this kind can answer with, whatever it declares. */
function sharedCodes(schema: Schema, facts: RouteFacts): [number, ErrorCode][] {
  const codes: [number, ErrorCode][] = [
    [400, 'VALIDATION_ERROR'],
    [408, 'REQUEST_TIMEOUT'],
    [417, 'EXPECTATION_FAILED'],
    [431, 'PAYLOAD_TOO_LARGE'],
    [500, 'INTERNAL_ERROR'],
    [503, 'SERVICE_UNAVAILABLE'],
  ];
  if (/[:*]/.test(facts.url)) codes.push([404, 'NOT_FOUND']);
  if (schema.body || facts.write) codes.push([400, 'INVALID_JSON'], [413, 'PAYLOAD_TOO_LARGE'], [415, 'UNSUPPORTED_MEDIA_TYPE']);
  // A write that keeps losing deadlocks or serialization checks after its retries (src/db/transaction.ts).
  if (facts.write) codes.push([409, 'CONFLICT']);
  if (facts.access !== 'public' && facts.access !== 'optional') codes.push([401, 'UNAUTHENTICATED']);
  if (facts.csrf) codes.push([403, 'CSRF_TOKEN_INVALID']);
  if (facts.access === 'admin' || facts.access === 'super_admin') codes.push([403, 'FORBIDDEN']);
  return codes;
}

/** The route's schema as the document should see it (the route itself keeps its own). */
export function documentOperation(schema: Schema, facts: RouteFacts): Schema {
  const out: Schema = { ...schema };
  const response: Schema = { ...(isObject(schema.response) ? schema.response : {}) };
  const codes = sharedCodes(schema, facts);
  for (const [status, entry] of Object.entries(response)) {
    if (!isObject(entry)) continue;
    const declared = entry[ERROR_CODES_KEY];
    if (Array.isArray(declared)) {
      for (const code of declared as ErrorCode[]) codes.push([Number(status), code]);
      delete response[status];
    } else if (entry.$ref === 'ErrorEnvelope') {
      throw new Error(`${facts.url}: declare the ${status} response with errorResponses(...codes), so its codes are documented`);
    }
  }
  // A route with no response schema keeps swagger's undocumented 200.
  if (isObject(schema.response)) out.response = response;

  if (facts.documentedBody) {
    out.body = facts.documentedBody.schema;
    out.consumes = [facts.documentedBody.contentType];
  } else if (schema.body) {
    out.body = defaultsOptional(schema.body);
  } else if (facts.write) {
    out.body = EMPTY_BODY;
    out[BODY_OPTIONAL_KEY] = true;
  }
  if (schema.querystring) out.querystring = defaultsOptional(schema.querystring);
  // `format=csv` (or Accept: text/csv) answers the same 200 as CSV text.
  const query = schema.querystring as Schema | undefined;
  if (isObject(query?.properties) && isObject((query.properties as Schema).format)) out[CSV_KEY] = true;
  if (facts.csvOnly) out[CSV_ONLY_KEY] = true;

  const byStatus: Record<string, ErrorCode[]> = {};
  for (const [status, code] of codes) {
    const list = (byStatus[status] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  out[ERROR_CODES_KEY] = byStatus;
  return out;
}

const errorEnvelopeOf = (code: ErrorCode) => ({
  type: 'object',
  description: ERROR_CODES[code].description,
  required: ['success', 'error', 'request_id'],
  properties: {
    success: { type: 'boolean', const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', const: code },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
            additionalProperties: true,
          },
        },
      },
    },
    request_id: { type: 'string' },
  },
});

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The generated document, finished: each operation's error responses written out from its codes. */
export function finishDocument(document: Schema): Schema {
  const components = (document.components ??= {}) as Schema;
  const schemas = (components.schemas ??= {}) as Schema;
  const codes = Object.keys(ERROR_CODES) as ErrorCode[];
  schemas.ErrorCode = { type: 'string', enum: codes, description: 'Every error code the service answers with' };
  for (const code of codes) schemas[errorSchemaId(code)] = errorEnvelopeOf(code);
  const envelope = schemas.ErrorEnvelope as Schema | undefined;
  const error = envelope && isObject(envelope.properties) ? (envelope.properties.error as Schema) : undefined;
  if (error && isObject(error.properties)) error.properties = { ...error.properties, code: ref('ErrorCode') };

  for (const operations of Object.values(document.paths as Record<string, Record<string, Schema>>)) {
    for (const operation of Object.values(operations)) {
      const byStatus = operation[ERROR_CODES_KEY] as Record<string, ErrorCode[]> | undefined;
      delete operation[ERROR_CODES_KEY];
      if (operation[BODY_OPTIONAL_KEY]) {
        delete operation[BODY_OPTIONAL_KEY];
        if (isObject(operation.requestBody)) operation.requestBody.required = false;
      }
      const responses = (operation.responses ??= {}) as Schema;
      if (operation[CSV_KEY]) {
        delete operation[CSV_KEY];
        const ok = responses['200'] as { content?: Schema } | undefined;
        if (ok?.content) ok.content['text/csv'] = { schema: { type: 'string', description: 'CSV, with format=csv or Accept: text/csv' } };
      }
      if (operation[CSV_ONLY_KEY]) {
        delete operation[CSV_ONLY_KEY];
        responses['200'] = {
          description: 'A CSV file, streamed; `X-Total-Rows` says how many rows follow the header',
          content: { 'text/csv': { schema: { type: 'string' } } },
        };
      }
      if (!byStatus) continue;
      for (const [status, list] of Object.entries(byStatus).sort(([a], [b]) => Number(a) - Number(b))) {
        const refs = list.map((code) => ref(errorSchemaId(code)));
        responses[status] = {
          description: list.map((code) => `- \`${code}\`: ${ERROR_CODES[code].description}`).join('\n'),
          content: { 'application/json': { schema: refs.length === 1 ? refs[0] : { oneOf: refs } } },
        };
      }
    }
  }
  return document;
}
