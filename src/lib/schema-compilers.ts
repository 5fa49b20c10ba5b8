import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { isSchemaNode, mapSubschemas, type SchemaNode } from './json-schema.js';

/**
 * Schema compilers that compile a route's schema on its first request rather than at start-up
 * (SCHEMA_COMPILE=first-use). Fastify compiles every route's validators and serializers as the
 * app becomes ready, about 0.4 s of CPU for this API; a test process or a development restart
 * touches a handful of routes and need not pay for all of them.
 */

type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/** `compiler`, deferred: Fastify reads `errors` off the function it was given, so they are copied there. */
export function validatorOnFirstUse(compiler: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> {
  return (route) => {
    let compiled: Validate | undefined;
    const validate: Validate = (data) => {
      compiled ??= compiler(route) as Validate;
      const result = compiled(data);
      validate.errors = compiled.errors;
      return result;
    };
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if'];

/** `{ type: 'null' }`, perhaps with a description, and nothing else. */
const isNullOnly = (schema: unknown) =>
  isSchemaNode(schema) && schema.type === 'null' && Object.keys(schema).every((key) => key === 'type' || key === 'description');
/** A schema of one plain type that a `type` list can carry: no combinators of its own. */
const isSingleType = (schema: unknown): schema is SchemaNode =>
  isSchemaNode(schema) && typeof schema.type === 'string' && schema.type !== 'null' && COMBINATORS.every((key) => !(key in schema));

/** The one value of a literal (`{ type, const }`, or a one-value `enum`), or undefined. */
function literalOf(schema: unknown): { type: string; value: unknown } | undefined {
  if (!isSchemaNode(schema) || typeof schema.type !== 'string') return undefined;
  const keys = Object.keys(schema).filter((key) => key !== 'type' && key !== 'description');
  if (keys.length !== 1) return undefined;
  if (keys[0] === 'const') return { type: schema.type, value: schema.const };
  if (keys[0] === 'enum' && Array.isArray(schema.enum) && schema.enum.length === 1) return { type: schema.type, value: schema.enum[0] };
  return undefined;
}

/** `anyOf` options the serializer can do without: a nullable (X or null), or literals of one type (TypeBox's union of literals). */
function withoutAnyOf(options: unknown[]): SchemaNode | undefined {
  if (options.length === 2) {
    const nullAt = options.findIndex(isNullOnly);
    const value: unknown = options[1 - nullAt];
    if (nullAt !== -1 && isSingleType(value)) return { ...value, type: [value.type, 'null'] };
  }
  const literals = options.map(literalOf);
  const type = literals[0]?.type;
  if (type !== undefined && type !== 'null' && literals.every((literal) => literal?.type === type)) {
    return { type, enum: literals.map((literal) => literal!.value) };
  }
  return undefined;
}

/**
 * A response schema as the serializer gets it: every nullable field (`anyOf: [X, { type: 'null' }]`,
 * TypeBox's `Union([X, Null()])`) written as the equivalent `X` with `type: [X's type, 'null']`.
 * fast-json-stringify serializes an `anyOf` by running an Ajv validator on the value to choose
 * the branch (compiled with the route, then called for that field of every row); a `type` list
 * costs a null check. A union of literals of one type (a role, a status) becomes one `enum`
 * for the same reason. Only the serializer sees the rewrite: the OpenAPI document, the client's
 * types and request validation keep the `anyOf`.
 */
export function schemaForSerializer(schema: unknown): unknown {
  if (!isSchemaNode(schema)) return schema;
  const out = mapSubschemas(schema, schemaForSerializer);
  const simpler = Array.isArray(out.anyOf) ? withoutAnyOf(out.anyOf) : undefined;
  if (simpler === undefined) return out;
  const { anyOf: _options, ...outer } = out;
  return { ...simpler, ...outer };
}

/**
 * Fastify's own serializer factory (fast-json-stringify, with the shared schemas), given each
 * response schema through schemaForSerializer; with `deferred`, each route's serializer is
 * compiled on its first use (SCHEMA_COMPILE=first-use).
 */
export function responseSerializers({ deferred }: { deferred: boolean }): SerializerSelector.SerializerFactory {
  const standard = SerializerSelector();
  return (sharedSchemas, options) => {
    const compile = standard(sharedSchemas, options);
    const compileRewritten: typeof compile = (route) => compile({ ...route, schema: schemaForSerializer(route.schema) });
    if (!deferred) return compileRewritten;
    return (route) => {
      let compiled: SerializerSelector.Serializer | undefined;
      return (document) => (compiled ??= compileRewritten(route))(document);
    };
  };
}
