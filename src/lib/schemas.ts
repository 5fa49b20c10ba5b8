import type { FastifyReply } from 'fastify';
import { Type, type TSchema, type TString, type TStringOptions } from 'typebox';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import { multiline, VISIBLE } from './text.js';

/** Shared response shapes: the success and error envelopes of contract section 1. */

/** A required text field: 1..max characters, at least one of them visible (not only spaces or invisible marks). */
export const RequiredText = (max: number, options: TStringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: max, pattern: VISIBLE, ...options });

/** Free text that may span lines (tabs and line breaks allowed): comments, notes, descriptions. */
export const LongText = (max: number, options: TStringOptions = {}) => Type.String({ maxLength: max, ...multiline, ...options });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC' });

/** One of a list of strings (a JSON Schema `enum`), typed as their union: the list stays the one declaration of the values. */
export const StringEnum = <const T extends string>(values: readonly T[], options: TStringOptions = {}) =>
  Type.Unsafe<T>(Type.String({ ...options, enum: [...values] }));
export const Money = Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: 'Decimal string with two places', examples: ['19.99'] });

export const PageMeta = Type.Object({
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  total: Type.Integer({ minimum: 0 }),
  totalPages: Type.Integer({ minimum: 0 }),
  hasNext: Type.Boolean(),
  hasPrev: Type.Boolean(),
});

export const Ok = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data });

export const Page = <T extends TSchema>(item: T) => Type.Object({ success: Type.Literal(true), data: Type.Array(item), meta: PageMeta });

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ examples: ['VALIDATION_ERROR'] }),
      message: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: true }))),
    }),
    request_id: Type.String(),
  },
  { $id: 'ErrorEnvelope', description: 'Every error response' },
);

/** 202 and 204 responses have no body. */
export const NoContent = Type.Null({ description: 'No content' });

/**
 * Answers with no body at all. `send(null)` would serialise `null` for a 202
 * (Fastify strips bodies only for 204), and the typed reply only admits the
 * schema's `null`: this is the one place that knows both.
 */
export const sendEmpty = (reply: FastifyReply, status: 202 | 204 | 304) => reply.code(status).send();

/**
 * A public ID a request names in its body or query (`prefix_` and 20 characters today; 100 leaves room
 * for IDs of other shapes). An ID of the right length but the wrong prefix or shape is simply not
 * found; only one longer than any ID could be is refused as invalid.
 */
export const PublicIdRef = (prefix: string, description = `Public ID (\`${prefix}_...\`)`) =>
  Type.String({ minLength: 1, maxLength: 100, description });

/** Path parameter carrying a public ID; a wrong prefix or shape is a 404, never a 400. */
export const IdParam = <N extends string>(name: N, prefix: string) =>
  Type.Object({ [name]: Type.String({ description: `Public ID (\`${prefix}_...\`)` }) } as Record<N, TString>);

/** Where a route's declared error codes travel from its schema to the OpenAPI document (src/openapi/docs.ts). */
export const ERROR_CODES_KEY = 'x-error-codes';

/**
 * The error responses a route can give beyond the ones every route of its
 * kind shares (validation, session, CSRF, role: src/openapi/docs.ts adds those), by
 * code: `errorResponses('NOT_FOUND', 'SLUG_TAKEN')`. Each status answers with
 * the envelope; the document lists the codes per status and the client's
 * types narrow `error.code` to them.
 */
export const errorResponses = (...codes: ErrorCode[]) => errorResponsesShaped({ $ref: 'ErrorEnvelope' }, ...codes);

/** The same, for a route whose errors carry more than the envelope (the upload endpoint's top-level `message`). */
export function errorResponsesShaped(shape: object, ...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return Object.fromEntries([...byStatus].map(([status, list]) => [status, Type.Unsafe<unknown>({ ...shape, [ERROR_CODES_KEY]: list })]));
}
