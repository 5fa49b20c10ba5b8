/**
 * The one error type of the service. Expected failures carry a status and a
 * stable code; the error handler turns them into the error envelope.
 */
import type { ErrorCode } from './error-codes.js';

export interface ErrorDetail {
  field: string;
  message: string;
  [extra: string]: unknown;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: readonly ErrorDetail[],
    /** Extra response headers, such as `Retry-After`. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (message: string, details?: ErrorDetail[]) =>
  new AppError(400, 'VALIDATION_ERROR', message, details);

export const unauthenticated = (message = 'Authentication required') => new AppError(401, 'UNAUTHENTICATED', message);

export const forbidden = (message = 'You do not have access to this resource') => new AppError(403, 'FORBIDDEN', message);

export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);

export const conflict = (code: ErrorCode, message: string, details?: ErrorDetail[]) =>
  new AppError(409, code, message, details);

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'RATE_LIMITED', 'Too many requests, try again later', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
