import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsUUID, ValidateIf } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { PhoneField } from '../auth/auth.dto';
import { USER_STATUSES, UserStatus } from '../users/user.entity';
import { Customer } from './customer.entity';
import { Loaded, memberUserFields } from './member-directory';
import { OptionalEmail, OptionalLoginEmail, OptionalName, OptionalText } from './member-fields';

/** A customer as its company sees it: user fields and the profile. */
export class CustomerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ enum: USER_STATUSES }) status: string;
  @ApiProperty() email_verified: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) billing_name: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'email' }) billing_email: string | null;
  @ApiProperty() tax_exempt: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Internal notes of the company (not shown to the customer).' }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'Assigned pricing profile; null = the company default.' }) pricing_profile_id: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(c: Loaded<Customer>): CustomerDto {
    return {
      id: c.id,
      ...memberUserFields(c.user),
      billing_name: c.billingName,
      billing_email: c.billingEmail,
      tax_exempt: c.taxExempt,
      notes: c.notes,
      pricing_profile_id: c.pricingProfileId,
      created_at: c.createdAt.toISOString(),
      updated_at: latest(c.updatedAt, c.user.updatedAt),
    };
  }
}

/** The customer's own profile (`/customer/profile`): without the company's notes. */
export class CustomerProfileDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) company_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiPropertyOptional({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ enum: USER_STATUSES }) status: string;
  @ApiProperty() email_verified: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) billing_name: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'email' }) billing_email: string | null;
  @ApiProperty() tax_exempt: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(c: Loaded<Customer>): CustomerProfileDto {
    return {
      id: c.id,
      company_id: c.companyId,
      ...memberUserFields(c.user),
      billing_name: c.billingName,
      billing_email: c.billingEmail,
      tax_exempt: c.taxExempt,
      created_at: c.createdAt.toISOString(),
      updated_at: latest(c.updatedAt, c.user.updatedAt),
    };
  }
}

export const latest = (a: Date, b: Date) => (a > b ? a : b).toISOString();

const bool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class CustomerListQuery extends PageQuery {
  @ApiPropertyOptional({ enum: USER_STATUSES }) @IsOptional() @IsIn(USER_STATUSES) status?: UserStatus;
  @ApiPropertyOptional({ type: Boolean }) @IsOptional() @Transform(bool) @IsBoolean() tax_exempt?: boolean;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() pricing_profile_id?: string;
}

/** `PUT /customer/profile`: what a customer may change about itself. Omitted fields stay; null clears. */
export class UpdateCustomerProfileDto {
  @OptionalName() name?: string;
  @PhoneField() phone?: string | null;
  @OptionalText(200, 'Bo Builders LLC') billing_name?: string | null;
  @OptionalEmail() billing_email?: string | null;
}

/** `PUT /customer/{customerId}/update`: the company edits a customer. Omitted fields stay; null clears. */
export class UpdateCustomerDto extends UpdateCustomerProfileDto {
  @OptionalLoginEmail() email?: string;
  @ApiPropertyOptional() @ValidateIf((_o, v) => v !== undefined) @IsBoolean() tax_exempt?: boolean;
  @OptionalText(2000) notes?: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: "One of the company's pricing profiles (422 otherwise); null = the default." })
  @IsOptional()
  @IsUUID()
  pricing_profile_id?: string | null;
}
