import fc from 'fast-check';
import { deeplyNested, hostileValue, malformedJson, valid, wrongContentType, type Known, type Schema } from './arbitraries.js';

/**
 * What the fuzz test sends: each operation of the OpenAPI document as a valid
 * request over the fixture store (baseRequest), spoiled one way (a Mutation),
 * and rendered as method, URL, headers and body (build).
 */

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}
export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | null;
  needsSession: boolean;
}

/** Every operation of the document, in the order the fuzz walks them. */
export function operationsOf(document: { paths: Record<string, Record<string, any>> }): Operation[] {
  const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: (op.parameters ?? []) as Parameter[],
      body: (op.requestBody?.content?.['application/json']?.schema as Schema | undefined) ?? null,
      needsSession: ((op.security ?? []) as Record<string, unknown>[]).some((s) => 'session' in s),
    })),
  );
  // Writes that end the fuzzer's own session or delete the store's things go last.
  const rank = (op: Operation) => (op.path === '/api/v1/auth/session' && op.method === 'DELETE' ? 2 : op.method === 'DELETE' ? 1 : 0);
  return operations.sort((a, b) => rank(a) - rank(b));
}

export interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Where a `leaf` mutation put its value: a body path, or a query or path parameter. */
  spoiled?: { where: 'body' | 'query' | 'path'; at: (string | number)[] };
}

export type Mutation =
  | { kind: 'leaf'; where: 'body' | 'query' | 'path' | 'header'; pick: number; value: unknown }
  | { kind: 'drop'; pick: number }
  | { kind: 'extra'; name: string; value: unknown }
  | { kind: 'duplicate'; pick: number; value: unknown }
  | { kind: 'nest'; pick: number; nested: string }
  | { kind: 'contentType'; type: string }
  | { kind: 'malformed'; text: string }
  | { kind: 'rawPath'; pick: number; raw: string }
  | { kind: 'repeatQuery'; pick: number; values: unknown[] };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('leaf' as const),
      where: fc.constantFrom('body' as const, 'query' as const, 'path' as const, 'header' as const),
      pick: fc.nat(),
      value: hostileValue,
    }),
  },
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('extra' as const),
    name: fc.constantFrom('unknown_field', 'role', 'status', 'id', 'user_id', 'constructor'),
    value: hostileValue,
  }),
  fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('nest' as const), pick: fc.nat(), nested: deeplyNested }),
  fc.record({ kind: fc.constant('contentType' as const), type: wrongContentType }),
  fc.record({ kind: fc.constant('malformed' as const), text: malformedJson }),
  fc.record({
    kind: fc.constant('rawPath' as const),
    pick: fc.nat(),
    raw: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%ED%A0%80', 'x'.repeat(3000), '..%2f..', '%2e%2e', '%20', '%C0%AE'),
  }),
  fc.record({ kind: fc.constant('repeatQuery' as const), pick: fc.nat(), values: fc.array(hostileValue, { minLength: 2, maxLength: 4 }) }),
);

/** A valid request for `op` over the store that `known` names. */
export function baseRequest(op: Operation, known: Known) {
  const path = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema, known, p.name)]));
  const query = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query')
      .map((p) => [p.name, p.required ? valid(p.schema, known, p.name) : fc.option(valid(p.schema, known, p.name), { nil: undefined })]),
  );
  const header = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'header')
      .map((p) => [p.name, p.required ? valid(p.schema, known, p.name) : fc.option(valid(p.schema, known, p.name), { nil: undefined })]),
  );
  return fc.record({
    path: fc.record(path),
    query: fc.record(query),
    header: fc.record(header),
    body: op.body ? valid(op.body, known) : fc.constant(undefined),
  });
}

/** Paths (as key lists) to every value inside `value`, containers included. */
function slots(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return at.length > 0 ? [at] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [...(at.length > 0 ? [at] : []), ...entries.flatMap(([key, v]) => slots(v, [...at, key]))];
}

function setAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(target) ? [...target] : { ...(target as object) };
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

function dropAt(target: unknown, path: (string | number)[]): unknown {
  const copy: any = Array.isArray(target) ? [...target] : { ...(target as object) };
  if (path.length === 1) {
    if (Array.isArray(copy)) copy.splice(Number(path[0]), 1);
    else delete copy[path[0]!];
    return copy;
  }
  copy[path[0]!] = dropAt(copy[path[0]!], path.slice(1));
  return copy;
}

// Past Node's 16 KB header limit every request is the same 431; keep most URLs under it so the checks behind run.
export const queryText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).slice(0, 1000);
const pathText = (value: unknown) => {
  try {
    return encodeURIComponent(queryText(value));
  } catch {
    return '%ED%A0%80'; // a lone surrogate has no UTF-8 form; send the bytes it would have had
  }
};

// Header values are bytes 0x20-0xFF (fetch refuses the rest, line breaks and NUL included).
const headerText = (value: unknown) => [...queryText(value)].map((c) => (c >= ' ' && c <= '\u00ff' && c !== '\u007f' ? c : '?')).join('');

/** The request as sent: a valid one, spoiled by `m`. */
export function build(
  op: Operation,
  base: { path: Record<string, unknown>; query: Record<string, unknown>; header: Record<string, unknown>; body: unknown },
  m: Mutation,
): Built {
  let { path, query, header, body } = base;
  const rawPath: Record<string, string> = {};
  let rawBody: string | undefined;
  let contentType = 'application/json';
  const repeated: [string, unknown][] = [];
  const pick = <T>(list: T[], n: number) => list[n % list.length];

  let spoiled: Built['spoiled'];
  switch (m.kind) {
    case 'leaf': {
      if (m.where === 'body' && body !== undefined) {
        const at = pick(slots(body), m.pick) ?? [];
        body = setAt(body, at, m.value);
        spoiled = { where: 'body', at };
      } else if (m.where === 'path' && Object.keys(path).length > 0) {
        const name = pick(Object.keys(path), m.pick)!;
        path = { ...path, [name]: m.value };
        spoiled = { where: 'path', at: [name] };
      } else if (m.where === 'header' && Object.keys(header).length > 0)
        header = { ...header, [pick(Object.keys(header), m.pick)!]: m.value };
      else {
        const name = pick(Object.keys(query), m.pick) ?? 'q';
        query = { ...query, [name]: m.value };
        spoiled = { where: 'query', at: [name] };
      }
      break;
    }
    case 'drop': {
      const bodySlots = body !== undefined ? slots(body) : [];
      if (bodySlots.length > 0) body = dropAt(body, pick(bodySlots, m.pick)!);
      else if (Object.keys(query).length > 0) query = { ...query, [pick(Object.keys(query), m.pick)!]: undefined };
      break;
    }
    case 'extra':
      if (body !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body)) body = { ...body, [m.name]: m.value };
      else query = { ...query, [m.name]: m.value };
      break;
    case 'duplicate':
      if (body !== undefined && typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length > 0) {
        const key = pick(Object.keys(body), m.pick)!;
        rawBody = `{${JSON.stringify(key)}:${JSON.stringify(m.value) ?? 'null'},${JSON.stringify(body).slice(1)}`;
      } else {
        const key = pick(Object.keys(query), m.pick) ?? 'page';
        repeated.push([key, m.value], [key, query[key] ?? 1]);
      }
      break;
    case 'nest': {
      const target = body !== undefined ? pick(slots(body), m.pick) : undefined;
      rawBody = target ? JSON.stringify(setAt(body, target, '\u0001NEST\u0001')).replace('"\\u0001NEST\\u0001"', m.nested) : m.nested;
      break;
    }
    case 'contentType':
      contentType = m.type;
      rawBody = JSON.stringify(body ?? {});
      break;
    case 'malformed':
      rawBody = m.text;
      break;
    case 'rawPath': {
      const names = Object.keys(path);
      if (names.length > 0) rawPath[pick(names, m.pick)!] = m.raw;
      break;
    }
    case 'repeatQuery': {
      const key = pick(Object.keys(query), m.pick) ?? 'page';
      for (const value of m.values) repeated.push([key, value]);
      query = { ...query, [key]: undefined };
      break;
    }
  }

  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => rawPath[name] ?? pathText(path[name] ?? 'x'));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, queryText(value));
  for (const [key, value] of repeated) search.append(key, queryText(value));
  const text = rawBody ?? (body !== undefined ? JSON.stringify(body) : undefined);
  const sendsBody = !['GET', 'HEAD'].includes(op.method) && text !== undefined;
  const headers: Record<string, string> = {};
  // fetch refuses header values with line breaks or NUL, and values past Node's header limit only ever get 431.
  for (const [name, value] of Object.entries(header)) if (value !== undefined) headers[name] = headerText(value);
  if (sendsBody && contentType) headers['content-type'] = contentType;
  return {
    method: op.method,
    url: url + (search.size > 0 ? `?${search}` : ''),
    headers,
    ...(sendsBody ? { body: text } : {}),
    ...(spoiled ? { spoiled } : {}),
  };
}

/**
 * Characters that let one line of text disguise itself (bidirectional
 * embeddings, overrides and isolates; zero-width and other invisible
 * characters, the Hangul fillers and the blank Braille pattern), which a
 * single-line field must refuse (issue 24); direction marks and variation
 * selectors stay.
 */
export const DISGUISING = /(?![\u061c\u200e\u200f\p{Variation_Selector}])[\p{Default_Ignorable_Code_Point}\u2800]/u;

const isSchemaNode = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schemas that may describe the value at `at` inside a value of `schema` (through properties, items, open maps and unions). */
function schemasAt(schema: unknown, at: (string | number)[]): Schema[] {
  if (!isSchemaNode(schema)) return [];
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) return branches.flatMap((branch) => schemasAt(branch, at));
  if (at.length === 0) return [schema];
  const [head, ...rest] = at;
  const properties = isSchemaNode(schema.properties) ? schema.properties : {};
  const next = typeof head === 'number' ? schema.items : head! in properties ? properties[head!] : schema.additionalProperties;
  return schemasAt(next, rest);
}

const isSingleLineText = (schema: Schema) =>
  [schema.type].flat().includes('string') && schema['x-multiline'] !== true && schema.format !== 'password';

/** True when `request` put a disguising character into a single-line text field or parameter of `op`. */
export function disguisesSingleLine(op: Operation, request: Built, value: unknown): boolean {
  if (!request.spoiled || typeof value !== 'string' || !DISGUISING.test(value)) return false;
  const { where, at } = request.spoiled;
  const schemas =
    where === 'body' ? schemasAt(op.body, at) : op.parameters.filter((p) => p.in === where && p.name === at[0]).map((p) => p.schema);
  return schemas.some(isSingleLineText);
}
