/** Recognising PostgreSQL errors by SQLSTATE, and translating the expected ones into AppErrors. */
import { alreadyReviewed, codeTaken, concurrentChange, emailTaken, inventoryExists, skuTaken, slugTaken, type AppError } from './errors.js';

interface PgError {
  code?: string;
  constraint?: string;
}

/**
 * What each unique constraint means when a write runs into it: the one place
 * where unique violations become refusals (the error handler asks here; a
 * service neither catches nor re-checks them). A violation of a constraint
 * not listed stays unexpected (500). Add the constraint here when a new one
 * can be hit by a client's write.
 */
const UNIQUE_CONSTRAINTS: Readonly<Record<string, () => AppError>> = {
  users_email_key: emailTaken,
  coupons_code_unique: codeTaken,
  reviews_one_per_author: alreadyReviewed,
  // The variant key and its copy (migration 0006): concurrent creates for one variant run into either.
  inventory_variant_id_key: inventoryExists,
  inventory_by_variant_public_id: inventoryExists,
  // The address book's one-default indexes back up its lock (src/addresses/service.ts).
  addresses_one_default_shipping: () => concurrentChange('The default address changed concurrently; retry the request'),
  addresses_one_default_billing: () => concurrentChange('The default address changed concurrently; retry the request'),
  products_slug_unique: () => slugTaken('product'),
  categories_slug_unique: () => slugTaken('category'),
  variants_sku_unique: skuTaken,
  // Two invitations of one email at once: the first holds the one open place.
  staff_invitations_one_open: () => concurrentChange('Another invitation to this email was just sent; refresh the list'),
};

/** The refusal a unique violation stands for, or null when it is not one the service expects. */
export function uniqueViolationError(error: unknown): AppError | null {
  const pg = error as PgError;
  if (pg?.code !== '23505' || pg.constraint === undefined) return null;
  return UNIQUE_CONSTRAINTS[pg.constraint]?.() ?? null;
}

/** A `FOR UPDATE NOWAIT` found the row locked by another transaction, or a statement reached lock_timeout (migrations). */
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
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

/** The request failed because its database connection was lost or could not be made: worth retrying later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as PgError & { message?: string };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_SOCKET_CODES.has(code)))
    return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // An AggregateError (a host name with several addresses, all refused) carries the socket errors inside.
  const inner = (error as { errors?: unknown[] } | null)?.errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every(isDatabaseUnavailable);
}
