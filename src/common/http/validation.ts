import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldErrors } from './api-error';

/** Flattens class-validator errors into `{ "field.sub": ["message"] }`. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const err of errors) {
    const path = parent ? `${parent}.${err.property}` : err.property;
    if (err.constraints) {
      // class-validator's messages start with the property name; the key already says it.
      out[path] = Object.values(err.constraints).map((m) =>
        /^property \S+ should not exist$/.test(m) ? 'is not allowed' : m.startsWith(err.property + ' ') ? m.slice(err.property.length + 1) : m,
      );
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
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
});
