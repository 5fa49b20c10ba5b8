import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { multiline } from '../../src/lib/text.js';
import { serializersOnFirstUse, validatorOnFirstUse } from '../../src/lib/schema-compilers.js';
import { validatorCompiler, withTextRules } from '../../src/lib/validation.js';

test('every string of a schema gets the rule, map keys too, without anyone naming the field', () => {
  const schema = Type.Object({
    name: Type.String(),
    note: Type.String(multiline),
    tags: Type.Array(Type.String()),
    options: Type.Record(Type.String(), Type.String()),
  });
  const validate = validatorCompiler({ schema: schema as any, httpPart: 'body', method: 'POST', url: '/' }) as unknown as (
    value: unknown,
  ) => boolean;
  const ok = { name: 'Mug', note: 'two\nlines', tags: ['a'], options: { size: 'M' } };
  assert.equal(validate(ok), true);
  assert.equal(validate({ ...ok, name: 'Mu\ng' }), false);
  assert.equal(validate({ ...ok, tags: ['a\u0000'] }), false);
  assert.equal(validate({ ...ok, options: { 'si\nze': 'M' } }), false);
  assert.equal(validate({ ...ok, options: { size: 'M\u0007' } }), false);
  const rewritten = withTextRules(schema) as any;
  assert.equal(rewritten.properties.note.plainText, 'multiline');
  assert.equal(rewritten.properties.name.plainText, 'line');
});

test('bodies are not coerced and refuse unknown fields; query strings are coerced', () => {
  const schema = Type.Object({ quantity: Type.Integer() }, { additionalProperties: false });
  const body = validatorCompiler({ schema: schema as any, httpPart: 'body', method: 'POST', url: '/' }) as unknown as (
    value: unknown,
  ) => boolean;
  const query = validatorCompiler({ schema: schema as any, httpPart: 'querystring', method: 'GET', url: '/' }) as unknown as (
    value: unknown,
  ) => boolean;
  assert.equal(body({ quantity: '5' }), false);
  assert.equal(body({ quantity: 5, extra: 1 }), false);
  assert.equal(query({ quantity: '5' }), true);
});

test('dates outside what JavaScript and PostgreSQL can both hold are refused', () => {
  const schema = Type.Object({ at: Type.String({ format: 'date-time' }) });
  const validate = validatorCompiler({ schema: schema as any, httpPart: 'body', method: 'POST', url: '/' }) as unknown as (
    value: unknown,
  ) => boolean;
  assert.equal(validate({ at: '2026-01-01T00:00:00Z' }), true);
  assert.equal(validate({ at: '0000-01-01T00:00:00Z' }), false);
  assert.equal(validate({ at: '2026-06-30T23:59:60Z' }), false);
});

test('a validator compiled on first use: nothing compiled until a request, then the same answers and errors', () => {
  let compiles = 0;
  const counting: typeof validatorCompiler = (route) => {
    compiles += 1;
    return validatorCompiler(route);
  };
  const schema = Type.Object({ quantity: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
  const validate = validatorOnFirstUse(counting)({ schema: schema as any, httpPart: 'body', method: 'POST', url: '/' }) as unknown as ((
    value: unknown,
  ) => boolean) & { errors?: { keyword: string }[] | null };
  assert.equal(compiles, 0);
  assert.equal(validate({ quantity: 0 }), false);
  assert.equal(validate.errors?.[0]?.keyword, 'minimum', 'Fastify reads the errors off the function it holds');
  assert.equal(validate({ quantity: 2 }), true);
  assert.equal(validate.errors, null);
  assert.equal(compiles, 1, 'compiled once');
});

test('a serializer compiled on first use writes what the standard one writes, shared schemas included', () => {
  const shared = { Money: { $id: 'Money', type: 'object', properties: { amount: { type: 'string' } } } };
  const route = {
    method: 'GET',
    url: '/',
    httpStatus: '200',
    schema: { type: 'object', properties: { price: { $ref: 'Money#' }, hidden: { type: 'null' } } },
  };
  const serialize = serializersOnFirstUse()(shared, {})(route);
  assert.equal(serialize({ price: { amount: '9.99', secret: 'x' }, extra: 1 }), '{"price":{"amount":"9.99"}}');
  // A schema that cannot compile is found on the first response, not before.
  const broken = serializersOnFirstUse()(shared, {})({ ...route, schema: { $ref: 'Nowhere#' } });
  assert.throws(() => broken({}), /Cannot resolve ref "Nowhere#"/);
});
