import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldErrors } from './api-error';

/**
 * A property that was not sent and is still checked is a required one (optional properties are skipped
 * when absent: `IsOptional`, `Given`): it says `is required`, not what a value would have to be (a
 * missing latitude is not "must not be less than -90"). A rule's own "is required …" (`is required for
 * type swap`) is kept as it says more.
 */
const missing = (messages: string[]) => {
  const own = messages.filter((m) => m.startsWith('is required'));
  return own.length ? own : ['is required'];
};

/** Flattens class-validator errors into `{ "field.sub": ["message"] }`. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const err of errors) {
    const path = parent ? `${parent}.${err.property}` : err.property;
    if (err.constraints) {
      // class-validator's messages start with the property name; the key already says it.
      const messages = Object.values(err.constraints).map((m) =>
        /^property \S+ should not exist$/.test(m) ? 'is not allowed' : m.startsWith(err.property + ' ') ? m.slice(err.property.length + 1) : m,
      );
      out[path] = err.value === undefined ? missing(messages) : messages;
    }
    if (err.children?.length) Object.assign(out, flattenValidationErrors(err.children, path));
  }
  return out;
}

/** Whitelist, reject unknown fields, transform to DTO classes; failures are 422 VALIDATION_FAILED. */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  // `value` only to tell a missing property (undefined) from a wrong one; it is never sent back.
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
});
