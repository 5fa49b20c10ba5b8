import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, type ErrorDetail } from './errors.js';

/**
 * Every error leaves the service in the one envelope of contract section 1.
 * Expected failures are AppErrors; framework errors are mapped by code;
 * anything else is a 500 whose detail goes to the log only.
 */
interface ErrorBody {
  success: false;
  error: { code: string; message: string; details?: ErrorDetail[] };
  request_id: string;
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string, details?: readonly ErrorDetail[]) {
  const body: ErrorBody = {
    success: false,
    error: { code, message, ...(details && details.length > 0 ? { details: [...details] } : {}) },
    request_id: String(reply.request.id),
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'The request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'The request body is empty'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'VALIDATION_ERROR', 'The body does not match its Content-Length'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json'],
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
  if (issue.keyword === 'pattern' && params.pattern === '\\S') return { field, message: 'must not be blank' };
  if (issue.keyword === 'enum') {
    return { field, message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
  }
  return { field, message: issue.message ?? 'is invalid' };
}

export function registerErrorHandling(app: FastifyInstance, routes: readonly { method: string; url: string }[]): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendError(reply, error.status, error.code, error.message, error.details);
    }
    if (error.validation) {
      // Report each field once, with the most helpful message first.
      const seen = new Set<string>();
      const details = error.validation
        .map((issue) => detailOf(issue, error.validationContext))
        .filter((detail) => !seen.has(detail.field) && seen.add(detail.field));
      const where = error.validationContext === 'body' ? 'request body' : (error.validationContext ?? 'request');
      return sendError(reply, 400, 'VALIDATION_ERROR', `The ${where} is invalid`, details);
    }
    const mapped = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (mapped) return sendError(reply, mapped[0], mapped[1], mapped[2]);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, status === 429 ? 'RATE_LIMITED' : 'BAD_REQUEST', error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'INTERNAL_ERROR', 'Something went wrong on our side; quote the request_id if you report it');
  });

  // Unknown paths are 404; a known path with another method is 405 with Allow. The app's route
  // table (HEAD and OPTIONS already left out) is read once every route is registered.
  let patterns: { pattern: RegExp; method: string }[] | null = null;
  const routesFor = (path: string) => {
    patterns ??= routes.map((r) => ({
      method: r.method,
      pattern: new RegExp('^' + r.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*') + '/?$'),
    }));
    return [...new Set(patterns.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  };
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = routesFor(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, 405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allowed.join(', ')}`);
    }
    return sendError(reply, 404, 'NOT_FOUND', `No route for ${request.method} ${path}`);
  });
}

