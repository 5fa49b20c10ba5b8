import assert from 'node:assert/strict';
import { test } from 'node:test';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Type } from 'typebox';
import { multiline } from '../../src/lib/text.js';
import { schemaForSerializer, responseSerializers, validatorOnFirstUse } from '../../src/lib/schema-compilers.js';
import { validatorCompiler, validatorCompilerUnchecked, withTextRules } from '../../src/lib/validation.js';

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
  const serialize = responseSerializers({ deferred: true })(shared, {})(route);
  assert.equal(serialize({ price: { amount: '9.99', secret: 'x' }, extra: 1 }), '{"price":{"amount":"9.99"}}');
  // A schema that cannot compile is found on the first response, not before.
  const broken = responseSerializers({ deferred: true })(shared, {})({ ...route, schema: { $ref: 'Nowhere#' } });
  assert.throws(() => broken({}), /Cannot resolve ref "Nowhere#"/);
});

test('nullable fields and unions of literals reach the serializer as plain types and serialize as they did', () => {
  const Shipment = Type.Object({ carrier: Type.String(), tracking: Type.Union([Type.String(), Type.Null()]) });
  const schema = Type.Object({
    note: Type.Union([Type.String(), Type.Null()], { description: 'kept' }),
    at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    level: Type.Union([Type.Integer(), Type.Null()]),
    shipment: Type.Union([Shipment, Type.Null()]),
    lines: Type.Array(Type.Object({ alt: Type.Union([Type.Null(), Type.String()]) })),
    either: Type.Union([Type.String(), Type.Integer()]),
    role: Type.Union([Type.Literal('ADMIN'), Type.Literal('SUPER_ADMIN')]),
  });
  const rewritten = schemaForSerializer(schema) as any;
  assert.deepEqual(rewritten.properties.note, { type: ['string', 'null'], description: 'kept' });
  assert.deepEqual(rewritten.properties.shipment.type, ['object', 'null']);
  assert.deepEqual(rewritten.properties.shipment.properties.tracking.type, ['string', 'null']);
  assert.deepEqual(rewritten.properties.lines.items.properties.alt.type, ['string', 'null']);
  assert.equal(rewritten.properties.either.anyOf.length, 2, 'a union of two types that is not a nullable stays a union');
  assert.deepEqual(rewritten.properties.role, { type: 'string', enum: ['ADMIN', 'SUPER_ADMIN'] });
  assert.ok(JSON.stringify(schema).includes('anyOf'), 'the route keeps its schema');

  const route = { method: 'GET', url: '/', httpStatus: '200', schema };
  const plain = SerializerSelector()({}, {})(route);
  const serialize = responseSerializers({ deferred: false })({}, {})(route);
  const at = '2026-11-27T06:00:00.000Z';
  for (const document of [
    { note: null, at: null, level: null, shipment: null, lines: [{ alt: null }], either: 1, role: 'ADMIN' },
    {
      note: 'n "q"',
      at,
      level: 0,
      shipment: { carrier: 'DHL', tracking: null },
      lines: [{ alt: 'a' }, { alt: null }],
      either: 'x',
      role: 'SUPER_ADMIN',
    },
    { note: '', at, level: 7, shipment: { carrier: 'UPS', tracking: '1Z' }, lines: [], either: 2, role: 'ADMIN' },
  ]) {
    assert.equal(serialize(document), plain(document));
    assert.deepEqual(JSON.parse(serialize(document)), document);
  }
});

test('the compiler a start uses refuses a schema the meta-schema refuses (a negative length); the first-use one skips that check', () => {
  const route = { schema: { type: 'object', properties: { name: { type: 'string', maxLength: -1 } } }, method: 'POST', url: '/' };
  for (const httpPart of ['body', 'querystring'] as const) {
    assert.throws(() => validatorCompiler({ ...route, httpPart }), /schema is invalid/);
    assert.doesNotThrow(() => validatorCompilerUnchecked({ ...route, httpPart }));
  }
});
