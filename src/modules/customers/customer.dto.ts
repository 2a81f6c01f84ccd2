import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, ValidateIf } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { BoolQuery, EnumQuery, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { PhoneField } from '../auth';
import { USER_STATUSES, type UserStatus } from '../users';
import { Customer } from './customer.entity';
import { Loaded } from './member-directory';
import { OptionalEmail, OptionalLoginEmail, OptionalName } from './member-fields';
import { MemberProfileDto, memberProfileFields } from './member-profile.dto';

/** The user fields and the billing profile, in both views of a customer. */
class CustomerBaseDto extends MemberProfileDto {
  @ApiPropertyOptional({ nullable: true, type: String }) billing_name: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'email' }) billing_email: string | null;
  @ApiProperty() tax_exempt: boolean;
}

const customerBase = (c: Loaded<Customer>): CustomerBaseDto => ({
  ...memberProfileFields(c),
  billing_name: c.billingName,
  billing_email: c.billingEmail,
  tax_exempt: c.taxExempt,
});

/** A customer as its company sees it: user fields and the profile. */
export class CustomerDto extends CustomerBaseDto {
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Internal notes of the company (not shown to the customer).' }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid', description: 'Assigned pricing profile; null = the company default.' }) pricing_profile_id: string | null;

  static of(c: Loaded<Customer>): CustomerDto {
    return { ...customerBase(c), notes: c.notes, pricing_profile_id: c.pricingProfileId };
  }
}

/** The customer's own profile (`/customer/profile`): without the company's notes. */
export class CustomerProfileDto extends CustomerBaseDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;

  static of(c: Loaded<Customer>): CustomerProfileDto {
    return { ...customerBase(c), company_id: c.companyId };
  }
}

export class CustomerListQuery extends PageQuery {
  @EnumQuery(USER_STATUSES) status?: UserStatus;
  @BoolQuery() tax_exempt?: boolean;
  @UuidQuery() pricing_profile_id?: string;
}

/** `PUT /customer/profile`: what a customer may change about itself. Omitted fields stay; null clears. */
export class UpdateCustomerProfileDto {
  @OptionalName() name?: string;
  @PhoneField() phone?: string | null;
  @TextField({ nullable: true, emptyClears: true, max: 200, example: 'Bo Builders LLC' }) billing_name?: string | null;
  @OptionalEmail() billing_email?: string | null;
}

/** `PUT /customer/{customerId}/update`: the company edits a customer. Omitted fields stay; null clears. */
export class UpdateCustomerDto extends UpdateCustomerProfileDto {
  @OptionalLoginEmail() email?: string;
  @ApiPropertyOptional() @ValidateIf((_o, v) => v !== undefined) @IsBoolean() tax_exempt?: boolean;
  @TextField({ nullable: true, emptyClears: true, max: 2000 }) notes?: string | null;
  @UuidField({ nullable: true, description: "One of the company's pricing profiles (422 otherwise); null = the default." }) pricing_profile_id?: string | null;
}
