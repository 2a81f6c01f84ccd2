import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateBy, ValidateNested } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { DateField, EnumQuery, Given, IntField, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import { EmailField, NameField, PasswordField, PhoneField } from '../auth';
import { AssetDto, AssetQuery, AssetSpecificationDto, AssetSpecificationQuery, CreateAssetDto, CreateAssetSpecificationDto, WasteTypeDto, WasteTypeQuery } from '../catalogue';
import { COMPANY_STATUSES, CompanyWithPlatformDto, CreateCompanyDto, type CompanyStatus } from '../companies';
import { CreateMemberDto, CustomerDto, CustomerListQuery } from '../customers';
import { DriverDto, DriverListQuery } from '../drivers';
import { CompanyOrderQuery, OrderDto, OrderFullDto } from '../orders';
import type { AuditEntry } from './audit-entry.entity';

type Class<T = object> = new (...args: any[]) => T;

// ---------------------------------------------------------------- list queries

/** `from`/`to`: creation dates (UTC, inclusive), the administrators' date filter on every list. */
function CreatedBetween<B extends Class>(Base: B) {
  class WithDates extends Base {
    @DateField({ optional: true, description: 'Created on or after this date (UTC).', example: '2026-01-01' }) from?: string;
    @DateField({ optional: true, description: 'Created on or before this date (UTC).', example: '2026-12-31' }) to?: string;
  }
  return WithDates;
}

/** `company_id`: one company's records (the lists across companies). */
function OfCompany<B extends Class>(Base: B) {
  class WithCompany extends Base {
    @UuidQuery() company_id?: string;
  }
  return WithCompany;
}

const ACTIVE_STATES = ['active', 'inactive'] as const;

export class AdminCompanyQuery extends CreatedBetween(PageQuery) {
  @EnumQuery(COMPANY_STATUSES) status?: CompanyStatus;
}

/** Customers of one company (`/admin/customers/{companyId}/get`): `q`, `status`, the company's filters, `from`/`to`. */
export class AdminCompanyCustomerQuery extends CreatedBetween(CustomerListQuery) {}
export class AdminCustomerQuery extends OfCompany(AdminCompanyCustomerQuery) {}

export class AdminCompanyDriverQuery extends CreatedBetween(DriverListQuery) {}
export class AdminDriverQuery extends OfCompany(AdminCompanyDriverQuery) {}

export class AdminCompanyAssetSpecificationQuery extends CreatedBetween(AssetSpecificationQuery) {
  @EnumQuery(ACTIVE_STATES) status?: (typeof ACTIVE_STATES)[number];
}
export class AdminAssetSpecificationQuery extends OfCompany(AdminCompanyAssetSpecificationQuery) {}

export class AdminCompanyAssetQuery extends CreatedBetween(AssetQuery) {}
export class AdminAssetQuery extends OfCompany(AdminCompanyAssetQuery) {}

export class AdminWasteTypeQuery extends OfCompany(CreatedBetween(WasteTypeQuery)) {
  @EnumQuery(ACTIVE_STATES) status?: (typeof ACTIVE_STATES)[number];
}

/** Orders: the company's filters (`status`, `payment_status`, `customer_id`, `asset_specification_id`, delivery `date`, `q`), `from`/`to` on creation. */
export class AdminCompanyOrderQuery extends CreatedBetween(OmitType(CompanyOrderQuery, ['from', 'to'] as const)) {}
export class AdminOrderQuery extends OfCompany(AdminCompanyOrderQuery) {}

// ---------------------------------------------------------------- bodies

export class CompanyOwnerDto {
  @NameField() name: string;
  @EmailField() email: string;
  @PhoneField() phone?: string;
  @IsOptional() @PasswordField('password', { optional: true, description: 'Without it the owner is e-mailed a code to set one.' }) password?: string;
}

/** `POST /admin/companies`: the company (the fields of `/company/create`) and its owner, a new company user. */
export class AdminCreateCompanyDto extends CreateCompanyDto {
  @ApiProperty({ type: CompanyOwnerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => CompanyOwnerDto)
  owner: CompanyOwnerDto;
}

const FLAG_NAME = /^[a-z][a-z0-9_]{0,49}$/;
const MAX_FLAGS = 50;

/** An object of at most 50 flags: snake_case names, each true, false or null (null removes it). */
const IsFeatureFlags = () =>
  ValidateBy({
    name: 'isFeatureFlags',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'object' &&
        v !== null &&
        !Array.isArray(v) &&
        Object.keys(v).length <= MAX_FLAGS &&
        Object.entries(v).every(([k, x]) => FLAG_NAME.test(k) && (typeof x === 'boolean' || x === null)),
      defaultMessage: () => `must be an object of at most ${MAX_FLAGS} flags: snake_case names, each true, false or null`,
    },
  });

/** `PATCH /admin/companies/{companyId}/platform`: fields given are changed. */
export class UpdatePlatformSettingsDto {
  @IntField({ nullable: true, min: 0, max: 10_000, example: 250, description: "The company's card fee percentage in basis points; null = the platform's default." })
  platform_fee_bps?: number | null;
  @TextField({ nullable: true, max: 50, example: 'pro', description: "A plan code (GET /psp/plans) whose limits apply whatever the company's subscription; null removes the override (422 for an unknown plan)." })
  plan_override?: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'boolean', nullable: true }, example: { route_optimisation: true }, description: 'Flags to set (true/false) or remove (null); the others stay.' })
  @Given()
  @IsFeatureFlags()
  feature_flags?: Record<string, boolean | null>;
}

/** A body that names its company: every administrator's create (422 without it, 404 for an unknown company). */
function NamingCompany<B extends Class>(Base: B) {
  class WithCompany extends Base {
    @UuidField({ description: 'The company the record is created for.' }) company_id: string;
  }
  return WithCompany;
}

export class AdminCreateMemberDto extends NamingCompany(CreateMemberDto) {}
export class AdminCreateAssetSpecificationDto extends NamingCompany(CreateAssetSpecificationDto) {}
export class AdminCreateAssetDto extends NamingCompany(CreateAssetDto) {}

// ---------------------------------------------------------------- responses

export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The administrator.' }) admin_id: string;
  @ApiProperty({ example: 'company.deactivated' }) action: string;
  @ApiProperty({ example: 'company' }) target_type: string;
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) company_id: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The record as its view showed it before (null on create).' }) before: object | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The record after the write.' }) after: object | null;
  @ApiProperty() created_at: string;

  static of(e: AuditEntry): AuditEntryDto {
    return { id: e.id, admin_id: e.adminId, action: e.action, target_type: e.targetType, target_id: e.targetId, company_id: e.companyId, before: e.before, after: e.after, created_at: e.createdAt.toISOString() };
  }
}

export class AdminCompanyDetailDto extends CompanyWithPlatformDto {
  @ApiProperty({ type: [AuditEntryDto], description: 'The latest 20 audit entries of the company, newest first.' }) audit: AuditEntryDto[];
}

export class AdminCustomerDto extends CustomerDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
export class AdminDriverDto extends DriverDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
export class AdminAssetSpecificationDto extends AssetSpecificationDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
export class AdminAssetDto extends AssetDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
export class AdminWasteTypeDto extends WasteTypeDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
export class AdminOrderDto extends OrderDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
export class AdminOrderFullDto extends OrderFullDto {
  @ApiProperty({ format: 'uuid' }) company_id: string;
}
