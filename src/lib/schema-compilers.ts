import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';

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

/** Fastify's own serializer factory (fast-json-stringify, with the shared schemas), deferred per route. */
export function serializersOnFirstUse(): SerializerSelector.SerializerFactory {
  const standard = SerializerSelector();
  return (sharedSchemas, options) => {
    const compile = standard(sharedSchemas, options);
    return (route) => {
      let compiled: SerializerSelector.Serializer | undefined;
      return (document) => (compiled ??= compile(route))(document);
    };
  };
}
