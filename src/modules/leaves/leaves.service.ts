import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompaniesService, CompanySettingsService, type CompanySettingsDto } from '../companies';
import { UsersService } from '../users';
import { DriverLeaveQuery, EndLeaveDto, LeaveDto, LeaveQuery, LeaveStatsDto } from './leave.dto';
import type { Leave } from './leave.entities';
import { LeaveRepository } from './leave.repository';
import { LEAVE_TYPES, type LeaveType } from './leave.types';
import { addDays, yearOf } from './leave-dates';

const transition = (message: string) => ApiError.conflict('INVALID_TRANSITION', message);

/**
 * Leaves (approved dates, domain.md §6): lists and reads, the company's cancellation (before the leave
 * starts) and revocation (of the days after today, while under way), and the driver's yearly stats
 * against the company's allowances. Cancellation and revocation lock the leave row.
 */
@Injectable()
export class LeavesService {
  constructor(
    private readonly leaves: LeaveRepository,
    private readonly uow: UnitOfWork,
    private readonly companies: CompaniesService,
    private readonly settings: CompanySettingsService,
    private readonly users: UsersService,
  ) {}

  // ------------------------------------------------------------ reads

  /** A leave `scope` reaches (a driver their own; the company any); else 404. */
  async get(scope: Scope, id: string): Promise<LeaveDto> {
    const today = await this.today(scope);
    const leave = await this.leaves.findReached(scope, id);
    if (!leave) throw ApiError.notFound('Leave');
    return (await this.views(scope, [leave], today))[0];
  }

  /** Leaves `scope` reaches, by start date (newest first by default); filters status, type, from/to (overlap), and for the company driver, request and `q`. */
  async list(scope: Scope, q: LeaveQuery | DriverLeaveQuery): Promise<Page<LeaveDto>> {
    const today = await this.today(scope);
    const page = await this.leaves.page(scope, q);
    return new Page(await this.views(scope, page.items, today), page.meta);
  }

  /**
   * The driver's current year (company time zone) by type: approved leave days (a revoked leave's kept
   * days; cancelled ones none), requested days still pending or in review (live requests), and the
   * company's yearly allowance (company settings `<type>_leave_allowance_days`, read through
   * CompanySettingsService, defaults when never saved). Two statements: the settings, then the counts.
   */
  async stats(scope: Scope): Promise<LeaveStatsDto> {
    const settings = await this.settings.get(scope);
    const { year, first, last } = yearOf(todayIn(scope.timezone ?? settings.timezone));
    const rows = await this.leaves.yearCounts(scope, scope.driverId!, first, last, LEAVE_TYPES);
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
    await this.uow.transaction(async () => {
      const l = await this.leaves.find(scope, id, true);
      if (l.status !== 'approved') throw transition(`This leave is ${l.status}.`);
      if (l.startDate <= today) throw transition(`This leave started on ${l.startDate}: revoke the rest of it instead.`);
      await this.leaves.update(scope, l.id, { status: 'cancelled', cancelledAt: new Date(), note: d.note ?? null });
      await this.leaves.recordEvents({
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
    await this.uow.transaction(async () => {
      const l = await this.leaves.find(scope, id, true);
      if (l.status !== 'approved') throw transition(`This leave is ${l.status}.`);
      if (l.startDate > today) throw transition(`This leave starts on ${l.startDate}: cancel it instead.`);
      if (l.endDate <= today) throw transition(`This leave ends on ${l.endDate}: no day after today is left to revoke.`);
      const revokedFrom = addDays(today, 1);
      await this.leaves.update(scope, l.id, { status: 'revoked', revokedAt: new Date(), revokedFrom, revokedTo: l.endDate, endDate: today, note: d.note ?? null });
      await this.leaves.recordEvents({
        type: 'leave.revoked',
        ...about(scope, l.id),
        payload: { driver_id: l.driverId, leave_request_id: l.leaveRequestId, end_date: today, revoked_from: revokedFrom, revoked_to: l.endDate, note: d.note ?? null },
      });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ internals

  private async today(scope: Scope): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope)));
  }

  /** The leaves as answers, with their drivers' names (users' typed read: one statement for all of them). */
  private async views(scope: Scope, leaves: readonly Leave[], today: string): Promise<LeaveDto[]> {
    const names = await this.users.names(scope, [...new Set(leaves.map((l) => l.driverId))]);
    return leaves.map((l) => LeaveDto.of(l, names.get(l.driverId) ?? '', today));
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
