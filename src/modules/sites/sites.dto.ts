import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { IsDateOnly, NestedList } from '../../common/validation/fields';
import { HolidayEntity, Lot, OpeningExceptionEntity, OpeningHours, SiteEntity, Station, WEEKDAYS } from './site.entity';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Optional, but not null (the column is required). */
export const Given = () => ValidateIf((_o, v) => v !== undefined);
const bool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** Open every day, all day: the opening hours of a site created without any. */
export const ALL_DAY_HOURS: Required<OpeningHours> = Object.fromEntries(WEEKDAYS.map((d) => [d, { open: '00:00', close: '24:00' }])) as Required<OpeningHours>;

const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Why one day's hours (`{open, close}` or null) are invalid, or null when they are valid; `what` names them in the message. */
export function dayHoursProblem(hours: unknown, what: string): string | null {
  if (hours === null) return null;
  if (typeof hours !== 'object' || Array.isArray(hours)) return `${what} must be {open, close} or null`;
  const keys = Object.keys(hours).sort().join(',');
  const { open, close } = hours as { open?: unknown; close?: unknown };
  if (keys !== 'close,open' || typeof open !== 'string' || typeof close !== 'string' || !TIME.test(open) || !TIME.test(close)) {
    return `${what} must be {open: 'HH:MM', close: 'HH:MM'} or null`;
  }
  if (open >= close) return `${what}: open must be before close`;
  return null;
}

/** Why an opening-hours object is invalid, or null when it is valid. */
export function openingHoursProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object with keys mon..sun';
  for (const [day, hours] of Object.entries(v)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) return `unknown day ${day} (use ${WEEKDAYS.join(', ')})`;
    const problem = dayHoursProblem(hours, day);
    if (problem) return problem;
  }
  return null;
}

/** One day's hours: `{open: 'HH:MM', close: 'HH:MM'}` (open before close; close may be `24:00`), or null for closed; required. */
function IsDayHours(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDayHours',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (v: unknown) => v !== undefined && dayHoursProblem(v, 'hours') === null,
        defaultMessage: (args) => (args?.value === undefined ? 'hours is required: {open, close}, or null for closed' : (dayHoursProblem(args?.value, 'hours') ?? 'invalid hours')),
      },
    });
}

/** `{mon: {open: '07:00', close: '17:00'}, sun: null, ...}`; a day left out is closed. */
export function IsOpeningHours(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isOpeningHours',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (v: unknown) => openingHoursProblem(v) === null,
        defaultMessage: (args) => openingHoursProblem(args?.value) ?? 'invalid opening hours',
      },
    });
}

interface DayHoursDto {
  open: string;
  close: string;
}
/** One weekday: `{open, close}`, or null when closed (inline, so that `nullable` admits null in OpenAPI 3.0). */
const day = (open: string, close: string | null) =>
  ApiProperty({
    type: 'object',
    nullable: true,
    required: ['open', 'close'],
    properties: { open: { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '07:00' }, close: { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '17:00' } },
    example: close === null ? null : { open, close },
  } as never);
export class OpeningHoursDto {
  @day('07:00', '17:00') mon: DayHoursDto | null;
  @day('07:00', '17:00') tue: DayHoursDto | null;
  @day('07:00', '17:00') wed: DayHoursDto | null;
  @day('07:00', '17:00') thu: DayHoursDto | null;
  @day('07:00', '17:00') fri: DayHoursDto | null;
  @day('08:00', '12:00') sat: DayHoursDto | null;
  @day('', null) sun: DayHoursDto | null;

  /** Every day present: a day left out is closed (null). */
  static of(h: OpeningHours | null | undefined): OpeningHoursDto {
    return Object.fromEntries(WEEKDAYS.map((d) => [d, h?.[d] ? { open: h[d]!.open, close: h[d]!.close } : null])) as unknown as OpeningHoursDto;
  }
}

const HOURS_DOC = {
  type: OpeningHoursDto,
  description:
    'Per weekday (`mon`..`sun`): `{open, close}` as `HH:MM` (close may be `24:00`), or null for closed. A day left out is closed. ' +
    'Omitted at creation: open every day, all day.',
  example: { mon: { open: '07:00', close: '17:00' }, tue: { open: '07:00', close: '17:00' }, wed: { open: '07:00', close: '17:00' }, thu: { open: '07:00', close: '17:00' }, fri: { open: '07:00', close: '17:00' }, sat: { open: '08:00', close: '12:00' }, sun: null },
};

// ---------------------------------------------------------------- bodies

const NAME_DOC = { example: 'North yard', maxLength: 120 };

/** Fields lots and stations share, all optional (the name is added by each create/update body). */
abstract class SiteFieldsDto {
  @ApiPropertyOptional({ example: '1200 Industrial Pkwy, Springfield', maxLength: 500, nullable: true, type: String }) @IsOptional() @Transform(trim) @IsString() @MaxLength(500) address?: string | null;
  @ApiPropertyOptional({ minimum: -90, maximum: 90, example: 39.7817, nullable: true, type: Number }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-90) @Max(90) latitude?: number | null;
  @ApiPropertyOptional({ minimum: -180, maximum: 180, example: -89.6501, nullable: true, type: Number }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-180) @Max(180) longitude?: number | null;
  @ApiPropertyOptional(HOURS_DOC) @Given() @IsOpeningHours() opening_hours?: OpeningHours;
  @ApiPropertyOptional({ default: true }) @Given() @IsBoolean() active?: boolean;
}

abstract class LotFieldsDto extends SiteFieldsDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 1000000, default: 0, description: 'How many containers the lot holds.', example: 120 }) @Given() @IsInt() @Min(0) @Max(1000000) capacity?: number;
}
export class CreateLotDto extends LotFieldsDto {
  @ApiProperty(NAME_DOC) @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name: string;
}
export class UpdateLotDto extends LotFieldsDto {
  @ApiPropertyOptional(NAME_DOC) @Given() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name?: string;
}

abstract class StationFieldsDto extends SiteFieldsDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Accepted waste types (the company\'s); replaces the set.' })
  @Given() @IsArray() @ArrayMaxSize(200) @ArrayUnique() @IsUUID('all', { each: true })
  waste_type_ids?: string[];
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Dump cost per tonne, integer minor units.', example: 6500 }) @Given() @IsInt() @Min(0) @Max(100000000) dump_cost_per_tonne_amount?: number;
}
export class CreateStationDto extends StationFieldsDto {
  @ApiProperty({ ...NAME_DOC, example: 'County transfer station' }) @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name: string;
}
export class UpdateStationDto extends StationFieldsDto {
  @ApiPropertyOptional({ ...NAME_DOC, example: 'County transfer station' }) @Given() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name?: string;
}

export class HolidayInputDto {
  @ApiProperty({ example: '2027-12-25', format: 'date' }) @IsDateOnly() date: string;
  @ApiProperty({ example: 'Christmas Day', maxLength: 120 }) @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name: string;
}
export class UpdateHolidayDto {
  @ApiPropertyOptional({ example: '2027-12-26', format: 'date' }) @Given() @IsDateOnly() date?: string;
  @ApiPropertyOptional({ example: 'Boxing Day', maxLength: 120 }) @Given() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(120) name?: string;
}
export class ReplaceHolidaysDto {
  @ApiProperty({ type: [HolidayInputDto], description: 'The whole new set (dates unique); [] clears it.' })
  @NestedList(() => HolidayInputDto, { max: 1000 })
  holidays: HolidayInputDto[];
}

/** One day's hours in a body: `{open, close}`, or null for closed (inline, so that `nullable` admits null in OpenAPI 3.0). */
const hoursBody = (description: string) =>
  ApiProperty({
    type: 'object',
    nullable: true,
    required: ['open', 'close'],
    properties: { open: { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '07:00' }, close: { type: 'string', pattern: '^\\d{2}:\\d{2}$', example: '12:00' } },
    example: { open: '07:00', close: '12:00' },
    description,
  } as never);

/** `PUT /lot/{lot}/opening-hours/{weekday}` (and stations'): one weekday's hours, the other days unchanged. */
export class WeekdayHoursDto {
  @hoursBody('The weekday\'s hours, `HH:MM` (close may be `24:00`), or null: closed that weekday.') @IsDayHours() hours: DayHoursDto | null;
}

/** `PUT /lot/{lot}/opening-exceptions/{date}` (and stations'): one date's opening, whatever its weekday says. */
export class OpeningExceptionInputDto {
  @hoursBody('Special hours that date, `HH:MM`, or null: closed that date.') @IsDayHours() hours: DayHoursDto | null;
  @ApiPropertyOptional({ example: 'Stocktaking', maxLength: 200, nullable: true, type: String, description: 'Why (shown as the reason when the date is closed).' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  note?: string | null;
}

// ---------------------------------------------------------------- queries

export class SiteQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only active (true) or inactive (false) ones.' }) @IsOptional() @Transform(bool) @IsBoolean() active?: boolean;
}
export class StationQuery extends SiteQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only stations accepting this waste type.' }) @IsOptional() @IsUUID() waste_type_id?: string;
}
export class HolidayQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'date', description: 'Holidays on or after this date.' }) @IsOptional() @IsDateOnly() from?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Holidays on or before this date.' }) @IsOptional() @IsDateOnly() to?: string;
}

// ---------------------------------------------------------------- responses

abstract class SiteDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) address: string | null;
  @ApiProperty({ nullable: true, type: Number }) latitude: number | null;
  @ApiProperty({ nullable: true, type: Number }) longitude: number | null;
  @ApiProperty({ type: OpeningHoursDto }) opening_hours: OpeningHoursDto;
  @ApiProperty() active: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  protected static base(s: SiteEntity) {
    return {
      id: s.id,
      name: s.name,
      address: s.address,
      latitude: s.latitude,
      longitude: s.longitude,
      opening_hours: OpeningHoursDto.of(s.openingHours),
      active: s.active,
      created_at: s.createdAt.toISOString(),
      updated_at: s.updatedAt.toISOString(),
    };
  }
}

export class LotDto extends SiteDto {
  @ApiProperty({ example: 120 }) capacity: number;
  static of(l: Lot): LotDto {
    return { ...SiteDto.base(l), capacity: l.capacity };
  }
}

export class WasteTypeRefDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class StationDto extends SiteDto {
  @ApiProperty({ example: 6500, description: 'Integer minor units per tonne.' }) dump_cost_per_tonne_amount: number;
  @ApiProperty({ type: [String], format: 'uuid' }) waste_type_ids: string[];
  @ApiProperty({ type: [WasteTypeRefDto] }) waste_types: WasteTypeRefDto[];
  static of(s: Station, wasteTypes: WasteTypeRefDto[] = []): StationDto {
    return { ...SiteDto.base(s), dump_cost_per_tonne_amount: s.dumpCostPerTonneAmount, waste_type_ids: wasteTypes.map((w) => w.id), waste_types: wasteTypes };
  }
}

export class OpeningExceptionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date', example: '2027-12-24' }) date: string;
  @ApiProperty({ type: 'object', nullable: true, required: ['open', 'close'], properties: { open: { type: 'string', example: '07:00' }, close: { type: 'string', example: '12:00' } }, example: { open: '07:00', close: '12:00' }, description: 'The hours that date, or null: closed.' } as never)
  hours: DayHoursDto | null;
  @ApiProperty({ nullable: true, type: String, example: 'Christmas Eve: mornings only' }) note: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  static of(e: OpeningExceptionEntity): OpeningExceptionDto {
    return {
      id: e.id,
      date: e.date,
      hours: e.openTime !== null && e.closeTime !== null ? { open: e.openTime, close: e.closeTime } : null,
      note: e.note,
      created_at: e.createdAt.toISOString(),
      updated_at: e.updatedAt.toISOString(),
    };
  }
}

export class HolidayDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date', example: '2027-12-25' }) date: string;
  @ApiProperty({ example: 'Christmas Day' }) name: string;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  static of(h: HolidayEntity): HolidayDto {
    return { id: h.id, date: h.date, name: h.name, created_at: h.createdAt.toISOString(), updated_at: h.updatedAt.toISOString() };
  }
}
