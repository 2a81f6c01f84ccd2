import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsNumber, Max, Min, ValidateIf } from 'class-validator';
import { PageQuery } from '../../common/http/pagination';
import { DateField, EnumQuery, UuidField, UuidQuery } from '../../common/validation/fields';
import type { Attendance } from './attendance.entity';
import { ATTENDANCE_STATUSES, PAUSE_KINDS, type AttendanceStatus, type PauseKind } from './attendance.types';
import { dayTime } from './attendance-time';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// ---------------------------------------------------------------- bodies

const AXES = {
  lat: { min: -90, max: 90, example: 39.7817, description: 'Latitude, degrees (WGS 84).' },
  lng: { min: -180, max: 180, example: -89.6501, description: 'Longitude, degrees (WGS 84).' },
};

/**
 * A latitude or longitude. `pair`: optional, but given together with the other axis (one without the
 * other is 422 on the missing one); null is refused either way.
 */
const Coordinate = (axis: keyof typeof AXES, o: { pair?: boolean } = {}) => {
  const a = AXES[axis];
  return applyDecorators(
    (o.pair ? ApiPropertyOptional : ApiProperty)({
      type: Number,
      minimum: a.min,
      maximum: a.max,
      example: a.example,
      description: o.pair ? `${a.description} Optional; with \`${axis === 'lat' ? 'lng' : 'lat'}\`.` : a.description,
    }),
    ...(o.pair ? [ValidateIf((d: { lat?: unknown; lng?: unknown }) => d.lat !== undefined || d.lng !== undefined)] : []),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: `must be a number from ${a.min} to ${a.max}` }),
    Min(a.min, { message: `must be a number from ${a.min} to ${a.max}` }),
    Max(a.max, { message: `must be a number from ${a.min} to ${a.max}` }),
  );
};

/** `POST /driver/check-in`: where the driver is, and the truck they take. */
export class CheckInDto {
  @Coordinate('lat') lat: number;
  @Coordinate('lng') lng: number;
  @UuidField({ optional: true, description: 'An active truck of the company (422 when not found or not active).' }) truck_id?: string;
}

/** `POST /driver/check-out`: where the driver is (optional). */
export class CheckOutDto {
  @Coordinate('lat', { pair: true }) lat?: number;
  @Coordinate('lng', { pair: true }) lng?: number;
}

/** A driver's own days: page, sort and a date range (no text search). */
export class DriverAttendanceQuery extends OmitType(PageQuery, ['q'] as const) {
  @DateField({ optional: true, description: 'Work date from (inclusive).' }) from?: string;
  @DateField({ optional: true, description: 'Work date to (inclusive).' }) to?: string;
}

/** The company's list of days. */
export class AttendanceQuery extends PageQuery {
  @DateField({ optional: true, description: 'Work date from (inclusive).' }) from?: string;
  @DateField({ optional: true, description: 'Work date to (inclusive).' }) to?: string;
  @UuidQuery() driver_id?: string;
  @EnumQuery(ATTENDANCE_STATUSES) status?: AttendanceStatus;
}

/** A driver's days over a range; both ends default to the current month (company time zone). */
export class AttendanceDetailsQuery {
  @DateField({ optional: true, description: 'Work date from (inclusive); default the first day of the current month.' }) from?: string;
  @DateField({ optional: true, description: 'Work date to (inclusive); default the last day of the current month. At most 366 days after `from`.' }) to?: string;
}

// ---------------------------------------------------------------- responses

export class PositionDto {
  @ApiProperty({ example: 39.7817 }) lat: number;
  @ApiProperty({ example: -89.6501 }) lng: number;
}

export class AttendanceDriverDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Luis Moreno' }) name: string;
}

export class AttendanceBreakDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: PAUSE_KINDS, description: '`break`: a break; `checked_out`: the time between a check-out and a resume of the day. Neither counts as worked.' })
  kind: PauseKind;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Null while the break runs.' }) ended_at: string | null;
  @ApiProperty({ type: 'integer', example: 30, description: 'Whole minutes (an open break up to now).' }) minutes: number;
}

/** A pause as the day's read brings it (a JSON aggregate). */
export interface PauseRow {
  id: string;
  kind: PauseKind;
  started_at: string;
  ended_at: string | null;
}

/** What a read of a day brings besides the row: the driver's name and the day's pauses. */
export interface DayExtras {
  driverName: string;
  pauses: PauseRow[];
}

export class AttendanceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: AttendanceDriverDto }) driver: AttendanceDriverDto;
  @ApiProperty({ format: 'date', example: '2027-03-15', description: "The company's local date of the check-in." }) work_date: string;
  @ApiProperty({ enum: ATTENDANCE_STATUSES }) status: AttendanceStatus;
  @ApiProperty({ format: 'date-time' }) checked_in_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) checked_out_at: string | null;
  @ApiProperty({ type: PositionDto, nullable: true, description: 'Where the driver checked in.' }) check_in: PositionDto | null;
  @ApiProperty({ type: PositionDto, nullable: true, description: 'Where the driver checked out, when given.' }) check_out: PositionDto | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The truck taken at check-in.' }) truck_id: string | null;
  @ApiProperty({ type: 'integer', example: 480, description: '(check-out, or now while the day is open) − check-in − breaks and time checked out before a resume; whole minutes.' })
  worked_minutes: number;
  @ApiProperty({ type: 'integer', example: 30, description: 'Time on breaks, whole minutes.' }) break_minutes: number;
  @ApiProperty({ type: [AttendanceBreakDto], description: 'Oldest first.' }) breaks: AttendanceBreakDto[];
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;

  static of(a: Attendance, x: DayExtras, now: Date): AttendanceDto {
    const pauses = x.pauses.map((p) => ({ id: p.id, kind: p.kind, startedAt: new Date(p.started_at), endedAt: p.ended_at ? new Date(p.ended_at) : null }));
    const time = dayTime(a, pauses, now);
    return {
      id: a.id,
      driver: { id: a.driverId, name: x.driverName },
      work_date: a.workDate,
      status: a.status,
      checked_in_at: a.checkedInAt.toISOString(),
      checked_out_at: iso(a.checkedOutAt),
      check_in: a.checkInLat !== null && a.checkInLng !== null ? { lat: a.checkInLat, lng: a.checkInLng } : null,
      check_out: a.checkOutLat !== null && a.checkOutLng !== null ? { lat: a.checkOutLat, lng: a.checkOutLng } : null,
      truck_id: a.truckId,
      worked_minutes: time.workedMinutes,
      break_minutes: time.breakMinutes,
      breaks: pauses.map((p, i) => ({ id: p.id, kind: p.kind, started_at: p.startedAt.toISOString(), ended_at: iso(p.endedAt), minutes: time.pauseMinutes[i] })),
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
    };
  }
}

export const CHECK_IN_STATES = ['not_checked_in', ...ATTENDANCE_STATUSES] as const;

/** `GET /driver/status/check-in`. */
export class CheckInStatusDto {
  @ApiProperty({ description: 'Whether the driver has an open day (checked in or on a break): the DR-IN routes are open to them.' }) checked_in: boolean;
  @ApiProperty({ enum: CHECK_IN_STATES, description: '`not_checked_in` when there is no day today (and none open).' }) status: (typeof CHECK_IN_STATES)[number];
  @ApiProperty({ format: 'date', example: '2027-03-15', description: "The company's date today." }) date: string;
  @ApiProperty({ type: AttendanceDto, nullable: true, description: "The open day (normally today's, or an earlier one not checked out yet), else today's, else null." })
  attendance: AttendanceDto | null;
}

export class AttendanceTotalsDto {
  @ApiProperty({ type: 'integer', example: 21, description: 'Days with a check-in.' }) days: number;
  @ApiProperty({ type: 'integer', example: 10080 }) worked_minutes: number;
  @ApiProperty({ type: 'integer', example: 630 }) break_minutes: number;
}

/** `GET /attendances/{driverId}/details`. */
export class DriverAttendanceDetailsDto {
  @ApiProperty({ type: AttendanceDriverDto }) driver: AttendanceDriverDto;
  @ApiProperty({ format: 'date', example: '2027-03-01' }) from: string;
  @ApiProperty({ format: 'date', example: '2027-03-31' }) to: string;
  @ApiProperty({ type: [AttendanceDto], description: 'The days in the range, oldest first.' }) attendances: AttendanceDto[];
  @ApiProperty({ type: AttendanceTotalsDto, description: 'Sums over `attendances`.' }) totals: AttendanceTotalsDto;
}
