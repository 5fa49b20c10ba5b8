import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isSchemaNode, mapSubschemas } from './json-schema.js';
import { isPlainText, MULTILINE, type TextKind } from './text.js';

/**
 * Two validators. Bodies are checked strictly: no type coercion ("5" is not 5)
 * and unknown fields are an error rather than silently dropped. Query strings,
 * path parameters and headers arrive as text, so they are coerced to the
 * declared types.
 *
 * Every string of every request schema (object keys of open maps included)
 * also passes the `plainText` check, added here rather than per field so a
 * field added later is covered without anyone remembering it: no NUL or other
 * control characters (PostgreSQL refuses NUL, and control characters have no
 * business in names, codes or search terms) and no broken UTF-16; on a
 * single line, no bidirectional controls or zero-width characters either.
 * Fields declared with `MULTILINE` may hold tabs and line breaks (and those
 * characters); passwords (`format: 'password'`) may hold the latter too.
 */
const shared: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

function withPlainText(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: 'plainText',
    type: 'string',
    schemaType: 'string',
    errors: true,
    validate: function check(kind: TextKind, value: string) {
      const problem = isPlainText(value, kind);
      if (problem === null) return true;
      (check as { errors?: unknown[] }).errors = [{ keyword: 'plainText', message: problem, params: {} }];
      return false;
    },
  });
  return ajv;
}

/**
 * Dates and times the database can store: the standard formats allow a leap
 * second (`23:59:60`) and year 0000, which JavaScript's Date cannot represent
 * or PostgreSQL refuses. Both are refused here, for every field at once.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
function withStorableDates(ajv: Ajv): Ajv {
  for (const name of ['date', 'date-time'] as const) {
    const standard = ajv.formats[name] as { validate: (value: string) => boolean };
    ajv.addFormat(name, {
      type: 'string',
      validate: (value: string) => {
        if (!standard.validate(value)) return false;
        const time = new Date(name === 'date' ? `${value}T00:00:00Z` : value).getTime();
        return time >= EARLIEST && time <= LATEST;
      },
    });
  }
  return ajv;
}

/** OpenAPI's `password` format only marks a secret (src/lib/text.ts); any string is one. */
const withSecrets = (ajv: Ajv): Ajv => ajv.addFormat('password', true);

const withRules = (ajv: Ajv) => withPlainText(withSecrets(withStorableDates(addFormats.default(ajv))));

/** A copy of `schema` with `plainText` on every string and on the keys of every open map. */
export function withTextRules(schema: unknown): unknown {
  if (!isSchemaNode(schema)) return schema;
  const out = mapSubschemas(schema, withTextRules);
  const types = [out.type].flat();
  if (types.includes('string')) out.plainText = out[MULTILINE] === true ? 'multiline' : out.format === 'password' ? 'secret' : 'line';
  const openMap = isSchemaNode(out.patternProperties) || isSchemaNode(out.additionalProperties);
  if (types.includes('object') && openMap && !isSchemaNode(out.propertyNames)) out.propertyNames = { type: 'string', plainText: 'line' };
  return out;
}

function compilerOf(checkSchemas: boolean): FastifySchemaCompiler<unknown> {
  const make = (coerceTypes: Options['coerceTypes']) => withRules(new Ajv({ ...shared, validateSchema: checkSchemas, coerceTypes }));
  let strict: Ajv | undefined;
  let coercing: Ajv | undefined;
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? (strict ??= make(false)) : (coercing ??= make('array'));
    return ajv.compile(withTextRules(schema) as object);
  };
}

/** Compiles each schema after checking it against the JSON Schema meta-schema (a mistake in a schema stops the start). */
export const validatorCompiler = compilerOf(true);

/**
 * The same without the meta-schema check, for SCHEMA_COMPILE=first-use (tests, development):
 * compiling the meta-schema itself costs each process about 60 ms of CPU before its first
 * request. Every schema is still checked by every start with SCHEMA_COMPILE=start (production,
 * and the tests that start the service as `npm start` does).
 */
export const validatorCompilerUnchecked = compilerOf(false);
