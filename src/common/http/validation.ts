import { ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ApiError, FieldErrors } from './api-error';

/**
 * class-validator looks a DTO's rules up on every validation by scanning the rules of every class it knows
 * (an `instanceof` per class, for inherited rules): 2.6 % of a list request's CPU with this app's DTOs
 * (docs/performance.md). The rules are fixed once the classes are defined (decorators run when a class is),
 * so the answer per class and options is kept.
 */
function keepValidationRules(): void {
  const storage = getMetadataStorage() as unknown as {
    getTargetValidationMetadatas: (target: object, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => unknown[];
    __kept?: true;
  };
  if (storage.__kept) return;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const kept = new WeakMap<object, Map<string, unknown[]>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byKey = kept.get(target);
    if (!byKey) kept.set(target, (byKey = new Map()));
    let rules = byKey.get(key);
    if (!rules) byKey.set(key, (rules = lookup(target, schema, always, strictGroups, groups)));
    return rules;
  };
  storage.__kept = true;
}
keepValidationRules();

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
