import { HttpException, HttpStatus } from '@nestjs/common';

export type FieldErrors = Record<string, string[]>;

/**
 * The one exception the application throws for an expected failure. The error filter renders it as
 * `{success: false, message, code, errors?, request_id}` (domain.md §1).
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** Machine-readable facts of the failure (the envelope's `details`), e.g. the dates of `NO_CONTAINER_AVAILABLE`. */
    readonly details?: Record<string, unknown>,
  ) {
    super({ message, code, errors }, status);
  }

  static badRequest(code: string, message: string) {
    return new ApiError(HttpStatus.BAD_REQUEST, code, message);
  }
  static unauthorized(message = 'Authentication required.', code = 'UNAUTHENTICATED') {
    return new ApiError(HttpStatus.UNAUTHORIZED, code, message);
  }
  static forbidden(code: string, message: string) {
    return new ApiError(HttpStatus.FORBIDDEN, code, message);
  }
  /** Absent, malformed id, or another tenant's record: all look the same from outside. */
  static notFound(what = 'Resource') {
    return new ApiError(HttpStatus.NOT_FOUND, 'NOT_FOUND', `${what} not found.`);
  }
  static conflict(code: string, message: string, details?: Record<string, unknown>) {
    return new ApiError(HttpStatus.CONFLICT, code, message, undefined, undefined, details);
  }
  static invalidTransition(from: string, to: string, what = 'Record') {
    return new ApiError(HttpStatus.CONFLICT, 'INVALID_TRANSITION', `${what} cannot move from ${from} to ${to}.`);
  }
  static inUse(what = 'Record') {
    return new ApiError(HttpStatus.CONFLICT, 'IN_USE', `${what} is in use and cannot be deleted.`);
  }
  static validation(errors: FieldErrors, message = 'The given data was invalid.') {
    return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, 'VALIDATION_FAILED', message, errors);
  }
  /** A single-field validation failure with its own machine code (e.g. HOLIDAY, IDEMPOTENCY_KEY_REUSED). */
  static unprocessable(code: string, message: string, errors?: FieldErrors) {
    return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, code, message, errors);
  }
}
