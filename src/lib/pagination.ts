import type { FastifyReply } from 'fastify';
import { Type, type TString } from 'typebox';

/**
 * Query parameters and `meta` shared by every list endpoint. The SQL side of
 * paging (LIMIT/OFFSET as literals, the filtered count) is in ./sql.ts, for
 * repositories.
 */
export const PageQuery = {
  // The cap keeps (page - 1) * limit inside PostgreSQL's OFFSET range; any page past the end is simply empty.
  page: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1, description: '1-based page number' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page (1-100)' }),
};

/** The query of a list that takes nothing but paging. */
export const PageOnlyQuery = Type.Object(PageQuery);

export interface PageRequest {
  page: number;
  limit: number;
}

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

const sendJsonText = (reply: FastifyReply, body: string) => reply.type('application/json; charset=utf-8').send(body);

/** A page whose `data` is already JSON text (built by PostgreSQL), sent with sendJsonPage. */
export interface JsonPage {
  data: string;
  meta: PageMeta;
}

/**
 * Sends a page whose items PostgreSQL already wrote as JSON: the envelope is
 * put around the text as is. Fastify sends a string with a JSON content type
 * unchanged, so the route's response schema documents the shape (OpenAPI)
 * and the tests check it (test/catalog-json.test.ts) instead of a serializer.
 */
export function sendJsonPage(reply: FastifyReply, page: JsonPage) {
  return sendJsonText(reply, `{"success": true, "data": ${page.data}, "meta": ${flatJson(page.meta)}}`);
}

/** Sends one resource that PostgreSQL already wrote as JSON text, in the `{success, data}` envelope (see sendJsonPage). */
export function sendJsonData(reply: FastifyReply, data: string) {
  return sendJsonText(reply, `{"success": true, "data": ${data}}`);
}

/**
 * A flat object in the text form PostgreSQL gives jsonb (`{"a": 1, "b": 2}`),
 * so the envelope around stored documents is spaced like the documents.
 */
const flatJson = (value: object) =>
  `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}: ${JSON.stringify(item)}`)
    .join(', ')}}`;

export function pageMeta({ page, limit }: PageRequest, total: number): PageMeta {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

/**
 * A `sort` parameter accepting each field ascending or, with a leading `-`,
 * descending. Anything else fails validation (400).
 */
export function SortQuery<const F extends string>(
  fields: readonly F[],
  defaultSort: F | `-${F}`,
  undirected: readonly string[] = [],
): TString {
  // An undirected sort has one order only (relevance: the best match first).
  const values = [...fields.flatMap((field) => [field, `-${field}`]), ...undirected];
  return Type.String({ enum: values, default: defaultSort, description: `One of ${values.join(', ')}` });
}

export interface Sort<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

export function parseSort<F extends string>(value: string): Sort<F> {
  return value.startsWith('-') ? { field: value.slice(1) as F, direction: 'desc' } : { field: value as F, direction: 'asc' };
}

/**
 * Builds a page from rows that carry the filtered total as a window count
 * (`count(*) OVER ()`), so one query answers both. Only a page past the end
 * has no row to read the total from; then `countAll` runs.
 */
export async function toPage<T extends { total_count: number | string | null }, R>(
  rows: readonly T[],
  request: PageRequest,
  countAll: () => Promise<number>,
  map: (row: T) => R,
): Promise<{ data: R[]; meta: PageMeta }> {
  const first = rows[0];
  const total = first ? Number(first.total_count) : request.page === 1 ? 0 : await countAll();
  return { data: rows.map(map), meta: pageMeta(request, total) };
}
