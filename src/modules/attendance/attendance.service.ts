import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompaniesService } from '../companies';
import { DriversService } from '../drivers';
import { TrucksService } from '../fleet';
import { UsersService } from '../users';
import {
  AttendanceDetailsQuery,
  AttendanceDto,
  AttendanceQuery,
  CheckInDto,
  CheckInStatusDto,
  CheckOutDto,
  DriverAttendanceDetailsDto,
  DriverAttendanceQuery,
} from './attendance.dto';
import type { Attendance } from './attendance.entity';
import { AttendanceRepository, type DayWithPauses } from './attendance.repository';
import type { AttendanceStatus } from './attendance.types';
import { dayTime } from './attendance-time';

/** A driver's state on a date, for dispatch (`statesOn`). */
export interface AttendanceState {
  status: AttendanceStatus;
  checked_in_at: string;
  checked_out_at: string | null;
  truck_id: string | null;
}

/** The longest range `GET /attendances/{driverId}/details` answers (unpaginated). */
const MAX_DETAIL_DAYS = 366;

const conflict = (message: string) => ApiError.conflict('INVALID_TRANSITION', message);

/**
 * Drivers' days (domain.md §6): check-in → `checked_in`, start-break → `on_break`, end-break →
 * `checked_in`, check-out → `checked_out`, resume → `checked_in` again. One day per driver and local
 * date (the company's time zone). Every move locks the day row (FOR UPDATE) and records its event in
 * the same transaction; a repeated or impossible move is 409 `INVALID_TRANSITION`. Worked time is
 * computed in one place (`dayTime`).
 */
@Injectable()
export class AttendanceService {
  constructor(
    private readonly days: AttendanceRepository,
    private readonly uow: UnitOfWork,
    private readonly companies: CompaniesService,
    private readonly drivers: DriversService,
    private readonly trucks: TrucksService,
    private readonly users: UsersService,
  ) {}

  // ------------------------------------------------------------ the driver's moves

  async checkIn(scope: Scope, d: CheckInDto): Promise<AttendanceDto> {
    const timezone = await this.timezone(scope);
    const today = todayIn(timezone);
    const id = await this.uow.transaction(async () => {
      await this.trucks.assertActive(scope, [{ field: 'truck_id', id: d.truck_id }]);
      await this.closeEarlierDays(scope, today, timezone);
      const now = new Date();
      const dayId = await this.days.insertDayUnlessExists(scope, { driverId: scope.actorId!, workDate: today, status: 'checked_in', checkedInAt: now, checkInLat: d.lat, checkInLng: d.lng, truckId: d.truck_id ?? null });
      if (!dayId) {
        // The day exists (perhaps checked in by a concurrent request, which committed first).
        const existing = await this.days.dayOf(scope, scope.actorId!, today);
        throw conflict(
          existing?.status === 'checked_out' ? 'You already checked out today: resume your day instead of checking in again.' : 'You are already checked in today.',
        );
      }
      await this.days.recordEvents({
        type: 'attendance.checked_in',
        ...this.about(scope, dayId),
        payload: { driver_id: scope.actorId!, work_date: today, truck_id: d.truck_id ?? null, lat: d.lat, lng: d.lng },
      });
      return dayId;
    });
    return this.get(scope, id);
  }

  async startBreak(scope: Scope): Promise<AttendanceDto> {
    const id = await this.uow.transaction(async () => {
      const day = await this.lockOpenDay(scope);
      if (day.status === 'on_break') throw conflict('You are already on a break.');
      const breakId = await this.days.insertBreak(scope, { attendanceId: day.id, kind: 'break', startedAt: new Date() });
      await this.days.update(scope, day.id, { status: 'on_break' });
      await this.days.recordEvents({
        type: 'attendance.break_started',
        ...this.about(scope, day.id),
        payload: { driver_id: day.driverId, work_date: day.workDate, break_id: breakId },
      });
      return day.id;
    });
    return this.get(scope, id);
  }

  async endBreak(scope: Scope): Promise<AttendanceDto> {
    const id = await this.uow.transaction(async () => {
      const day = await this.lockOpenDay(scope);
      if (day.status !== 'on_break') throw conflict('You are not on a break.');
      const closed = await this.days.closeOpenPause(scope, day.id, new Date());
      await this.days.update(scope, day.id, { status: 'checked_in' });
      if (closed) {
        const minutes = Math.floor((closed.endedAt.getTime() - closed.startedAt.getTime()) / 60_000);
        await this.days.recordEvents({ type: 'attendance.break_ended', ...this.about(scope, day.id), payload: { driver_id: day.driverId, work_date: day.workDate, break_id: closed.id, minutes } });
      }
      return day.id;
    });
    return this.get(scope, id);
  }

  async checkOut(scope: Scope, d: CheckOutDto): Promise<AttendanceDto> {
    const id = await this.uow.transaction(async () => {
      const day = await this.lockOpenDay(scope);
      const now = new Date();
      await this.close(scope, day, now, false, d.lat !== undefined && d.lng !== undefined ? { lat: d.lat, lng: d.lng } : null);
      return day.id;
    });
    return this.get(scope, id);
  }

  /** Re-opens today's checked-out day; the time checked out is kept as a pause (not worked). */
  async resume(scope: Scope): Promise<AttendanceDto> {
    const today = todayIn(await this.timezone(scope));
    const id = await this.uow.transaction(async () => {
      const day = await this.days.lockDayOn(scope, today);
      if (!day) throw conflict('You have not checked in today.');
      if (day.status !== 'checked_out') throw conflict('Your day is not checked out.');
      const now = new Date();
      const from = day.checkedOutAt ?? now;
      await this.days.insertBreak(scope, { attendanceId: day.id, kind: 'checked_out', startedAt: from, endedAt: now > from ? now : from });
      await this.days.update(scope, day.id, { status: 'checked_in', checkedOutAt: null, checkOutLat: null, checkOutLng: null });
      await this.days.recordEvents({ type: 'attendance.resumed', ...this.about(scope, day.id), payload: { driver_id: day.driverId, work_date: day.workDate } });
      return day.id;
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ reads

  /** One day the caller reaches (a driver their own, the company any of its drivers'), with its pauses and worked time; else 404. */
  async get(scope: Scope, id: string): Promise<AttendanceDto> {
    const found = await this.days.findWithPauses(scope, id);
    if (!found) throw ApiError.notFound('Attendance');
    return (await this.views(scope, [found]))[0];
  }

  /** The driver's state: the open day (normally today's), else today's, else "not checked in". */
  async status(scope: Scope): Promise<CheckInStatusDto> {
    const today = todayIn(await this.timezone(scope));
    const found = await this.days.currentWithPauses(scope, today);
    const day = found ? (await this.views(scope, [found]))[0] : null;
    return { checked_in: !!day && day.status !== 'checked_out', status: day?.status ?? 'not_checked_in', date: today, attendance: day };
  }

  /** Days `scope` reaches: the driver's own, or the company's (filters driver, status, dates; `q` on the driver's name or e-mail). Newest day first. */
  async list(scope: Scope, q: AttendanceQuery | DriverAttendanceQuery): Promise<Page<AttendanceDto>> {
    const now = new Date();
    const page = await this.days.page(scope, q);
    return new Page(await this.views(scope, page.items, now), page.meta);
  }

  /** A driver's days over a range (default: the current month), oldest first, with totals. A driver of another company is 404. */
  async details(scope: Scope, driverId: string, q: AttendanceDetailsQuery): Promise<DriverAttendanceDetailsDto> {
    const company = Scope.company(scope.companyId, scope.actorId);
    const driver = await this.drivers.show(company, driverId);
    const month = monthOf(todayIn(await this.timezone(company)));
    const from = q.from ?? month.first;
    const to = q.to ?? month.last;
    if (to < from) throw ApiError.validation({ to: ['must be on or after from'] });
    if (daysBetween(from, to) >= MAX_DETAIL_DAYS) throw ApiError.validation({ to: [`must be at most ${MAX_DETAIL_DAYS} days after from`] });
    const now = new Date();
    const days = (await this.days.between(company, from, to, driverId, true)).map((x) => this.view(x, driver.name, now));
    return {
      driver: { id: driver.id, name: driver.name },
      from,
      to,
      attendances: days,
      totals: { days: days.length, worked_minutes: sum(days.map((d) => d.worked_minutes)), break_minutes: sum(days.map((d) => d.break_minutes)) },
    };
  }

  // ------------------------------------------------------------ for dispatch (same layer)

  /** The company's drivers' days on `date` (optionally only these drivers), by driver id. One statement. */
  async statesOn(scope: Scope, date: string, driverIds?: string[]): Promise<Map<string, AttendanceState>> {
    if (driverIds && !driverIds.length) return new Map();
    const rows = await this.days.on(scope, date, driverIds);
    return new Map(rows.map((a) => [a.driverId, { status: a.status, checked_in_at: a.checkedInAt.toISOString(), checked_out_at: a.checkedOutAt?.toISOString() ?? null, truck_id: a.truckId }]));
  }

  /** Whether the driver is on a break now (dispatch refuses job actions then: 409 `ON_BREAK`). */
  isOnBreak(scope: Scope, driverId: string): Promise<boolean> {
    return this.days.isOnBreak(scope, driverId);
  }

  // ------------------------------------------------------------ for reports (layer 7)

  /** Worked minutes per driver and day over [from, to] (optionally one driver's), as every route computes them. One statement (idx_attendances_company_date). */
  async workedMinutes(scope: Scope, from: string, to: string, driverId?: string): Promise<{ driverId: string; workDate: string; workedMinutes: number }[]> {
    const now = new Date();
    return (await this.days.between(scope, from, to, driverId, false)).map((x) => ({ driverId: x.day.driverId, workDate: x.day.workDate, workedMinutes: this.view(x, '', now).worked_minutes }));
  }

  // ------------------------------------------------------------ internals

  private timezone(scope: Scope): Promise<string> | string {
    return scope.timezone ?? this.companies.timezone(scope);
  }

  private about(scope: Scope, attendanceId: string) {
    return { aggregateType: 'attendance', aggregateId: attendanceId, companyId: scope.companyId, actorId: scope.actorId };
  }

  /** The days as answers, with their drivers' names (users' typed read: one statement for all of them). */
  private async views(scope: Scope, rows: readonly DayWithPauses[], now = new Date()): Promise<AttendanceDto[]> {
    const names = await this.users.names(scope, [...new Set(rows.map((x) => x.day.driverId))]);
    return rows.map((x) => this.view(x, names.get(x.day.driverId) ?? '', now));
  }

  private view(x: DayWithPauses, driverName: string, now = new Date()): AttendanceDto {
    return AttendanceDto.of(x.day, { driverName, pauses: x.pauses }, now);
  }

  /** The caller's open day, locked (FOR UPDATE) for the rest of the unit; 409 when there is none (checked out meanwhile). */
  private async lockOpenDay(scope: Scope): Promise<Attendance> {
    const day = await this.days.lockOpenDay(scope);
    if (!day) throw conflict('You are not checked in.');
    return day;
  }

  /** Checks a locked open day out at `at` (closing an open break), and records `attendance.checked_out`. */
  private async close(scope: Scope, day: Attendance, at: Date, auto: boolean, position: { lat: number; lng: number } | null): Promise<void> {
    const end = at > day.checkedInAt ? at : day.checkedInAt;
    await this.days.closeOpenPause(scope, day.id, end);
    await this.days.update(scope, day.id, { status: 'checked_out', checkedOutAt: end, checkOutLat: position?.lat ?? null, checkOutLng: position?.lng ?? null });
    const pauses = await this.days.breaksOf(scope, day.id);
    const { workedMinutes } = dayTime({ checkedInAt: day.checkedInAt, checkedOutAt: end }, pauses, end);
    await this.days.recordEvents({
      type: 'attendance.checked_out',
      ...this.about(scope, day.id),
      payload: { driver_id: day.driverId, work_date: day.workDate, worked_minutes: workedMinutes, auto },
    });
  }

  /**
   * Days of the driver left open on another date (no check-out, e.g. forgotten yesterday) are closed at
   * the end of their date (midnight, company time zone; never after now), so that a new day can start.
   */
  private async closeEarlierDays(scope: Scope, today: string, timezone: string): Promise<void> {
    const open = await this.days.lockOpenDaysBefore(scope, today, timezone);
    const now = new Date();
    for (const { day, dayEnd } of open) await this.close(scope, day, dayEnd < now ? dayEnd : now, true, null);
  }
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

/** The first and last day of the month of a date (`YYYY-MM-DD`). */
function monthOf(date: string): { first: string; last: string } {
  const [y, mo] = date.split('-').map(Number);
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return { first: `${date.slice(0, 7)}-01`, last: `${date.slice(0, 7)}-${String(last).padStart(2, '0')}` };
}

/** Whole days from `from` to `to` (dates `YYYY-MM-DD`). */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to + 'T00:00:00Z') - Date.parse(from + 'T00:00:00Z')) / 86_400_000);
