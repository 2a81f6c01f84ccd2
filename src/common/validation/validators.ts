import { registerDecorator, ValidationOptions } from 'class-validator';

const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone').concat('UTC'));
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An IANA time zone (`America/Chicago`). */
export function IsTimeZone(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an IANA time zone such as America/Chicago', ...options },
      validator: { validate: (v: unknown) => typeof v === 'string' && TIME_ZONES.has(v) },
    });
}

/** An ISO 4217 currency code (`USD`). */
export function IsCurrencyCode(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCurrencyCode',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'must be an ISO 4217 currency code such as USD', ...options },
      validator: { validate: (v: unknown) => typeof v === 'string' && CURRENCIES.has(v) },
    });
}
