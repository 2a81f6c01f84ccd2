import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A required, trimmed, non-empty string. */
export const RequiredText = (max: number, example?: string) =>
  applyDecorators(ApiProperty({ maxLength: max, example }), Transform(trim), IsString(), MinLength(1), MaxLength(max));

/** An optional (nullable) trimmed string. */
export const OptionalText = (max: number, example?: string) =>
  applyDecorators(ApiPropertyOptional({ maxLength: max, example, nullable: true, type: String }), Transform(trim), IsOptional(), IsString(), MaxLength(max));

/** An optional (nullable) integer in [min, max]. */
export const OptionalInt = (min: number, max: number, example?: number) =>
  applyDecorators(ApiPropertyOptional({ minimum: min, maximum: max, example, nullable: true, type: Number }), IsOptional(), IsInt(), Min(min), Max(max));

export const OptionalBool = (example?: boolean) => applyDecorators(ApiPropertyOptional({ example, type: Boolean }), IsOptional(), IsBoolean());

export const RequiredUuid = () => applyDecorators(ApiProperty({ format: 'uuid' }), IsUUID('all'));
export const OptionalUuid = () => applyDecorators(ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }), IsOptional(), IsUUID('all'));

// Query filters are the shared ones (src/common/validation/fields.ts), under the names this module uses.
export { BoolQuery as BoolFilter, UuidQuery as UuidFilter } from '../../common/validation/fields';

export { Type };
