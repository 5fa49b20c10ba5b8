/** Recognising PostgreSQL errors by SQLSTATE, so services can translate them into AppErrors. */
interface PgError {
  code?: string;
  constraint?: string;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = error as PgError;
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/** A `FOR UPDATE NOWAIT` found the row locked by another transaction. */
export function isLockNotAvailable(error: unknown): boolean {
  return (error as PgError)?.code === '55P03';
}

/** Serialization failures and deadlocks: safe to retry the whole transaction. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = (error as PgError)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * SQLSTATE classes and socket errors that mean the database (or the way to
 * it) is gone, not that the statement was wrong: connection exceptions (08),
 * the server shutting down or restarting (57P01-57P03), too many connections
 * (53300), and what node-postgres raises when a socket dies or never opens.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

/** The request failed because its database connection was lost or could not be made: worth retrying later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as PgError & { message?: string };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // An AggregateError (a host name with several addresses, all refused) carries the socket errors inside.
  const inner = (error as { errors?: unknown[] } | null)?.errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every(isDatabaseUnavailable);
}
