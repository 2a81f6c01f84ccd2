import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsISO31661Alpha2, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { Given, TextField } from '../../common/validation/fields';
import { CustomerAddress } from './customer-address.entity';

export class CreateAddressDto {
  @TextField({ nullable: true, emptyClears: true, max: 60, example: 'Main site' }) label?: string | null;
  @TextField({ max: 200, example: '1200 Industrial Pkwy' }) line1: string;
  @TextField({ nullable: true, emptyClears: true, max: 200, example: 'Gate 3' }) line2?: string | null;
  @TextField({ max: 100, example: 'Springfield' }) city: string;
  @TextField({ nullable: true, emptyClears: true, max: 100, example: 'IL' }) region?: string | null;
  @TextField({ nullable: true, emptyClears: true, max: 20, example: '62701' }) postal_code?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'US', description: 'ISO 3166-1 alpha-2' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsOptional()
  @IsISO31661Alpha2()
  country?: string | null;
  @ApiProperty({ example: 39.7817, minimum: -90, maximum: 90 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-90) @Max(90) latitude: number;
  @ApiProperty({ example: -89.6501, minimum: -180, maximum: 180 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-180) @Max(180) longitude: number;
  @TextField({ nullable: true, emptyClears: true, max: 1000, example: 'Place the container on the gravel pad, not the lawn.' }) instructions?: string | null;
  @ApiPropertyOptional({ description: "Make it the default address (the customer's first address always is)." }) @Given() @IsBoolean() is_default?: boolean;
}

export class AddressDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) customer_id: string;
  @ApiPropertyOptional({ nullable: true, type: String }) label: string | null;
  @ApiProperty() line1: string;
  @ApiPropertyOptional({ nullable: true, type: String }) line2: string | null;
  @ApiProperty() city: string;
  @ApiPropertyOptional({ nullable: true, type: String }) region: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) postal_code: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) country: string | null;
  @ApiProperty() latitude: number;
  @ApiProperty() longitude: number;
  @ApiPropertyOptional({ nullable: true, type: String }) instructions: string | null;
  @ApiProperty() is_default: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(a: CustomerAddress): AddressDto {
    return {
      id: a.id,
      customer_id: a.customerId,
      label: a.label,
      line1: a.line1,
      line2: a.line2,
      city: a.city,
      region: a.region,
      postal_code: a.postalCode,
      country: a.country,
      latitude: a.latitude,
      longitude: a.longitude,
      instructions: a.instructions,
      is_default: a.isDefault,
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
    };
  }
}

/** An address as an order keeps it (frozen at placement; later edits of the address do not change it). */
export interface AddressSnapshot {
  label: string | null;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  latitude: number;
  longitude: number;
  instructions: string | null;
}
