import { QueryFailedError } from 'typeorm';

interface PgError {
  code?: string;
  constraint?: string;
}

/** The PostgreSQL error behind a failed query (TypeORM keeps it as `driverError` and copies its fields). */
function pgError(e: unknown): PgError | null {
  if (!(e instanceof QueryFailedError)) return null;
  return ((e as { driverError?: PgError }).driverError ?? e) as PgError;
}

/**
 * Whether `e` is a unique violation (23505), optionally of one index. When the driver does not name
 * the index (PGlite may not), any unique violation matches.
 */
export function isUniqueViolation(e: unknown, index?: string): boolean {
  const d = pgError(e);
  return d?.code === '23505' && (!index || !d.constraint || d.constraint === index);
}

/** The index a unique violation names (null when the driver does not say), or undefined when `e` is not one. */
export function violatedIndex(e: unknown): string | null | undefined {
  const d = pgError(e);
  return d?.code === '23505' ? (d.constraint ?? null) : undefined;
}

/** The SQLSTATE of a failed query, or undefined. */
export const sqlState = (e: unknown): string | undefined => pgError(e)?.code;

/**
 * Whether `e` is the database saying "not now": a lock not granted within `lock_timeout` (55P03), a statement
 * cancelled by `statement_timeout` (57014), a session ended by `idle_in_transaction_session_timeout` (25P03),
 * or no pooled connection free within DATABASE_ACQUIRE_TIMEOUT_MS (pg-pool's own error, no SQLSTATE).
 */
export function isDatabaseBusy(e: unknown): boolean {
  const code = sqlState(e);
  if (code === '55P03' || code === '57014' || code === '25P03') return true;
  return e instanceof Error && e.message === POOL_ACQUIRE_TIMEOUT;
}

/** pg-pool's message when no connection became free within `connectionTimeoutMillis`. */
const POOL_ACQUIRE_TIMEOUT = 'timeout exceeded when trying to connect';
