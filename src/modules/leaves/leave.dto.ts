import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, ValidateBy } from 'class-validator';
import { ExclusiveFields } from '../../common/http/openapi-strict';
import { PageQuery } from '../../common/http/pagination';
import { DATE_MESSAGE, DateField, EnumField, EnumQuery, Given, isDateOnly, PartialInput, TextField, UuidField, UuidQuery } from '../../common/validation/fields';
import type { Leave, LeaveRequest } from './leave.entities';
import {
  LEAVE_DATE_STATUSES,
  LEAVE_PHASES,
  LEAVE_REQUEST_STATUSES,
  LEAVE_STATUSES,
  LEAVE_TYPES,
  MAX_LEAVE_DATES,
  SICK_BACKDATE_DAYS,
  type LeaveDateStatus,
  type LeavePhase,
  type LeaveRequestStatus,
  type LeaveStatus,
  type LeaveType,
} from './leave.types';
import { daysBetween } from './leave-dates';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

// ---------------------------------------------------------------- bodies

/** A list of 1–60 distinct dates (`YYYY-MM-DD`). */
const DateListField = (o: { optional?: boolean; description: string }) =>
  applyDecorators(
    (o.optional ? ApiPropertyOptional : ApiProperty)({
      type: 'array',
      items: { type: 'string', format: 'date' },
      minItems: 1,
      maxItems: MAX_LEAVE_DATES,
      uniqueItems: true,
      example: ['2027-03-15', '2027-03-16'],
      description: o.description,
    }),
    ...(o.optional ? [Given()] : []),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_LEAVE_DATES),
    ArrayUnique({ message: 'must not name a date twice' }),
    ValidateBy({ name: 'isDateOnly', validator: { validate: isDateOnly, defaultMessage: () => `each value ${DATE_MESSAGE}` } }, { each: true }),
  );

const DATES_RULE =
  `The dates: \`dates\` (a list) or \`from\` and \`to\` (a range, inclusive), not both; at most ${MAX_LEAVE_DATES}. ` +
  `None in the past (the company's today), except for \`sick\` leave, up to ${SICK_BACKDATE_DAYS} days back.`;

/** The alternatives of a leave request body (`@BodyExamples`): a list of dates, or a range. */
export const LEAVE_REQUEST_EXAMPLES = {
  dates: { summary: 'Some days, as a list', value: { type: 'annual', dates: ['2027-06-14', '2027-06-15', '2027-06-18'], reason: "My sister's wedding in Denver, and the trip back." } },
  range: { summary: 'A range of days', value: { type: 'annual', from: '2027-08-02', to: '2027-08-06', reason: 'Family holiday at the lake.' } },
  sick: { summary: "Sick leave with a doctor's note", value: { type: 'sick', dates: ['2027-03-15'], reason: 'Flu; note from the clinic attached.', attachment_media_id: '5b7e9c2a-1d3f-4e6a-8b9c-0d1e2f3a4b5c' } },
};
export const LEAVE_UPDATE_EXAMPLES = {
  dates: { summary: 'New dates, as a list', value: { dates: ['2027-06-15', '2027-06-16'] } },
  range: { summary: 'A new range', value: { from: '2027-08-09', to: '2027-08-13' } },
  reason: { summary: 'Only the reason', value: { reason: 'Moving house; the truck is booked for those days.' } },
};

/** `POST /driver/leave-requests`. */
@ExclusiveFields(['dates', 'from'], ['dates', 'to'])
export class CreateLeaveRequestDto {
  @EnumField(LEAVE_TYPES, { example: 'annual' }) type: LeaveType;
  @DateListField({ optional: true, description: `The dates asked for, as a list. ${DATES_RULE}` }) dates?: string[];
  @DateField({ optional: true, description: 'First day of a range (with `to`), instead of `dates`.' }) from?: string;
  @DateField({ optional: true, example: '2027-03-19', description: 'Last day of the range (inclusive).' }) to?: string;
  @TextField({ max: 1000, example: "My sister's wedding in Denver." }) reason: string;
  @UuidField({ optional: true, nullable: true, description: 'An uploaded file (POST /upload-media) backing the request, e.g. a doctor\'s note; null for none.' })
  attachment_media_id?: string | null;
}

/**
 * `PUT /driver/leave-requests/{leaveRequest}`: any field of the request. New `dates` (or `from`/`to`)
 * replace the set: dates kept keep their decision, new ones are pending, the others are dropped.
 */
@ExclusiveFields(['dates', 'from'], ['dates', 'to'])
export class UpdateLeaveRequestDto extends PartialInput(CreateLeaveRequestDto) {}

/** The company's decision on some dates of a request. */
export class LeaveDatesDecisionDto {
  @DateListField({ description: 'Dates of this request (each once).' }) dates: string[];
  @TextField({ optional: true, max: 500, example: 'Two drivers are already off that week.', description: 'Kept on each decided date and sent to the driver.' }) note?: string;
}

/** `POST /leaves/{leave}/cancel` and `/revoke`. */
export class EndLeaveDto {
  @TextField({ optional: true, max: 500, example: 'Storm clean-up: every driver is needed.', description: 'Why; kept on the leave.' }) note?: string;
}

// ---------------------------------------------------------------- queries

/** A driver's own requests. */
export class DriverLeaveRequestQuery extends OmitType(PageQuery, ['q'] as const) {
  @EnumQuery(LEAVE_REQUEST_STATUSES) status?: LeaveRequestStatus;
  @EnumQuery(LEAVE_TYPES) type?: LeaveType;
  @DateField({ optional: true, description: 'Requests whose last date is on or after this day.' }) from?: string;
  @DateField({ optional: true, description: 'Requests whose first date is on or before this day.' }) to?: string;
}

/** The company's requests; `q` on the driver's name or e-mail. */
export class LeaveRequestQuery extends PageQuery {
  @EnumQuery(LEAVE_REQUEST_STATUSES) status?: LeaveRequestStatus;
  @EnumQuery(LEAVE_TYPES) type?: LeaveType;
  @DateField({ optional: true, description: 'Requests whose last date is on or after this day.' }) from?: string;
  @DateField({ optional: true, description: 'Requests whose first date is on or before this day.' }) to?: string;
  @UuidQuery() driver_id?: string;
}

/** A driver's own leaves. */
export class DriverLeaveQuery extends OmitType(PageQuery, ['q'] as const) {
  @EnumQuery(LEAVE_STATUSES) status?: LeaveStatus;
  @EnumQuery(LEAVE_TYPES) type?: LeaveType;
  @DateField({ optional: true, description: 'Leaves ending on or after this day.' }) from?: string;
  @DateField({ optional: true, description: 'Leaves starting on or before this day.' }) to?: string;
}

/** The company's leaves; `q` on the driver's name or e-mail. */
export class LeaveQuery extends PageQuery {
  @EnumQuery(LEAVE_STATUSES) status?: LeaveStatus;
  @EnumQuery(LEAVE_TYPES) type?: LeaveType;
  @DateField({ optional: true, description: 'Leaves ending on or after this day.' }) from?: string;
  @DateField({ optional: true, description: 'Leaves starting on or before this day.' }) to?: string;
  @UuidQuery() driver_id?: string;
  @UuidQuery() leave_request_id?: string;
}

// ---------------------------------------------------------------- responses

export class LeaveDriverDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Luis Moreno' }) name: string;
}

/** A requested date as the read brings it (a JSON aggregate). */
export interface DateRow {
  date: string;
  status: LeaveDateStatus;
  note: string | null;
  decided_at: string | null;
  leave_id: string | null;
}

export class LeaveRequestDateDto {
  @ApiProperty({ format: 'date', example: '2027-03-15' }) date: string;
  @ApiProperty({ enum: LEAVE_DATE_STATUSES }) status: LeaveDateStatus;
  @ApiProperty({ nullable: true, type: String, example: 'Approved: enjoy the wedding.', description: 'The note of the latest decision.' }) note: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the latest decision was taken (null while pending).' }) decided_at: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The leave an approved date became.' }) leave_id: string | null;
}

export class LeaveRequestDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: LeaveDriverDto }) driver: LeaveDriverDto;
  @ApiProperty({ enum: LEAVE_TYPES }) type: LeaveType;
  @ApiProperty({
    enum: LEAVE_REQUEST_STATUSES,
    description: 'Follows the dates: all approved `approved`, some `partially_approved`; none approved: all rejected `rejected`, any in review `in_review`, else `pending`. `cancelled` by the driver.',
  })
  status: LeaveRequestStatus;
  @ApiProperty({ example: "My sister's wedding in Denver." }) reason: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) attachment_media_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: '/api/v1/media/3f0c2a9e-7d1b-4c55-9a53-0a4f5d1f2b7e', description: 'Where the attachment is served.' }) attachment_url: string | null;
  @ApiProperty({ format: 'date', example: '2027-03-15' }) first_date: string;
  @ApiProperty({ format: 'date', example: '2027-03-19' }) last_date: string;
  @ApiProperty({ type: 'integer', example: 5, description: 'How many dates are asked for.' }) days: number;
  @ApiProperty({ type: [LeaveRequestDateDto], description: 'Oldest first.' }) dates: LeaveRequestDateDto[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancelled_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static of(r: LeaveRequest, driverName: string, dates: DateRow[]): LeaveRequestDto {
    return {
      id: r.id,
      driver: { id: r.driverId, name: driverName },
      type: r.type,
      status: r.status,
      reason: r.reason,
      attachment_media_id: r.attachmentMediaId,
      attachment_url: r.attachmentMediaId ? `/api/v1/media/${r.attachmentMediaId}` : null,
      first_date: r.firstDate,
      last_date: r.lastDate,
      days: dates.length,
      dates: dates.map((d) => ({ date: d.date, status: d.status, note: d.note, decided_at: iso(d.decided_at), leave_id: d.leave_id })),
      cancelled_at: iso(r.cancelledAt),
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  }
}

export class LeaveDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: LeaveDriverDto }) driver: LeaveDriverDto;
  @ApiProperty({ format: 'uuid' }) leave_request_id: string;
  @ApiProperty({ enum: LEAVE_TYPES }) type: LeaveType;
  @ApiProperty({ enum: LEAVE_STATUSES, description: '`approved`: in force; `cancelled` before it started; `revoked` while under way (the days up to the revocation stay taken).' })
  status: LeaveStatus;
  @ApiProperty({
    enum: LEAVE_PHASES,
    nullable: true,
    type: String,
    description: "Against the company's today: `upcoming` (may be cancelled), `under_way` (may be revoked), `over`; null when cancelled.",
  })
  phase: LeavePhase | null;
  @ApiProperty({ format: 'date', example: '2027-03-15' }) start_date: string;
  @ApiProperty({ format: 'date', example: '2027-03-17', description: 'Last day off (inclusive); after a revocation, the day it was revoked.' }) end_date: string;
  @ApiProperty({ type: 'integer', example: 3, description: 'Days from start_date to end_date.' }) days: number;
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'First of the days given back by a revocation.' }) revoked_from: string | null;
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'Last of the days given back (the leave\'s end before the revocation).' }) revoked_to: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancelled_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'Storm clean-up: every driver is needed.', description: 'Why it was cancelled or revoked.' }) note: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static of(l: Leave, driverName: string, today: string): LeaveDto {
    return {
      id: l.id,
      driver: { id: l.driverId, name: driverName },
      leave_request_id: l.leaveRequestId,
      type: l.type,
      status: l.status,
      phase: l.status === 'cancelled' ? null : today < l.startDate ? 'upcoming' : today <= l.endDate ? 'under_way' : 'over',
      start_date: l.startDate,
      end_date: l.endDate,
      days: daysBetween(l.startDate, l.endDate) + 1,
      revoked_from: l.revokedFrom,
      revoked_to: l.revokedTo,
      cancelled_at: iso(l.cancelledAt),
      revoked_at: iso(l.revokedAt),
      note: l.note,
      created_at: l.createdAt.toISOString(),
      updated_at: l.updatedAt.toISOString(),
    };
  }
}

export class LeaveTypeStatsDto {
  @ApiProperty({ enum: LEAVE_TYPES }) type: LeaveType;
  @ApiProperty({ type: 'integer', example: 20, description: "The company's yearly allowance for the type, in days (company settings `<type>_leave_allowance_days`)." }) allowance_days: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Approved leave days this year (past and planned; a revoked leave counts the days it kept, a cancelled one none).' })
  taken_days: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Requested days this year still pending or in review.' }) pending_days: number;
  @ApiProperty({ type: 'integer', example: 17, description: 'allowance_days − taken_days (negative when over).' }) remaining_days: number;
}

/** `GET /driver/leaves/stats`. */
export class LeaveStatsDto {
  @ApiProperty({ type: 'integer', example: 2027, description: "The current year in the company's time zone." }) year: number;
  @ApiProperty({ format: 'date', example: '2027-01-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2027-12-31' }) to: string;
  @ApiProperty({ type: [LeaveTypeStatsDto], description: 'One entry per type, in the order annual, sick, unpaid, other.' }) types: LeaveTypeStatsDto[];
}
