import fc from 'fast-check';

/**
 * fast-check arbitraries for the fuzz test: valid values from the JSON
 * schemas of the OpenAPI document (the shapes the server validates with), and
 * hostile values that a valid request is then spoiled with.
 */
export type Schema = Record<string, unknown>;

/** Values for fields that must name existing things (IDs of the fixture store), by field name. */
export type Known = Readonly<Record<string, string | readonly string[]>>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const WORD = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,11}$/);

/** Mostly recent dates, sometimes anywhere in the years 0001-9999 that a date field takes. */
const storableDate = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }) },
  { weight: 1, arbitrary: fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }) },
);

/** A string of at least `min` and at most `max` characters that a person might type. */
const text = (min: number, max: number) => WORD.map((word) => word.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, word.length))));

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? 40);
  if (schema.format === 'email') return fc.emailAddress().filter((email) => email.length <= max);
  if (schema.format === 'date-time') return storableDate.map((d) => d.toISOString());
  if (schema.format === 'date') return storableDate.map((d) => d.toISOString().slice(0, 10));
  if (typeof schema.pattern === 'string') {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern.startsWith('^') ? schema.pattern : `^(?:${schema.pattern}[a-z]{0,8})$`, 'u'))
        .filter((s) => s.length >= min && s.length <= max);
    } catch {
      return text(Math.max(min, 1), max);
    }
  }
  return text(min, max);
}

/** Valid values for `schema`; `name` is the property the value sits in, for fields that name fixtures. */
export function valid(schema: unknown, known: Known, name = ''): fc.Arbitrary<unknown> {
  const fixture = known[name];
  if (fixture !== undefined) return fc.constant(fixture);
  if (!isSchema(schema)) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices)) return fc.oneof(...choices.map((choice) => valid(choice, known, name)));
  switch ([schema.type].flat()[0]) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? -1000), max: Math.min(Number(schema.maximum ?? 1000), 1000) });
    case 'number':
      return fc.double({ min: Number(schema.minimum ?? -1000), max: Number(schema.maximum ?? 1000), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items, known, name), {
        minLength: Number(schema.minItems ?? 0),
        maxLength: Math.min(Number(schema.maxItems ?? 3), 3),
      });
    case 'object':
      return objectFor(schema, known);
    default:
      return fc.constant(null);
  }
}

function objectFor(schema: Schema, known: Known): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set((schema.required ?? []) as string[]);
  if (Object.keys(properties).length === 0 && isSchema(schema.additionalProperties)) {
    return fc.dictionary(text(1, 12), valid(schema.additionalProperties, known), { maxKeys: 3 });
  }
  const model = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, valid(sub, known, key)]));
  const requiredKeys = Object.keys(properties).filter((key) => required.has(key));
  return fc.record(model, { requiredKeys }).filter((value) => Object.keys(value as object).length >= Number(schema.minProperties ?? 0));
}

/** Values no well-behaved client sends: wrong types, edges of every range, hostile text. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    -0,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    5e-324,
    '',
    ' ',
    '0',
    '-1',
    'NaN',
    'Infinity',
    '1e400',
    '99999999999999999999.99',
    'null',
    'true',
    '[]',
    '{}',
    '\u0000',
    'a\u0000b',
    '\u0007',
    '\u001b[31m',
    '\r\n',
    '\t',
    '\ud800',
    'x\udfffy',
    'a\u202eb',
    'abc\u202etxt.exe',
    'x\u202ay\u202c',
    'x\u202dy',
    'x\u2066y\u2069',
    'x\u2067y',
    'x\u2068y',
    'Ad\u200ba',
    'a\u200cb',
    'a\u200db',
    'a\u2060b',
    'a\u2063b',
    '\u200b',
    '\ufeff',
    'x\ufeffy',
    'soft\u00adhyphen',
    '\u3164',
    'a\u2800',
    'tag\u{e0041}',
    'I \u2764\ufe0f',
    'e\u0301',
    '😀',
    '\u2028',
    '2026-12-31T23:59:60Z',
    '0000-01-01',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-14:00',
    '2026-02-30',
    '2026-13-01T00:00:00Z',
    '1970-01-01T00:00:00.0000000001Z',
    '+275760-09-13T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01t00:00:00z',
    '%00',
    '%',
    '%zz',
    '../../etc/passwd',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '\\',
    '"',
    'prd_',
    'var_0000000000000000',
    [],
    {},
    [null],
    { constructor: { prototype: {} } },
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 100, max: 20_000 }).map((n) => 'é'.repeat(n)),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.double(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 200 }),
  fc.object({ maxDepth: 3 }),
);

/** An array or object nested `depth` levels deep. */
export const deeplyNested = fc
  .record({ depth: fc.integer({ min: 50, max: 20_000 }), kind: fc.constantFrom('array', 'object') })
  .map(({ depth, kind }) => (kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

export const wrongContentType = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/jsonx',
  '',
);

export const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '[1,',
  '{"a":1}}',
  "{'a':1}",
  '{"a":01}',
  'nul',
  '\u0000',
  '{"a":"\\x"}',
  '{"a":"\\ud800"}',
  '{"__proto__":{"x":1}}',
);
