import { ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
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

/** Whether every own enumerable property of `object` is undefined (a DTO instance built from nothing). */
function allUndefined(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key) && (object as Record<string, unknown>)[key] !== undefined) return false;
  return true;
}

/**
 * The ValidationPipe, keeping one verdict: that an empty instance of a DTO class (no own property with a
 * value: nothing was sent and the class sets no default; declared fields are own properties set to
 * undefined) passes its rules. class-validator otherwise walks every rule of the class on each request
 * without a query string (17 kB of a list request's 184 kB allocated, and 2–3 % of its CPU:
 * docs/performance.md). The verdict depends only on the class and the rules, which are fixed once the
 * class is defined (as `keepValidationRules` relies on) and take nothing but the value; a failing empty
 * instance is validated every time, so its errors are always class-validator's own.
 */
export class KeepingEmptyVerdicts extends ValidationPipe {
  private readonly emptyPasses = new WeakSet<object>();

  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    const type = (object as { constructor?: unknown }).constructor;
    const empty = typeof type === 'function' && Object.getPrototypeOf(object) === type.prototype && allUndefined(object);
    if (!empty) return super.validate(object, options);
    if (this.emptyPasses.has(type)) return [];
    return Promise.resolve(super.validate(object, options)).then((errors) => {
      if (errors.length === 0) this.emptyPasses.add(type);
      return errors;
    });
  }
}

/** Whitelist, reject unknown fields, transform to DTO classes; failures are 422 VALIDATION_FAILED. */
export const validationPipe = new KeepingEmptyVerdicts({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  // `value` only to tell a missing property (undefined) from a wrong one; it is never sent back.
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
});
