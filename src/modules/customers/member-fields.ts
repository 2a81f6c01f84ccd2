import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, MaxLength, ValidateIf } from 'class-validator';
import { trimToNull } from '../../common/validation/fields';
import { EmailField, NameField } from '../auth';

/** Optional e-mail address (lower-cased); null or "" clears it. */
export const OptionalEmail = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, format: 'email' }),
    Transform((p) => {
      const v = trimToNull(p);
      return typeof v === 'string' ? v.toLowerCase() : v;
    }),
    IsOptional(),
    IsEmail(),
    MaxLength(254),
  );

/** Name on an update: may be omitted, never null or empty. */
export const OptionalName = () => applyDecorators(ValidateIf((_o, v) => v !== undefined), NameField(), ApiPropertyOptional({ maxLength: 120 }));

/** E-mail on an update: may be omitted, never null; unique among users (409 EMAIL_TAKEN). */
export const OptionalLoginEmail = () =>
  applyDecorators(ValidateIf((_o, v) => v !== undefined), EmailField(), ApiPropertyOptional({ format: 'email', description: 'Unique among users (409 EMAIL_TAKEN).' }));
