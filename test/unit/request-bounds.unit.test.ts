import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOpenApiDocument } from '../../src/openapi-document.js';

/**
 * Every input bounded: each string a request may carry (a body field at any depth, a query
 * parameter, a header) states its longest length, or is closed by an enum, a constant or a
 * format with its own length. The body limit would cap a field anyway; this keeps a megabyte
 * ID from reaching a query, a log line or an error message, and makes the bound part of the
 * document a client reads.
 */

type Schema = Record<string, unknown>;

const BOUNDED_FORMATS = new Set(['date-time', 'date', 'uuid', 'binary']);

function unbounded(schema: unknown, where: string, components: Record<string, Schema>, seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    return unbounded(components[name], where, components, new Set([...seen, name]));
  }
  const found: string[] = [];
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const closed = 'enum' in s || 'const' in s || (typeof s.format === 'string' && BOUNDED_FORMATS.has(s.format));
  if (types.includes('string') && typeof s.maxLength !== 'number' && !closed) found.push(where);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    (s[key] as unknown[] | undefined)?.forEach((branch, i) => found.push(...unbounded(branch, `${where}|${i}`, components, seen)));
  }
  for (const [name, property] of Object.entries((s.properties as Schema | undefined) ?? {})) {
    found.push(...unbounded(property, `${where}.${name}`, components, seen));
  }
  if (s.items) found.push(...unbounded(s.items, `${where}[]`, components, seen));
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    found.push(...unbounded(s.additionalProperties, `${where}{}`, components, seen));
  if (s.patternProperties) {
    for (const value of Object.values(s.patternProperties as Schema)) found.push(...unbounded(value, `${where}{}`, components, seen));
  }
  if (s.propertyNames) found.push(...unbounded(s.propertyNames, `${where}{name}`, components, seen));
  return found;
}

test('every string a request can carry (body, query, header) has a longest length', async () => {
  const document = await buildOpenApiDocument();
  const components = ((document.components as Schema).schemas ?? {}) as Record<string, Schema>;
  const problems: string[] = [];
  let strings = 0;
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation.parameters as Schema[] | undefined) ?? []) {
        // A path parameter is a lookup key: any shape that is not an ID is a 404 (src/lib/ids.ts).
        if (parameter.in === 'path') continue;
        strings++;
        problems.push(...unbounded(parameter.schema, `${at} ${String(parameter.in)} ${String(parameter.name)}`, components));
      }
      const content = ((operation.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;
      for (const [type, body] of Object.entries(content)) {
        strings++;
        problems.push(...unbounded(body.schema, `${at} body(${type})`, components));
      }
    }
  }
  assert.ok(strings > 100, `the walk reached the request schemas (${strings})`);
  assert.deepEqual(problems, [], `request strings without maxLength:\n${problems.join('\n')}`);
});
