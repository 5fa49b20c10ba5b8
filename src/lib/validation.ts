import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Two validators. Bodies are checked strictly: no type coercion ("5" is not 5)
 * and unknown fields are an error rather than silently dropped. Query strings
 * and path parameters arrive as text, so they are coerced to the declared types.
 */
const shared: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

const strict = addFormats.default(new Ajv({ ...shared, coerceTypes: false }));
const coercing = addFormats.default(new Ajv({ ...shared, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema as object);
