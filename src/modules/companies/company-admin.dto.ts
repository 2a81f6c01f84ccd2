import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { IsCurrencyCode, IsTimeZone } from '../../common/validation/validators';
import { IsDateOnly, NestedList } from '../../common/validation/fields';
import { CompanyDocument, REFUND_EXCESS_TO, type RefundExcessTo } from './company-admin.entity';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);
/** Optional, but not null (the column is required). */
const Given = () => ValidateIf((_o, v) => v !== undefined);
const PHONE = /^\+?[0-9 ().-]{5,32}$/;

// ---------------------------------------------------------------- company and user

export class UpdateCompanyDto {
  @ApiPropertyOptional({ example: 'Acme Hauling', maxLength: 120 }) @Given() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name?: string;
  @ApiPropertyOptional({ format: 'email', nullable: true, type: String, description: 'null clears it' }) @IsOptional() @Transform(lower) @IsEmail() @MaxLength(254) email?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Phone number, preferably E.164; null clears it.' }) @IsOptional() @Transform(trim) @IsString() @Matches(PHONE, { message: 'must be a phone number' }) phone?: string | null;
  @ApiPropertyOptional({ maxLength: 500, nullable: true, type: String, description: 'null clears it' }) @IsOptional() @Transform(trim) @IsString() @MaxLength(500) address?: string | null;
  @ApiPropertyOptional({ example: 'America/Chicago' }) @Given() @IsTimeZone() timezone?: string;
  @ApiPropertyOptional({ example: 'USD' }) @Given() @Transform(upper) @IsCurrencyCode() currency?: string;
}

export class UpdateOwnUserDto {
  @ApiPropertyOptional({ maxLength: 120 }) @Given() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name?: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Phone number, preferably E.164; null clears it.' }) @IsOptional() @Transform(trim) @IsString() @Matches(PHONE, { message: 'must be a phone number' }) phone?: string | null;
  @ApiPropertyOptional({ format: 'email', description: 'Unique among users (409 EMAIL_TAKEN); a new address must be verified again.' }) @Given() @Transform(lower) @IsEmail() @MaxLength(254) email?: string;
}

// ---------------------------------------------------------------- documents

export class DocumentInputDto {
  @ApiProperty({ example: 'General liability insurance', maxLength: 200 }) @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @ApiProperty({ example: 'insurance', maxLength: 60, description: 'Free-form kind: insurance, license, permit, registration…' }) @Transform(lower) @IsString() @IsNotEmpty() @MaxLength(60) type: string;
  @ApiProperty({ example: 'https://files.acme-hauling.test/insurance-2027.pdf', maxLength: 2000 }) @IsString() @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }) @MaxLength(2000) url: string;
  @ApiPropertyOptional({ format: 'date', example: '2027-06-30', nullable: true, type: String }) @IsOptional() @IsDateOnly() expires_on?: string | null;
}

export class ReplaceDocumentsDto {
  @ApiProperty({ type: [DocumentInputDto], description: 'The whole new set; [] clears it.' })
  @NestedList(() => DocumentInputDto, { max: 100 })
  documents: DocumentInputDto[];
}

export class DocumentQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only documents of this type.' }) @IsOptional() @Transform(lower) @IsString() @MaxLength(60) type?: string;
}

export class CompanyDocumentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() type: string;
  @ApiProperty() url: string;
  @ApiProperty({ format: 'date', nullable: true, type: String }) expires_on: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  static of(d: CompanyDocument): CompanyDocumentDto {
    return { id: d.id, name: d.name, type: d.type, url: d.url, expires_on: d.expiresOn, created_at: d.createdAt.toISOString(), updated_at: d.updatedAt.toISOString() };
  }
}

// ---------------------------------------------------------------- settings

/** Defaults of the company's policy settings (timezone and currency come from the company). */
export const SETTINGS_DEFAULTS = {
  order_lead_time_days: 1,
  auto_approve_orders: false,
  free_cancellation_hours: 24,
  cancellation_fee_amount: 0,
  demerit_warning_threshold: 10,
  demerit_block_threshold: 20,
  demerit_window_days: 365,
  annual_leave_allowance_days: 20,
  sick_leave_allowance_days: 10,
  unpaid_leave_allowance_days: 0,
  other_leave_allowance_days: 0,
  refund_excess_to: 'customer' as RefundExcessTo,
  shift_start_time: '07:00',
  shift_minutes: 600,
  average_speed_kmh: 40,
  service_minutes_delivery: 15,
  service_minutes_pickup: 15,
  service_minutes_swap: 25,
  service_minutes_dump_return: 20,
  service_minutes_relocate: 20,
  station_minutes: 20,
  arrival_slip_minutes: 15,
} as const;

const REFUND_EXCESS_DOC =
  'Where money paid above an order\'s bill goes back when it arises (rejection, cancellation, repricing, a fee voided or waived, the final bill): ' +
  '`customer` (default) as the customer chose (`refund_to` of their payment identity: the wallet unless they chose the card), `wallet` always to the wallet, `instrument` back to the cards that paid (newest charge first; what no card can take goes to the wallet).';

export const SETTINGS_DOC =
  'Defaults: ' +
  Object.entries(SETTINGS_DEFAULTS)
    .map(([k, v]) => `\`${k}\` ${v}`)
    .join(', ') +
  '. `timezone` and `currency` are the company\'s own (changing them here changes the company too). ' +
  'Amounts are integer minor units of the currency.';

export class UpdateSettingsDto {
  @ApiPropertyOptional({ example: 'America/Chicago' }) @Given() @IsTimeZone() timezone?: string;
  @ApiPropertyOptional({ example: 'USD' }) @Given() @Transform(upper) @IsCurrencyCode() currency?: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 365, default: 1, description: 'Earliest delivery: today + this many days.' }) @Given() @IsInt() @Min(0) @Max(365) order_lead_time_days?: number;
  @ApiPropertyOptional({ default: false, description: 'Approve placed orders at once.' }) @Given() @IsBoolean() auto_approve_orders?: boolean;
  @ApiPropertyOptional({ minimum: 0, maximum: 8760, default: 24, description: 'Cancelling up to this many hours before delivery is free.' }) @Given() @IsInt() @Min(0) @Max(8760) free_cancellation_hours?: number;
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Fee for a late cancellation, integer minor units.' }) @Given() @IsInt() @Min(0) @Max(100000000) cancellation_fee_amount?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 100000, default: 10, description: 'Demerit points at which the customer is warned.' }) @Given() @IsInt() @Min(0) @Max(100000) demerit_warning_threshold?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 100000, default: 20, description: 'Demerit points at which new orders are refused (≥ the warning threshold).' }) @Given() @IsInt() @Min(0) @Max(100000) demerit_block_threshold?: number;
  @ApiPropertyOptional({ minimum: 1, maximum: 3650, default: 365, description: 'Days over which demerit points count.' }) @Given() @IsInt() @Min(1) @Max(3650) demerit_window_days?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 366, default: 20, example: 25, description: "Annual leave days a driver is allowed per calendar year (drivers' leave stats)." }) @Given() @IsInt() @Min(0) @Max(366) annual_leave_allowance_days?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 366, default: 10, example: 12, description: 'Sick leave days a driver is allowed per calendar year.' }) @Given() @IsInt() @Min(0) @Max(366) sick_leave_allowance_days?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 366, default: 0, example: 5, description: 'Unpaid leave days a driver is allowed per calendar year.' }) @Given() @IsInt() @Min(0) @Max(366) unpaid_leave_allowance_days?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 366, default: 0, example: 2, description: 'Other leave days a driver is allowed per calendar year.' }) @Given() @IsInt() @Min(0) @Max(366) other_leave_allowance_days?: number;
  @ApiPropertyOptional({ enum: REFUND_EXCESS_TO, default: 'customer', example: 'instrument', description: REFUND_EXCESS_DOC }) @Given() @IsIn(REFUND_EXCESS_TO) refund_excess_to?: RefundExcessTo;
  @ApiPropertyOptional({ default: '07:00', example: '06:30', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'When drivers set off from their home lot (HH:MM, company time): the start of planned arrival times and of the shift.' }) @Given() @IsString() @Matches(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, { message: 'must be a time HH:MM' }) shift_start_time?: string;
  @ApiPropertyOptional({ minimum: 30, maximum: 1440, default: 600, description: "A driver's shift in minutes: the day's plan never makes a driver's day longer." }) @Given() @IsInt() @Min(30) @Max(1440) shift_minutes?: number;
  @ApiPropertyOptional({ minimum: 5, maximum: 130, default: 40, description: 'Average speed of a truck in km/h, for driving minutes from straight-line legs.' }) @Given() @IsInt() @Min(5) @Max(130) average_speed_kmh?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 15, description: 'Minutes at the stop to drop a container.' }) @Given() @IsInt() @Min(0) @Max(600) service_minutes_delivery?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 15, description: 'Minutes at the stop to load a container.' }) @Given() @IsInt() @Min(0) @Max(600) service_minutes_pickup?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 25, description: 'Minutes at the stop to swap a container.' }) @Given() @IsInt() @Min(0) @Max(600) service_minutes_swap?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 20, description: 'Minutes at the stop for a dump and return (each of the two visits).' }) @Given() @IsInt() @Min(0) @Max(600) service_minutes_dump_return?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 20, description: 'Minutes at the stop to move a container to another address.' }) @Given() @IsInt() @Min(0) @Max(600) service_minutes_relocate?: number;
  @ApiPropertyOptional({ minimum: 0, maximum: 600, default: 20, description: 'Minutes at a transfer station or landfill to weigh and dump.' }) @Given() @IsInt() @Min(0) @Max(600) station_minutes?: number;
  @ApiPropertyOptional({ minimum: 1, maximum: 600, default: 15, description: 'Minutes an arrival may slip past the time the customer was last told before they are told again.' }) @Given() @IsInt() @Min(1) @Max(600) arrival_slip_minutes?: number;
}

export class CompanySettingsDto {
  @ApiProperty({ example: 'America/Chicago' }) timezone: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 1 }) order_lead_time_days: number;
  @ApiProperty({ example: false }) auto_approve_orders: boolean;
  @ApiProperty({ example: 24 }) free_cancellation_hours: number;
  @ApiProperty({ example: 0 }) cancellation_fee_amount: number;
  @ApiProperty({ example: 10 }) demerit_warning_threshold: number;
  @ApiProperty({ example: 20 }) demerit_block_threshold: number;
  @ApiProperty({ example: 365 }) demerit_window_days: number;
  @ApiProperty({ example: 20, description: 'Yearly leave allowance per driver, in days, for annual leave.' }) annual_leave_allowance_days: number;
  @ApiProperty({ example: 10, description: 'Yearly leave allowance per driver, in days, for sick leave.' }) sick_leave_allowance_days: number;
  @ApiProperty({ example: 0, description: 'Yearly leave allowance per driver, in days, for unpaid leave.' }) unpaid_leave_allowance_days: number;
  @ApiProperty({ example: 0, description: 'Yearly leave allowance per driver, in days, for other leave.' }) other_leave_allowance_days: number;
  @ApiProperty({ enum: REFUND_EXCESS_TO, example: 'customer', description: REFUND_EXCESS_DOC }) refund_excess_to: RefundExcessTo;
  @ApiProperty({ example: '07:00' }) shift_start_time: string;
  @ApiProperty({ example: 600 }) shift_minutes: number;
  @ApiProperty({ example: 40 }) average_speed_kmh: number;
  @ApiProperty({ example: 15 }) service_minutes_delivery: number;
  @ApiProperty({ example: 15 }) service_minutes_pickup: number;
  @ApiProperty({ example: 25 }) service_minutes_swap: number;
  @ApiProperty({ example: 20 }) service_minutes_dump_return: number;
  @ApiProperty({ example: 20 }) service_minutes_relocate: number;
  @ApiProperty({ example: 20 }) station_minutes: number;
  @ApiProperty({ example: 15 }) arrival_slip_minutes: number;
  @ApiProperty({ nullable: true, type: String, description: 'null while every setting has its default (never saved).' }) updated_at: string | null;
}
