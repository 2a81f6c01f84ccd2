import { Injectable } from '@nestjs/common';
import type { FindOptionsWhere, SelectQueryBuilder } from 'typeorm';
import { Scope, SystemReach } from '../../common/access/scope';
import { scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import type { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate } from '../../common/http/pagination';
import { jsonValue } from '../../database/json-value';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { AttendanceQuery, DriverAttendanceQuery, PauseRow } from './attendance.dto';
import { Attendance, AttendanceBreak } from './attendance.entity';
import { OPEN_ATTENDANCE } from './attendance.types';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** The day's pauses, oldest first, as one JSON array (the read stays one statement). Alias `a`. */
const PAUSES_SQL = `(SELECT coalesce(json_agg(json_build_object('id', b.id, 'kind', b.kind, 'started_at', b.started_at, 'ended_at', b.ended_at) ORDER BY b.started_at, b.id), '[]'::json)
   FROM attendance_breaks b WHERE b.attendance_id = a.id)`;

/** A day with its pauses. */
export interface DayWithPauses {
  day: Attendance;
  pauses: PauseRow[];
}

/** The tenant policy's conditions for the days `scope` reaches; 404 for a scope that reaches none. */
function reachedDays(scope: Scope, m: Parameters<typeof scopeWhere>[0]): FindOptionsWhere<Attendance> {
  const where = scopeWhere(m, Attendance, scope);
  if (!where) throw ApiError.notFound('Attendance');
  return where;
}

const withPauses = (day: Attendance, raw: Record<string, unknown>): DayWithPauses => ({ day, pauses: jsonValue<PauseRow[]>(raw.pauses) ?? [] });

/**
 * The `attendances` and `attendance_breaks` tables (drivers' days, domain.md §6). Reads and writes run
 * in the open unit of work; row locks require one.
 */
@Injectable()
export class AttendanceRepository extends ModuleRepository {
  /**
   * Whether the driver has an open day (checked in or on a break): the `checkedIn` access rule, on every
   * such request. Layer 0's guard asks by the caller's driver id alone (its check takes no scope).
   */
  @GenerateSql({ params: () => [SystemReach.of('the checkedIn access rule'), SQL_SAMPLE.id] })
  async hasOpenDay(reach: SystemReach, driverId: string): Promise<boolean> {
    const rows = await this.sql(`SELECT 1 FROM attendances WHERE driver_id = $1 AND status IN ('checked_in', 'on_break') LIMIT 1`, [driverId]);
    return rows.length > 0;
  }

  /** A new day of the scope's company, unless the driver has one on that date already (then null: one day per driver and date). */
  @GenerateSql({ params: () => [Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId), { driverId: SQL_SAMPLE.id, workDate: SQL_SAMPLE.date, status: 'checked_in', checkedInAt: SQL_SAMPLE.at, checkInLat: 45.5, checkInLng: -73.6, truckId: null }] })
  async insertDayUnlessExists(scope: Scope, values: Omit<Partial<Attendance>, 'companyId'>): Promise<string | null> {
    const inserted = await this.m.createQueryBuilder().insert().into(Attendance).values({ ...values, companyId: scope.companyId }).orIgnore().returning(['id']).execute();
    return (inserted.raw as { id: string }[])[0]?.id ?? null;
  }

  /** The driver's day on a date, as `scope` reaches it (the driver's own, read after a refused insert). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.date] })
  dayOf(scope: Scope, driverId: string, workDate: string): Promise<Attendance | null> {
    const where = scopeWhere(this.m, Attendance, scope);
    return where ? this.m.findOne(Attendance, { where: { ...where, driverId, workDate } }) : Promise.resolve(null);
  }

  /** Changes a day `scope` reaches (locked by the caller's unit); 404 for a scope that reaches none. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'checked_in' }] })
  async update(scope: Scope, id: string, values: Partial<Attendance>): Promise<void> {
    await this.m.update(Attendance, { ...reachedDays(scope, this.m), id }, values);
  }

  /** A new pause (of a day of the scope's company); its id. */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, { attendanceId: SQL_SAMPLE.id, kind: 'break', startedAt: SQL_SAMPLE.at }] })
  async insertBreak(scope: Scope, values: Omit<Partial<AttendanceBreak>, 'companyId'>): Promise<string> {
    const inserted = await this.m.insert(AttendanceBreak, { ...values, companyId: scope.companyId });
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** The pauses of a day of the scope's company (the caller reached the day through its scope). */
  breaksOf(scope: Scope, attendanceId: string): Promise<AttendanceBreak[]> {
    return this.m.find(AttendanceBreak, { where: { attendanceId, companyId: scope.companyId } });
  }

  /** Ends the open pause of a day of the scope's company at `at` (never before its start); the closed pause, or null when none was open. */
  async closeOpenPause(scope: Scope, attendanceId: string, at: Date): Promise<{ id: string; startedAt: Date; endedAt: Date } | null> {
    const res = await this.m
      .createQueryBuilder()
      .update(AttendanceBreak)
      .set({ endedAt: () => 'GREATEST(started_at, :at)' })
      .setParameter('at', at)
      .where('attendance_id = :attendanceId AND company_id = :companyId AND ended_at IS NULL', { attendanceId, companyId: scope.companyId })
      .returning(['id', 'startedAt', 'endedAt'])
      .execute();
    const row = (res.raw as { id: string; started_at: Date | string; ended_at: Date | string }[])[0];
    return row ? { id: row.id, startedAt: new Date(row.started_at), endedAt: new Date(row.ended_at) } : null;
  }

  /** The latest open day `scope` reaches, locked; null when none. */
  lockOpenDay(scope: Scope): Promise<Attendance | null> {
    return scopedQuery(this.locked, Attendance, scope, 'a').andWhere('a.status IN (:...open)', { open: OPEN_ATTENDANCE }).orderBy('a.workDate', 'DESC').setLock('pessimistic_write').getOne();
  }

  /** The day `scope` reaches on a date, locked; null when none. */
  lockDayOn(scope: Scope, date: string): Promise<Attendance | null> {
    return scopedQuery(this.locked, Attendance, scope, 'a').andWhere('a.workDate = :today', { today: date }).setLock('pessimistic_write').getOne();
  }

  /** The open days `scope` reaches on other dates than `today`, locked, each with the end of its date (midnight in `timezone`). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, 'UTC'] })
  async lockOpenDaysBefore(scope: Scope, today: string, timezone: string): Promise<{ day: Attendance; dayEnd: Date }[]> {
    const { entities, raw } = await scopedQuery(this.locked, Attendance, scope, 'a')
      .addSelect(`((a.work_date + 1)::timestamp AT TIME ZONE :tz)`, 'day_end')
      .setParameter('tz', timezone)
      .andWhere('a.status IN (:...open) AND a.workDate <> :today', { open: OPEN_ATTENDANCE, today })
      .setLock('pessimistic_write')
      .getRawAndEntities();
    return entities.map((day, i) => ({ day, dayEnd: new Date(raw[i].day_end as string | Date) }));
  }

  /** A day `scope` reaches with its pauses; null otherwise. */
  async findWithPauses(scope: Scope, id: string): Promise<DayWithPauses | null> {
    const { entities, raw } = await this.withPausesQuery(scope).andWhere('a.id = :id', { id }).getRawAndEntities();
    return entities[0] ? withPauses(entities[0], raw[0]) : null;
  }

  /** The open day `scope` reaches (normally today's), else today's, with its pauses; null when none. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date] })
  async currentWithPauses(scope: Scope, today: string): Promise<DayWithPauses | null> {
    const { entities, raw } = await this.withPausesQuery(scope)
      .andWhere('(a.workDate = :today OR a.status IN (:...open))', { today, open: OPEN_ATTENDANCE })
      // The open day first, then the latest.
      .orderBy(`CASE WHEN a.status IN ('checked_in', 'on_break') THEN 0 ELSE 1 END`)
      .addOrderBy('a.workDate', 'DESC')
      .limit(1)
      .getRawAndEntities();
    return entities[0] ? withPauses(entities[0], raw[0]) : null;
  }

  /**
   * Days `scope` reaches with their pauses, newest first; filters driver, status, dates, and `q` (the
   * driver's name or e-mail, through the users module's SQL API `users_matching`).
   * The count only when the page is full.
   */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { from: SQL_SAMPLE.date, to: SQL_SAMPLE.date, driver_id: SQL_SAMPLE.id, status: 'checked_in', q: 'Al' }] })
  page(scope: Scope, q: AttendanceQuery | DriverAttendanceQuery): Promise<Page<DayWithPauses>> {
    const qb = this.withPausesQuery(scope);
    if (q.from) qb.andWhere('a.workDate >= :from', { from: q.from });
    if (q.to) qb.andWhere('a.workDate <= :to', { to: q.to });
    if ('driver_id' in q && q.driver_id) qb.andWhere('a.driverId = :driverId', { driverId: q.driver_id });
    if ('status' in q && q.status) qb.andWhere('a.status = :status', { status: q.status });
    if ('q' in q && q.q) qb.andWhere('EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = a.driver_id)', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { work_date: 'a.workDate' }, defaultSort: '-work_date', mapRaw: withPauses, count: () => countRows(qb) });
  }

  /** Days `scope` reaches over [from, to] (optionally one driver's) with their pauses (`ordered`: oldest first). One statement. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, SQL_SAMPLE.date, SQL_SAMPLE.id, true] })
  async between(scope: Scope, from: string, to: string, driverId: string | undefined, ordered: boolean): Promise<DayWithPauses[]> {
    const qb = this.withPausesQuery(scope).andWhere('a.workDate BETWEEN :from AND :to', { from, to });
    if (driverId) qb.andWhere('a.driverId = :driverId', { driverId });
    if (ordered) qb.orderBy('a.workDate', 'ASC');
    const { entities, raw } = await qb.getRawAndEntities();
    return entities.map((a, i) => withPauses(a, raw[i]));
  }

  /** The days `scope` reaches on `date` (optionally only these drivers'). */
  on(scope: Scope, date: string, driverIds?: readonly string[]): Promise<Attendance[]> {
    const qb = scopedQuery(this.m, Attendance, scope, 'a').andWhere('a.workDate = :date', { date });
    if (driverIds) qb.andWhere('a.driverId IN (:...driverIds)', { driverIds });
    return qb.getMany();
  }

  /** Whether the driver is on a break now in the scope's company. */
  isOnBreak(scope: Scope, driverId: string): Promise<boolean> {
    return this.m.existsBy(Attendance, { companyId: scope.companyId, driverId, status: 'on_break' });
  }

  private withPausesQuery(scope: Scope): SelectQueryBuilder<Attendance> {
    return scopedQuery(this.m, Attendance, scope, 'a').addSelect(PAUSES_SQL, 'pauses');
  }
}
