import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { jsonValue } from '../../database/json-value';
import { CompaniesService } from '../companies';
import { DriversService } from '../drivers';
import { TrucksService } from '../fleet';
import { userNameOrEmailMatches, userNameSql } from '../users';
import {
  AttendanceDetailsQuery,
  AttendanceDto,
  AttendanceQuery,
  CheckInDto,
  CheckInStatusDto,
  CheckOutDto,
  DriverAttendanceDetailsDto,
  DriverAttendanceQuery,
  type PauseRow,
} from './attendance.dto';
import { Attendance, AttendanceBreak } from './attendance.entity';
import { OPEN_ATTENDANCE, type AttendanceStatus } from './attendance.types';
import { dayTime } from './attendance-time';
import { runUnit } from '../../database/unit-of-work';

/** A driver's state on a date, for dispatch (`statesOn`). */
export interface AttendanceState {
  status: AttendanceStatus;
  checked_in_at: string;
  checked_out_at: string | null;
  truck_id: string | null;
}

/** The longest range `GET /attendances/{driverId}/details` answers (unpaginated). */
const MAX_DETAIL_DAYS = 366;

/** The day's pauses, oldest first, as one JSON array (the read stays one statement). Alias `a`. */
const PAUSES_SQL = `(SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json)
   FROM attendance_breaks b WHERE b.attendance_id = a.id)`;

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
    private readonly ds: DataSource,
    private readonly companies: CompaniesService,
    private readonly drivers: DriversService,
    private readonly trucks: TrucksService,
  ) {}

  // ------------------------------------------------------------ the driver's moves

  async checkIn(scope: Scope, d: CheckInDto): Promise<AttendanceDto> {
    const timezone = await this.timezone(scope);
    const today = todayIn(timezone);
    const id = await runUnit(this.ds, async (m) => {
      await this.trucks.assertActive(scope, [{ field: 'truck_id', id: d.truck_id }]);
      await this.closeEarlierDays(m, scope, today, timezone);
      const now = new Date();
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(Attendance)
        .values({ companyId: scope.companyId, driverId: scope.actorId!, workDate: today, status: 'checked_in', checkedInAt: now, checkInLat: d.lat, checkInLng: d.lng, truckId: d.truck_id ?? null })
        .orIgnore()
        .returning(['id'])
        .execute();
      const row = (inserted.raw as { id: string }[])[0];
      if (!row) {
        // The day exists (perhaps checked in by a concurrent request, which committed first).
        const existing = await m.findOne(Attendance, { where: { driverId: scope.actorId!, workDate: today } });
        throw conflict(
          existing?.status === 'checked_out' ? 'You already checked out today: resume your day instead of checking in again.' : 'You are already checked in today.',
        );
      }
      await recordEvents(m, {
        type: 'attendance.checked_in',
        ...this.about(scope, row.id),
        payload: { driver_id: scope.actorId!, work_date: today, truck_id: d.truck_id ?? null, lat: d.lat, lng: d.lng },
      });
      return row.id;
    });
    return this.get(scope, id);
  }

  async startBreak(scope: Scope): Promise<AttendanceDto> {
    const id = await runUnit(this.ds, async (m) => {
      const day = await this.lockOpenDay(m, scope);
      if (day.status === 'on_break') throw conflict('You are already on a break.');
      const inserted = await m.insert(AttendanceBreak, { companyId: scope.companyId, attendanceId: day.id, kind: 'break', startedAt: new Date() });
      await m.update(Attendance, { id: day.id }, { status: 'on_break' });
      await recordEvents(m, {
        type: 'attendance.break_started',
        ...this.about(scope, day.id),
        payload: { driver_id: day.driverId, work_date: day.workDate, break_id: (inserted.identifiers[0] as { id: string }).id },
      });
      return day.id;
    });
    return this.get(scope, id);
  }

  async endBreak(scope: Scope): Promise<AttendanceDto> {
    const id = await runUnit(this.ds, async (m) => {
      const day = await this.lockOpenDay(m, scope);
      if (day.status !== 'on_break') throw conflict('You are not on a break.');
      const closed = await this.closeOpenPause(m, day.id, new Date());
      await m.update(Attendance, { id: day.id }, { status: 'checked_in' });
      if (closed) {
        const minutes = Math.floor((closed.endedAt.getTime() - closed.startedAt.getTime()) / 60_000);
        await recordEvents(m, { type: 'attendance.break_ended', ...this.about(scope, day.id), payload: { driver_id: day.driverId, work_date: day.workDate, break_id: closed.id, minutes } });
      }
      return day.id;
    });
    return this.get(scope, id);
  }

  async checkOut(scope: Scope, d: CheckOutDto): Promise<AttendanceDto> {
    const id = await runUnit(this.ds, async (m) => {
      const day = await this.lockOpenDay(m, scope);
      const now = new Date();
      await this.close(m, scope, day, now, false, d.lat !== undefined && d.lng !== undefined ? { lat: d.lat, lng: d.lng } : null);
      return day.id;
    });
    return this.get(scope, id);
  }

  /** Re-opens today's checked-out day; the time checked out is kept as a pause (not worked). */
  async resume(scope: Scope): Promise<AttendanceDto> {
    const today = todayIn(await this.timezone(scope));
    const id = await runUnit(this.ds, async (m) => {
      const day = await this.dayQuery(m, scope).andWhere('a.workDate = :today', { today }).setLock('pessimistic_write').getOne();
      if (!day) throw conflict('You have not checked in today.');
      if (day.status !== 'checked_out') throw conflict('Your day is not checked out.');
      const now = new Date();
      const from = day.checkedOutAt ?? now;
      await m.insert(AttendanceBreak, { companyId: day.companyId, attendanceId: day.id, kind: 'checked_out', startedAt: from, endedAt: now > from ? now : from });
      await m.update(Attendance, { id: day.id }, { status: 'checked_in', checkedOutAt: null, checkOutLat: null, checkOutLng: null });
      await recordEvents(m, { type: 'attendance.resumed', ...this.about(scope, day.id), payload: { driver_id: day.driverId, work_date: day.workDate } });
      return day.id;
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ reads

  /** One day the caller reaches (a driver their own, the company any of its drivers'), with its pauses and worked time; else 404. */
  async get(scope: Scope, id: string): Promise<AttendanceDto> {
    const { entities, raw } = await this.withExtras(scopedQuery(this.ds.manager, Attendance, scope, 'a')).andWhere('a.id = :id', { id }).getRawAndEntities();
    if (!entities[0]) throw ApiError.notFound('Attendance');
    return this.view(entities[0], raw[0]);
  }

  /** The driver's state: the open day (normally today's), else today's, else "not checked in". */
  async status(scope: Scope): Promise<CheckInStatusDto> {
    const today = todayIn(await this.timezone(scope));
    const { entities, raw } = await this.withExtras(scopedQuery(this.ds.manager, Attendance, scope, 'a'))
      .andWhere('(a.workDate = :today OR a.status IN (:...open))', { today, open: OPEN_ATTENDANCE })
      // The open day first, then the latest.
      .orderBy(`CASE WHEN a.status IN ('checked_in', 'on_break') THEN 0 ELSE 1 END`)
      .addOrderBy('a.workDate', 'DESC')
      .limit(1)
      .getRawAndEntities();
    const day = entities[0] ? this.view(entities[0], raw[0]) : null;
    return { checked_in: !!day && day.status !== 'checked_out', status: day?.status ?? 'not_checked_in', date: today, attendance: day };
  }

  /** Days `scope` reaches: the driver's own, or the company's (filters driver, status, dates; `q` on the driver's name or e-mail). Newest day first. */
  list(scope: Scope, q: AttendanceQuery | DriverAttendanceQuery): Promise<Page<AttendanceDto>> {
    const qb = this.withExtras(scopedQuery(this.ds.manager, Attendance, scope, 'a'));
    if (q.from) qb.andWhere('a.workDate >= :from', { from: q.from });
    if (q.to) qb.andWhere('a.workDate <= :to', { to: q.to });
    if ('driver_id' in q && q.driver_id) qb.andWhere('a.driverId = :driverId', { driverId: q.driver_id });
    if ('status' in q && q.status) qb.andWhere('a.status = :status', { status: q.status });
    if ('q' in q && q.q) qb.andWhere(userNameOrEmailMatches('a.driver_id'), { q: likePattern(q.q) });
    const now = new Date();
    return paginate(qb, q, {
      sortable: { work_date: 'a.workDate' },
      defaultSort: '-work_date',
      mapRaw: (a, raw) => this.view(a, raw, now),
      count: () => countRows(qb),
    });
  }

  /** A driver's days over a range (default: the current month), oldest first, with totals. A driver of another company is 404. */
  async details(companyId: string, driverId: string, q: AttendanceDetailsQuery): Promise<DriverAttendanceDetailsDto> {
    const scope = Scope.company(companyId);
    const driver = await this.drivers.show(scope, driverId);
    const month = monthOf(todayIn(await this.timezone(scope)));
    const from = q.from ?? month.first;
    const to = q.to ?? month.last;
    if (to < from) throw ApiError.validation({ to: ['must be on or after from'] });
    if (daysBetween(from, to) >= MAX_DETAIL_DAYS) throw ApiError.validation({ to: [`must be at most ${MAX_DETAIL_DAYS} days after from`] });
    const { entities, raw } = await this.withExtras(scopedQuery(this.ds.manager, Attendance, scope, 'a'))
      .andWhere('a.driverId = :driverId AND a.workDate BETWEEN :from AND :to', { driverId, from, to })
      .orderBy('a.workDate', 'ASC')
      .getRawAndEntities();
    const now = new Date();
    const days = entities.map((a, i) => this.view(a, raw[i], now));
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
  async statesOn(companyId: string, date: string, driverIds?: string[], m: EntityManager = this.ds.manager): Promise<Map<string, AttendanceState>> {
    if (driverIds && !driverIds.length) return new Map();
    const qb = scopedQuery(m, Attendance, Scope.company(companyId), 'a').andWhere('a.workDate = :date', { date });
    if (driverIds) qb.andWhere('a.driverId IN (:...driverIds)', { driverIds });
    const rows = await qb.getMany();
    return new Map(rows.map((a) => [a.driverId, { status: a.status, checked_in_at: a.checkedInAt.toISOString(), checked_out_at: a.checkedOutAt?.toISOString() ?? null, truck_id: a.truckId }]));
  }

  /** Whether the driver is on a break now (dispatch refuses job actions then: 409 `ON_BREAK`). */
  async isOnBreak(m: EntityManager, companyId: string, driverId: string): Promise<boolean> {
    return m.existsBy(Attendance, { companyId, driverId, status: 'on_break' });
  }

  // ------------------------------------------------------------ for reports (layer 7)

  /** Worked minutes per driver and day over [from, to] (optionally one driver's), as every route computes them. One statement (idx_attendances_company_date). */
  async workedMinutes(companyId: string, from: string, to: string, driverId?: string, m: EntityManager = this.ds.manager): Promise<{ driverId: string; workDate: string; workedMinutes: number }[]> {
    const qb = this.withExtras(scopedQuery(m, Attendance, Scope.company(companyId), 'a')).andWhere('a.workDate BETWEEN :from AND :to', { from, to });
    if (driverId) qb.andWhere('a.driverId = :driverId', { driverId });
    const { entities, raw } = await qb.getRawAndEntities();
    const now = new Date();
    return entities.map((a, i) => ({ driverId: a.driverId, workDate: a.workDate, workedMinutes: this.view(a, raw[i], now).worked_minutes }));
  }

  // ------------------------------------------------------------ internals

  private timezone(scope: Scope): Promise<string> | string {
    return scope.timezone ?? this.companies.timezone(scope.companyId);
  }

  private about(scope: Scope, attendanceId: string) {
    return { aggregateType: 'attendance', aggregateId: attendanceId, companyId: scope.companyId, actorId: scope.actorId };
  }

  /** The days `scope` reaches, as entities (no extras). */
  private dayQuery(m: EntityManager, scope: Scope): SelectQueryBuilder<Attendance> {
    return scopedQuery(m, Attendance, scope, 'a');
  }

  /** Adds the driver's name and the pauses (alias `a`). */
  private withExtras(qb: SelectQueryBuilder<Attendance>): SelectQueryBuilder<Attendance> {
    return qb.addSelect(userNameSql('a.driver_id'), 'driver_name').addSelect(PAUSES_SQL, 'pauses');
  }

  private view(a: Attendance, raw: Record<string, unknown>, now = new Date()): AttendanceDto {
    return AttendanceDto.of(a, { driverName: (raw.driver_name as string | null) ?? '', pauses: jsonValue<PauseRow[]>(raw.pauses) ?? [] }, now);
  }

  /** The caller's open day, locked (FOR UPDATE) for the rest of the transaction; 409 when there is none (checked out meanwhile). */
  private async lockOpenDay(m: EntityManager, scope: Scope): Promise<Attendance> {
    const day = await this.dayQuery(m, scope)
      .andWhere('a.status IN (:...open)', { open: OPEN_ATTENDANCE })
      .orderBy('a.workDate', 'DESC')
      .setLock('pessimistic_write')
      .getOne();
    if (!day) throw conflict('You are not checked in.');
    return day;
  }

  /** Ends the day's open pause at `at` (never before its start); the closed pause, or null when none was open. */
  private async closeOpenPause(m: EntityManager, attendanceId: string, at: Date): Promise<{ id: string; startedAt: Date; endedAt: Date } | null> {
    const res = await m
      .createQueryBuilder()
      .update(AttendanceBreak)
      .set({ endedAt: () => 'GREATEST(started_at, :at)' })
      .setParameter('at', at)
      .where('attendance_id = :attendanceId AND ended_at IS NULL', { attendanceId })
      .returning(['id', 'startedAt', 'endedAt'])
      .execute();
    const row = (res.raw as { id: string; started_at: Date | string; ended_at: Date | string }[])[0];
    return row ? { id: row.id, startedAt: new Date(row.started_at), endedAt: new Date(row.ended_at) } : null;
  }

  /** Checks a locked open day out at `at` (closing an open break), and records `attendance.checked_out`. */
  private async close(m: EntityManager, scope: Scope, day: Attendance, at: Date, auto: boolean, position: { lat: number; lng: number } | null): Promise<void> {
    const end = at > day.checkedInAt ? at : day.checkedInAt;
    await this.closeOpenPause(m, day.id, end);
    await m.update(Attendance, { id: day.id }, { status: 'checked_out', checkedOutAt: end, checkOutLat: position?.lat ?? null, checkOutLng: position?.lng ?? null });
    const pauses = await m.find(AttendanceBreak, { where: { attendanceId: day.id } });
    const { workedMinutes } = dayTime({ checkedInAt: day.checkedInAt, checkedOutAt: end }, pauses, end);
    await recordEvents(m, {
      type: 'attendance.checked_out',
      ...this.about(scope, day.id),
      payload: { driver_id: day.driverId, work_date: day.workDate, worked_minutes: workedMinutes, auto },
    });
  }

  /**
   * Days of the driver left open on another date (no check-out, e.g. forgotten yesterday) are closed at
   * the end of their date (midnight, company time zone; never after now), so that a new day can start.
   */
  private async closeEarlierDays(m: EntityManager, scope: Scope, today: string, timezone: string): Promise<void> {
    const { entities, raw } = await this.dayQuery(m, scope)
      .addSelect(`((a.work_date + 1)::timestamp AT TIME ZONE :tz)`, 'day_end')
      .setParameter('tz', timezone)
      .andWhere('a.status IN (:...open) AND a.workDate <> :today', { open: OPEN_ATTENDANCE, today })
      .setLock('pessimistic_write')
      .getRawAndEntities();
    const now = new Date();
    for (const [i, day] of entities.entries()) {
      const dayEnd = new Date(raw[i].day_end as string | Date);
      await this.close(m, scope, day, dayEnd < now ? dayEnd : now, true, null);
    }
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
