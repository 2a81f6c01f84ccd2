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
