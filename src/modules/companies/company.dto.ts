import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCurrencyCode, IsTimeZone } from '../../common/validation/validators';
import { NameField, PhoneField } from '../auth';
import { Company } from './company.entity';

export class CreateCompanyDto {
  @NameField() name: string;
  @ApiPropertyOptional({ format: 'email' }) @IsOptional() @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)) @IsEmail() @MaxLength(254) email?: string;
  @PhoneField() phone?: string;
  @ApiPropertyOptional({ maxLength: 500 }) @IsOptional() @IsString() @MaxLength(500) address?: string;
  @ApiPropertyOptional({ example: 'America/Chicago', default: 'UTC' }) @IsOptional() @IsTimeZone() timezone?: string;
  @ApiPropertyOptional({ example: 'USD', default: 'USD' }) @IsOptional() @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value)) @IsCurrencyCode() currency?: string;
}

export class CompanyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) email: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) address: string | null;
  @ApiProperty({ example: 'America/Chicago' }) timezone: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: string;
  @ApiProperty({ format: 'uuid' }) owner_id: string;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(c: Company): CompanyDto {
    return {
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      address: c.address,
      timezone: c.timezone,
      currency: c.currency,
      status: c.status,
      owner_id: c.ownerId,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
    };
  }
}
