import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateBy } from 'class-validator';

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
const opt = (o: FieldOptions) => (o.optional || o.nullable ? [IsOptional()] : []);

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
/** A calendar date `YYYY-MM-DD` that exists. */
export const isDateOnly = (v: unknown): v is string => {
  if (typeof v !== 'string' || !DATE_ONLY.test(v)) return false;
  const d = new Date(v + 'T00:00:00Z'); // month 13 is an invalid Date: toISOString would throw
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** The bare check, for properties documented by hand. */
export const IsDateOnly = () => ValidateBy({ name: 'isDateOnly', validator: { validate: isDateOnly, defaultMessage: () => 'must be a date YYYY-MM-DD' } });

export const DateField = (o: FieldOptions = {}) => applyDecorators(doc({ example: '2025-06-01', ...o }, { type: String, format: 'date' }), ...opt(o), IsDateOnly());
