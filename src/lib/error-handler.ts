import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isRetryableTransactionError, uniqueViolationError } from './db-errors.js';
import type { ErrorCode } from './error-codes.js';
import { AppError, type ErrorDetail } from './errors.js';
import { SOCKET_SECURITY_HEADERS } from './security-headers.js';
import { MIXED_PASSWORD, MIXED_PASSWORD_MESSAGE, VISIBLE } from './text.js';
import { browserPage, opensAPage, type BrowserPage } from './browser-pages.js';

/**
 * Every error leaves the service in the one envelope of contract section 1.
 * Expected failures are AppErrors; validation and framework errors (Fastify's
 * own, the router's, the body parsers', multipart's) are mapped here; anything
 * else is a 500 whose detail goes to the log only.
 */
interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
  request_id: string;
}

/** The code of the error envelope a request was answered with (metrics count them by route). */
const errorCodes = new WeakMap<FastifyRequest, ErrorCode>();
export const errorCodeOf = (request: FastifyRequest): ErrorCode | undefined => errorCodes.get(request);

/** `extra` adds top-level fields beside the envelope's (the upload endpoint's ImageKit-style `message`). */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  details?: readonly ErrorDetail[],
  extra: Record<string, unknown> = {},
) {
  // A browser opening a page while the service cannot serve gets a page in words, not the envelope's JSON.
  if (status === 503 && code !== 'STOREFRONT_NOT_BUILT' && opensAPage(reply.request)) return sendPage(reply, status, code, 'unavailable');
  const body: ErrorBody = {
    ...extra,
    success: false,
    error: { code, message, ...(details && details.length > 0 ? { details: [...details] } : {}) },
    request_id: String(reply.request.id),
  };
  errorCodes.set(reply.request, code);
  // The request ID header is set here too: errors raised before the request hooks run (a malformed URL) still carry it.
  return reply.code(status).header('x-request-id', body.request_id).type('application/json; charset=utf-8').send(body);
}

/** An error answered to a browser as a page of the service's own (browser-pages.ts), counted under its code like the envelope. */
function sendPage(reply: FastifyReply, status: number, code: ErrorCode, kind: BrowserPage) {
  errorCodes.set(reply.request, code);
  const requestId = String(reply.request.id);
  return reply
    .code(status)
    .header('x-request-id', requestId)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(browserPage(kind, requestId));
}

/** Framework errors by code: the status we answer, our code and a sentence a client developer can act on. */
const FRAMEWORK_ERRORS: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'The request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'The request body is empty'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'VALIDATION_ERROR', 'The body does not match its Content-Length'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'The Content-Type header is not valid'],
  FST_ERR_BAD_URL: [400, 'VALIDATION_ERROR', 'The URL is not valid (malformed percent-encoding)'],
  // A path segment longer than any ID the service issues names nothing: not found, like any unknown ID.
  FST_ERR_MAX_PARAM_LENGTH: [404, 'NOT_FOUND', 'Resource not found'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the upload as multipart/form-data'],
  FST_REQ_FILE_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 5 MB'],
  FST_PARTS_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'The form has too many parts'],
  FST_FILES_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'Send one file per upload'],
  FST_FIELDS_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'The form has too many fields'],
  FST_PROTO_VIOLATION: [400, 'VALIDATION_ERROR', 'A form field has a forbidden name'],
  FST_INVALID_JSON_FIELD_ERROR: [400, 'VALIDATION_ERROR', 'A form field is not the JSON its Content-Type declares'],
};

/** The multipart parser (busboy) reports a malformed or truncated form with plain errors and these messages. */
const MALFORMED_FORM = /Boundary (not found|required)|unexpected end of multipart data/i;

/** What a 4xx without a code of its own is called. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'UNSUPPORTED_MEDIA_TYPE',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'NOT_FOUND',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

type Validation = NonNullable<FastifyError['validation']>[number];

function detailOf(issue: Validation, context: string | undefined): ErrorDetail {
  const params = issue.params as Record<string, unknown>;
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const leaf = (params.missingProperty ?? params.additionalProperty) as string | undefined;
  const field = [path, leaf].filter(Boolean).join('.') || context || 'body';
  if (params.additionalProperty) return { field, message: 'is not a known field' };
  if (params.missingProperty) return { field, message: 'is required' };
  if (issue.keyword === 'not') return { field, message: 'must not be zero' };
  if (issue.keyword === 'pattern' && params.pattern === VISIBLE) return { field, message: 'must not be blank' };
  if (issue.keyword === 'pattern' && params.pattern === MIXED_PASSWORD) return { field, message: MIXED_PASSWORD_MESSAGE };
  if (issue.keyword === 'enum') {
    return { field, message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
  }
  return { field, message: issue.message ?? 'is invalid' };
}

export interface MappedError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: readonly ErrorDetail[];
  headers?: Readonly<Record<string, string>>;
}

/** How long a client should wait before retrying a request that lost its database connection. */
const RETRY_AFTER_SECONDS = 2;

/** The answer for any error; `null` means unexpected (a 500, logged). */
export function mapError(error: FastifyError | AppError | Error): MappedError | null {
  const known = error instanceof AppError ? error : uniqueViolationError(error);
  if (known) return { status: known.status, code: known.code, message: known.message, details: known.details, headers: known.headers };
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The database is unavailable; retry shortly',
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    };
  }
  if (isRetryableTransactionError(error)) {
    // src/db/transaction.ts retried it already; what is left is contention, not a fault.
    return { status: 409, code: 'CONFLICT', message: 'A concurrent change got in the way; retry the request' };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    // Report each field once, with the most helpful message first.
    const seen = new Set<string>();
    const details = fastifyError.validation
      .map((issue) => detailOf(issue, fastifyError.validationContext))
      .filter((detail) => !seen.has(detail.field) && seen.add(detail.field));
    const where = fastifyError.validationContext === 'body' ? 'request body' : (fastifyError.validationContext ?? 'request');
    return { status: 400, code: 'VALIDATION_ERROR', message: `The ${where} is invalid`, details };
  }
  const mapped = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (mapped) return { status: mapped[0], code: mapped[1], message: mapped[2] };
  if (MALFORMED_FORM.test(error.message))
    return { status: 400, code: 'VALIDATION_ERROR', message: 'The multipart form is malformed or truncated' };
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, code: CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR', message: error.message };
  return null;
}

const INTERNAL_MESSAGE = 'Something went wrong on our side; quote the request_id if you report it';

/** Sends any error in the envelope; with `imageKitShape`, the message is also at the top level, where ImageKit clients read it. */
export function replyWithError(error: Error, request: FastifyRequest, reply: FastifyReply, imageKitShape = false) {
  // A shop or console link a mail program mangled, opened in a browser: a page that says so, not the envelope.
  if ((error as FastifyError).code === 'FST_ERR_BAD_URL' && opensAPage(request))
    return sendPage(reply, 400, 'VALIDATION_ERROR', 'broken-link');
  const mapped = mapError(error) ?? { status: 500, code: 'INTERNAL_ERROR', message: INTERNAL_MESSAGE };
  if (mapped.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unhandled error');
  // A lost database is news; a 503 of our own (draining, waiting for migrations, uploads full) is a state logged once where it begins.
  else if (mapped.code === 'SERVICE_UNAVAILABLE' && !(error instanceof AppError)) request.log.warn({ err: error }, 'database unavailable');
  if (mapped.headers) reply.headers(mapped.headers);
  return sendError(reply, mapped.status, mapped.code, mapped.message, mapped.details, imageKitShape ? { message: mapped.message } : {});
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or a
 * request line over the size limit, malformed HTTP, a client that never
 * finished sending) still get the envelope, written straight to the socket.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'PAYLOAD_TOO_LARGE', 'The request line or headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive']
        : [400, 'VALIDATION_ERROR', 'The request is not valid HTTP'];
  // A request that timed out mid-body may already be answered (a handler that replied without reading it all):
  // its response's bytes are on the wire, and ours would corrupt them.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!answering?.headersSent) writeErrorToSocket(socket, status, code, message);
  socket.destroy(error);
}

/** The envelope written straight to a connection no request object will answer; the caller closes it. */
export function writeErrorToSocket(socket: Duplex, status: number, code: ErrorCode, message: string): void {
  const requestId = randomUUID();
  const body = JSON.stringify({ success: false, error: { code, message }, request_id: requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n${SOCKET_SECURITY_HEADERS}` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
}

export function registerErrorHandling(app: FastifyInstance, routes: readonly { method: string; url: string }[]): void {
  app.setErrorHandler((error: Error, request, reply) => replyWithError(error, request, reply));

  // Unknown paths are 404; a known path with another method is 405 with Allow. The app's route
  // table (HEAD and OPTIONS already left out) is read once every route is registered.
  let patterns: { pattern: RegExp; method: string }[] | null = null;
  const routesFor = (path: string) => {
    patterns ??= routes.map((r) => ({
      method: r.method,
      pattern: new RegExp(
        '^' +
          r.url
            .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
            .replace(/:[^/]+/g, '[^/]+')
            .replace(/\*/g, '.*') +
          '/?$',
      ),
    }));
    return [...new Set(patterns.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  };
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = routesFor(path);
    // A route that takes this method and found nothing (a missing file under a wildcard) is a plain 404.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.includes(method)) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, 405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allowed.join(', ')}`);
    }
    return sendError(reply, 404, 'NOT_FOUND', `No route for ${request.method} ${path}`);
  });
}
