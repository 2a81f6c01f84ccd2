import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsISO8601, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { EmailField, NameField } from '../auth/auth.dto';

/** Trims; an empty string becomes null (clears the field). */
const trimToNull = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  return t === '' ? null : t;
};

/** Optional free text up to `max` characters; null or "" clears it. */
export const OptionalText = (max: number, example?: string) =>
  applyDecorators(ApiPropertyOptional({ type: String, nullable: true, maxLength: max, example }), Transform(trimToNull), IsOptional(), IsString(), MaxLength(max));

/** Optional e-mail address (lower-cased); null or "" clears it. */
export const OptionalEmail = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, format: 'email' }),
    Transform((p) => (typeof trimToNull(p) === 'string' ? (trimToNull(p) as string).toLowerCase() : trimToNull(p))),
    IsOptional(),
    IsEmail(),
    MaxLength(254),
  );

/** Optional calendar date `YYYY-MM-DD`; null clears it. */
export const OptionalDate = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '2027-06-30', description }),
    IsOptional(),
    IsString(),
    Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' }),
    IsISO8601({ strict: true }, { message: 'must be a valid date' }),
  );

/** Name on an update: may be omitted, never null or empty. */
export const OptionalName = () => applyDecorators(ValidateIf((_o, v) => v !== undefined), NameField(), ApiPropertyOptional({ example: 'Dana Reyes', maxLength: 120 }));

/** E-mail on an update: may be omitted, never null; unique among users (409 EMAIL_TAKEN). */
export const OptionalLoginEmail = () =>
  applyDecorators(ValidateIf((_o, v) => v !== undefined), EmailField(), ApiPropertyOptional({ format: 'email', description: 'Unique among users (409 EMAIL_TAKEN).' }));
