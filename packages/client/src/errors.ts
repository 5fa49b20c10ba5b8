import type { components } from './generated/openapi.js';

/** Every error code the service can answer with. */
export type ErrorCode = components['schemas']['ErrorCode'];

/** One entry of an error's `details`: the field at fault, and sometimes more (e.g. `held`, `releasable`). */
export interface ErrorDetail {
  field: string;
  message: string;
  [extra: string]: unknown;
}

/**
 * The service refused the request: any non-2xx answer. `code` is the stable
 * machine-readable reason; `request_id` is what to quote in a bug report.
 */
export class ApiError<Code extends string = ErrorCode> extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    readonly details: readonly ErrorDetail[],
    readonly request_id: string | null,
    /** `Retry-After` in seconds, on 429. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** Narrows `error` to an ApiError, optionally with one of `codes`. */
  static is<C extends ErrorCode>(error: unknown, ...codes: C[]): error is ApiError<C> {
    return error instanceof ApiError && (codes.length === 0 || (codes as string[]).includes(error.code));
  }
}

/** The request never got an answer: offline, DNS, connection reset, CORS refusal, aborted. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/**
 * An answer came, but not one the API gives: a 2xx whose body is not the JSON
 * it declares (a proxy's or captive portal's HTML page, a truncated body).
 * Neither a refusal (`ApiError`, which carries the service's code) nor a lost
 * request (`NetworkError`, which a retry may cure): the request may well have
 * been carried out, so it is not retried.
 */
export class ResponseError extends Error {
  override readonly name = 'ResponseError';
  constructor(
    message: string,
    readonly status: number,
    /** The answer's Content-Type, e.g. `text/html` from a proxy. */
    readonly contentType: string | null,
    readonly request_id: string | null,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/** `text` parsed as JSON (`undefined` when empty), or a ResponseError naming `what` when it is not JSON. */
export function jsonOf(response: Response, text: string, what: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    const type = response.headers.get('content-type');
    throw new ResponseError(
      `${what}: HTTP ${response.status} with a body that is not JSON (${type ?? 'no content type'})`,
      response.status,
      type,
      response.headers.get('x-request-id'),
      error,
    );
  }
}

/** A refusal's body: the envelope when it is JSON, else the text (a proxy's page) for the message. */
export const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const FALLBACK_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  410: 'TOKEN_EXPIRED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  431: 'PAYLOAD_TOO_LARGE',
  // NOT_READY is only /health/ready's; any other operation declares SERVICE_UNAVAILABLE.
  503: 'SERVICE_UNAVAILABLE',
};

interface Envelope {
  error?: { code?: unknown; message?: unknown; details?: unknown };
  request_id?: unknown;
  message?: unknown;
}

/** An ApiError from a refused response's parsed body (the envelope, or whatever a proxy or image host sent). */
export function apiErrorOf(response: Response, body: unknown): ApiError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as Envelope;
  const error = envelope.error ?? {};
  const code = typeof error.code === 'string' ? (error.code as ErrorCode) : (FALLBACK_CODES[response.status] ?? 'INTERNAL_ERROR');
  const message =
    typeof error.message === 'string'
      ? error.message
      : typeof envelope.message === 'string'
        ? envelope.message
        : typeof body === 'string' && body
          ? body.slice(0, 500)
          : `${response.status} ${response.statusText}`;
  const requestId = typeof envelope.request_id === 'string' ? envelope.request_id : response.headers.get('x-request-id');
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    code,
    message,
    Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [],
    requestId,
    retryAfter > 0 ? retryAfter : null,
  );
}
