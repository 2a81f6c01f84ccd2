import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsCurrencyCode, IsTimeZone } from '../../common/validation/validators';
import { NameField, PhoneField } from '../auth';
import { Company } from './company.entity';

export { COMPANY_STATUSES, type CompanyStatus } from './company.entity';

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

/** A company's platform settings (set by the platform's administrators; README "Platform administration"). */
export class PlatformSettingsDto {
  @ApiProperty({ nullable: true, type: Number, example: 250, description: "The card fee's percentage in basis points for this company; null = the platform's default." }) platform_fee_bps: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'pro', description: "A plan whose limits apply whatever the company's subscription; null = none." }) plan_override: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' }, example: { route_optimisation: true }, description: 'Feature flags by name.' }) feature_flags: Record<string, boolean>;

  static of(c: Company): PlatformSettingsDto {
    return { platform_fee_bps: c.platformFeeBps, plan_override: c.planOverride, feature_flags: c.featureFlags ?? {} };
  }
}

/** A company as the platform's administrators see it: the company and its platform settings. */
export class CompanyWithPlatformDto extends CompanyDto {
  @ApiProperty({ type: PlatformSettingsDto }) platform: PlatformSettingsDto;

  static withPlatform(c: Company): CompanyWithPlatformDto {
    return { ...CompanyDto.of(c), platform: PlatformSettingsDto.of(c) };
  }
}
