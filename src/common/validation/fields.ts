import { applyDecorators, Type as Class } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

/** Largest value of an `int` column: amounts and weights above it are refused (422), never a 500. */
export const INT4_MAX = 2_147_483_647;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Trims; an empty string becomes null. */
export const trimToNull = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || null : value);

interface FieldOptions {
  /** May be omitted (create); `null` is accepted only when `nullable`. */
  optional?: boolean;
  nullable?: boolean;
  description?: string;
  example?: unknown;
  /** Documented default when omitted. */
  default?: unknown;
}

const doc = (o: FieldOptions, extra: Record<string, unknown>) =>
  (o.optional || o.nullable ? ApiPropertyOptional : ApiProperty)({ nullable: o.nullable || undefined, description: o.description, example: o.example, default: o.default, ...extra });
/**
 * May be omitted, but not null: the column is required (`IsOptional()` would let null through to the
 * database, a 500). Every check after it still runs on null and refuses it (422 naming the field).
 */
export const Given = () => ValidateIf((_o, v) => v !== undefined);
/** `nullable`: null or absent accepted (`IsOptional`); `optional` only: absent accepted, null refused. */
const opt = (o: FieldOptions) => (o.nullable ? [IsOptional()] : o.optional ? [Given()] : []);

/**
 * `PartialType` for update bodies: every field may be omitted, but null stays refused where the create
 * body refuses it (Nest's default `IsOptional()` would let `{"name": null}` reach a NOT NULL column).
 */
export const PartialInput = <T>(create: Class<T>) => PartialType(create, { skipNullProperties: false });

/**
 * A list of objects validated as `type` (an element that is not an object, `[[]]` or `[null]`, is
 * refused, which `ValidateNested` alone lets through); at most `max` elements.
 */
export const NestedList = (type: () => Class<unknown>, o: { max: number }) =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(o.max),
    IsObject({ each: true, message: 'each element must be an object' }),
    ValidateNested({ each: true }),
    Type(type),
  );

/** Trimmed, non-empty text; with `emptyClears` (nullable text), "" is taken as null. */
export const TextField = (o: FieldOptions & { max?: number; emptyClears?: boolean } = {}) =>
  applyDecorators(doc(o, { type: String, maxLength: o.max ?? 120 }), Transform(o.emptyClears ? trimToNull : trim), ...opt(o), IsString(), IsNotEmpty(), MaxLength(o.max ?? 120));

/** An integer in [min, max] (amounts in minor units, kg, days, basis points). */
export const IntField = (o: FieldOptions & { min?: number; max?: number } = {}) =>
  applyDecorators(doc(o, { type: 'integer', minimum: o.min ?? 0, maximum: o.max ?? INT4_MAX }), ...opt(o), IsInt(), Min(o.min ?? 0), Max(o.max ?? INT4_MAX));

/** An amount in the currency's minor unit (integer ≥ 0). */
export const AmountField = (o: FieldOptions = {}) => IntField({ description: 'Minor units of the company currency (12999 = 129.99).', ...o });

export const BoolField = (o: FieldOptions = {}) => applyDecorators(doc(o, { type: Boolean }), ...opt(o), IsBoolean());

export const EnumField = (values: readonly string[], o: FieldOptions = {}) =>
  applyDecorators(doc(o, { enum: values }), ...opt(o), IsIn(values as string[], { message: `must be one of ${values.join(', ')}` }));

export const UuidField = (o: FieldOptions = {}) => applyDecorators(doc(o, { format: 'uuid', type: String }), ...opt(o), IsUUID('all'));

/** A list of ids (distinct). */
export const UuidListField = (o: FieldOptions = {}) =>
  applyDecorators(
    doc(o, { type: [String], format: 'uuid' }),
    ...opt(o),
    Transform(({ value }) => (Array.isArray(value) ? [...new Set(value.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)))] : value)),
    IsArray(),
    ArrayMaxSize(500),
    IsUUID('all', { each: true }),
  );

/**
 * A non-empty list of values of a registry that modules fill when their files are imported (the webhook
 * events: src/common/outbox/webhook-events.ts): `values()` is read when a request is validated, never when
 * the class is declared (a module loaded after the DTO's file would be missing). Each element one of them,
 * at most as many elements as there are values. Document it with `registryEnum` (src/common/http/openapi-registry.ts).
 */
export const RegistryList = (values: () => readonly string[]) =>
  applyDecorators(
    IsArray(),
    ArrayNotEmpty(),
    ValidateBy({
      name: 'arrayMaxSize',
      validator: {
        validate: (v: unknown) => Array.isArray(v) && v.length <= values().length,
        defaultMessage: (a) => `${a?.property} must contain no more than ${values().length} elements`,
      },
    }),
    ValidateBy({ name: 'isIn', validator: { validate: (v: unknown) => values().includes(v as string), defaultMessage: () => `each value must be one of ${values().join(', ')}` } }, { each: true }),
  );

/**
 * A number with at most `places` decimals. Use it instead of `IsNumber({ maxDecimalPlaces })`, which
 * throws (a 500) on numbers JavaScript writes with an exponent, such as 5e-324.
 */
export const MaxDecimals = (places: number) =>
  ValidateBy({
    name: 'maxDecimals',
    validator: {
      validate: (v: unknown) => typeof v === 'number' && Number.isFinite(v) && Number(v.toFixed(places)) === v,
      defaultMessage: () => `must be a number with at most ${places} decimals`,
    },
  });

/** `?active=true|false` query filter. */
export const BoolQuery = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: Boolean, description }),
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean(),
  );

/** `?x=<uuid>` query filter. */
export const UuidQuery = () => applyDecorators(ApiPropertyOptional({ format: 'uuid' }), IsOptional(), IsUUID('all'));

/** `?x=<value>` query filter among values. */
export const EnumQuery = (values: readonly string[]) =>
  applyDecorators(ApiPropertyOptional({ enum: values }), IsOptional(), IsIn(values as string[], { message: `must be one of ${values.join(', ')}` }));


const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** Accepted date range (year 0 and other far dates are refused, never sent to the database). */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '9999-12-31';
export const DATE_MESSAGE = `must be a date YYYY-MM-DD from ${MIN_DATE} to ${MAX_DATE}`;
/** A calendar date `YYYY-MM-DD` that exists, from MIN_DATE to MAX_DATE. */
export const isDateOnly = (v: unknown): v is string => {
  if (typeof v !== 'string' || !DATE_ONLY.test(v) || v < MIN_DATE || v > MAX_DATE) return false;
  const d = new Date(v + 'T00:00:00Z'); // month 13 is an invalid Date: toISOString would throw
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** The bare check, for properties documented by hand. */
export const IsDateOnly = () => ValidateBy({ name: 'isDateOnly', validator: { validate: isDateOnly, defaultMessage: () => DATE_MESSAGE } });

export const DateField = (o: FieldOptions = {}) => applyDecorators(doc({ example: '2027-03-15', ...o }, { type: String, format: 'date' }), ...opt(o), IsDateOnly());
