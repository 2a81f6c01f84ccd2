import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate } from '../../common/http/pagination';
import { recordEvents } from '../../common/outbox/outbox';
import { CompaniesService, CompanySettingsService, type CompanySettingsDto } from '../companies';
import { userNameOrEmailMatches, userNameSql } from '../users';
import { DriverLeaveQuery, EndLeaveDto, LeaveDto, LeaveQuery, LeaveStatsDto } from './leave.dto';
import { Leave } from './leave.entities';
import { LEAVE_TYPES, type LeaveType } from './leave.types';
import { addDays, yearOf } from './leave-dates';
import { runUnit } from '../../database/unit-of-work';

const transition = (message: string) => ApiError.conflict('INVALID_TRANSITION', message);

/**
 * Leaves (approved dates, domain.md §6): lists and reads, the company's cancellation (before the leave
 * starts) and revocation (of the days after today, while under way), and the driver's yearly stats
 * against the company's allowances. Cancellation and revocation lock the leave row.
 */
@Injectable()
export class LeavesService {
  constructor(
    private readonly ds: DataSource,
    private readonly companies: CompaniesService,
    private readonly settings: CompanySettingsService,
  ) {}

  // ------------------------------------------------------------ reads

  /** A leave `scope` reaches (a driver their own; the company any); else 404. */
  async get(scope: Scope, id: string): Promise<LeaveDto> {
    const today = await this.today(scope);
    const { entities, raw } = await scopedQuery(this.ds.manager, Leave, scope, 'l').addSelect(userNameSql('l.driver_id'), 'driver_name').andWhere('l.id = :id', { id }).getRawAndEntities();
    if (!entities[0]) throw ApiError.notFound('Leave');
    return LeaveDto.of(entities[0], (raw[0].driver_name as string | null) ?? '', today);
  }

  /** Leaves `scope` reaches, by start date (newest first by default); filters status, type, from/to (overlap), and for the company driver, request and `q`. */
  async list(scope: Scope, q: LeaveQuery | DriverLeaveQuery): Promise<Page<LeaveDto>> {
    const today = await this.today(scope);
    const qb = scopedQuery(this.ds.manager, Leave, scope, 'l').addSelect(userNameSql('l.driver_id'), 'driver_name');
    if (q.status) qb.andWhere('l.status = :status', { status: q.status });
    if (q.type) qb.andWhere('l.type = :type', { type: q.type });
    if (q.from) qb.andWhere('l.endDate >= :from', { from: q.from });
    if (q.to) qb.andWhere('l.startDate <= :to', { to: q.to });
    if ('driver_id' in q && q.driver_id) qb.andWhere('l.driverId = :driverId', { driverId: q.driver_id });
    if ('leave_request_id' in q && q.leave_request_id) qb.andWhere('l.leaveRequestId = :requestId', { requestId: q.leave_request_id });
    if ('q' in q && q.q) qb.andWhere(userNameOrEmailMatches('l.driver_id'), { q: likePattern(q.q) });
    return paginate(qb, q, {
      sortable: { start_date: 'l.startDate' },
      defaultSort: '-start_date',
      mapRaw: (l, raw) => LeaveDto.of(l, (raw.driver_name as string | null) ?? '', today),
      count: () => countRows(qb),
    });
  }

  /**
   * The driver's current year (company time zone) by type: approved leave days (a revoked leave's kept
   * days; cancelled ones none), requested days still pending or in review (live requests), and the
   * company's yearly allowance (company settings `<type>_leave_allowance_days`, read through
   * CompanySettingsService, defaults when never saved). Two statements: the settings, then the counts.
   */
  async stats(scope: Scope): Promise<LeaveStatsDto> {
    const settings = await this.settings.get(scope.companyId);
    const { year, first, last } = yearOf(todayIn(scope.timezone ?? settings.timezone));
    const rows: { type: LeaveType; taken: number; pending: number }[] = await this.ds.query(
      `SELECT t.type,
              (SELECT coalesce(sum(least(l.end_date, $4::date) - greatest(l.start_date, $3::date) + 1), 0)::int FROM leaves l
                WHERE l.driver_id = $2 AND l.company_id = $1 AND l.type = t.type AND l.status IN ('approved', 'revoked') AND l.start_date <= $4::date AND l.end_date >= $3::date) AS taken,
              (SELECT count(*)::int FROM leave_request_dates d JOIN leave_requests r ON r.id = d.leave_request_id
                WHERE d.driver_id = $2 AND r.company_id = $1 AND r.type = t.type AND r.status <> 'cancelled' AND d.status IN ('pending', 'in_review') AND d.date BETWEEN $3::date AND $4::date) AS pending
         FROM unnest($5::text[]) WITH ORDINALITY AS t(type, n)
        ORDER BY t.n`,
      [scope.companyId, scope.driverId!, first, last, [...LEAVE_TYPES]],
    );
    return {
      year,
      from: first,
      to: last,
      types: rows.map((r) => {
        const allowance = allowanceOf(settings, r.type);
        const taken = Number(r.taken);
        return { type: r.type, allowance_days: allowance, taken_days: taken, pending_days: Number(r.pending), remaining_days: allowance - taken };
      }),
    };
  }

  // ------------------------------------------------------------ the company's changes

  /** Cancels an approved leave that has not started (its start date after the company's today). */
  async cancel(scope: Scope, id: string, d: EndLeaveDto): Promise<LeaveDto> {
    const today = await this.today(scope);
    await runUnit(this.ds, async (m) => {
      const l = await findScoped(m, Leave, scope, id, { what: 'Leave', lock: true });
      if (l.status !== 'approved') throw transition(`This leave is ${l.status}.`);
      if (l.startDate <= today) throw transition(`This leave started on ${l.startDate}: revoke the rest of it instead.`);
      await m.update(Leave, { id: l.id }, { status: 'cancelled', cancelledAt: new Date(), note: d.note ?? null });
      await recordEvents(m, {
        type: 'leave.cancelled',
        ...about(scope, l.id),
        payload: { driver_id: l.driverId, leave_request_id: l.leaveRequestId, start_date: l.startDate, end_date: l.endDate, note: d.note ?? null },
      });
    });
    return this.get(scope, id);
  }

  /**
   * Revokes the rest of a leave under way: it now ends today (the company's date) and the days from
   * tomorrow to its end are recorded as given back. A leave not started is cancelled instead; one that
   * ends today has nothing left to revoke.
   */
  async revoke(scope: Scope, id: string, d: EndLeaveDto): Promise<LeaveDto> {
    const today = await this.today(scope);
    await runUnit(this.ds, async (m) => {
      const l = await findScoped(m, Leave, scope, id, { what: 'Leave', lock: true });
      if (l.status !== 'approved') throw transition(`This leave is ${l.status}.`);
      if (l.startDate > today) throw transition(`This leave starts on ${l.startDate}: cancel it instead.`);
      if (l.endDate <= today) throw transition(`This leave ends on ${l.endDate}: no day after today is left to revoke.`);
      const revokedFrom = addDays(today, 1);
      await m.update(Leave, { id: l.id }, { status: 'revoked', revokedAt: new Date(), revokedFrom, revokedTo: l.endDate, endDate: today, note: d.note ?? null });
      await recordEvents(m, {
        type: 'leave.revoked',
        ...about(scope, l.id),
        payload: { driver_id: l.driverId, leave_request_id: l.leaveRequestId, end_date: today, revoked_from: revokedFrom, revoked_to: l.endDate, note: d.note ?? null },
      });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ internals

  private async today(scope: Scope): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope.companyId)));
  }
}

/** The company's yearly allowance for `type`, from its settings. */
function allowanceOf(settings: CompanySettingsDto, type: LeaveType): number {
  const byType: Record<LeaveType, number> = {
    annual: settings.annual_leave_allowance_days,
    sick: settings.sick_leave_allowance_days,
    unpaid: settings.unpaid_leave_allowance_days,
    other: settings.other_leave_allowance_days,
  };
  return byType[type];
}

function about(scope: Scope, leaveId: string) {
  return { aggregateType: 'leave', aggregateId: leaveId, companyId: scope.companyId, actorId: scope.actorId };
}
