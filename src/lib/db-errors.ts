/** Recognising PostgreSQL errors by SQLSTATE, so services can translate them into AppErrors. */
interface PgError {
  code?: string;
  constraint?: string;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = error as PgError;
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/** Serialization failures and deadlocks: safe to retry the whole transaction. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = (error as PgError)?.code;
  return code === '40001' || code === '40P01';
}
