import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompaniesService } from '../companies';
import { DriversService } from '../drivers';
import { JobsService } from '../jobs';
import { MediaService } from '../media';
import { UsersService } from '../users';
import { CreateLeaveRequestDto, DriverLeaveRequestQuery, LeaveDatesDecisionDto, LeaveRequestDto, LeaveRequestQuery, UpdateLeaveRequestDto } from './leave.dto';
import type { Leave, LeaveRequest } from './leave.entities';
import { LeaveRepository } from './leave.repository';
import { LeaveRequestRepository, type RequestWithDates } from './leave-request.repository';
import { LEAVE_DECISIONS, MAX_LEAVE_DATES, SICK_BACKDATE_DAYS, type LeaveDateStatus, type LeaveDecision, type LeaveType } from './leave.types';
import { addDays, daysBetween, expandRange, requestStatusOf, runsOf, sortedDates } from './leave-dates';

/** Dates from which a decision may move a date. */
const DECIDABLE: Record<LeaveDecision, readonly LeaveDateStatus[]> = { approve: ['pending', 'in_review'], reject: ['pending', 'in_review'], review: ['pending'] };

/** The job statuses that keep a driver from leave on their date (the company reassigns them first). */
const BLOCKING_JOB_STATUSES = ['assigned', 'in_progress'] as const;

const transition = (message: string) => ApiError.conflict('INVALID_TRANSITION', message);

/**
 * Leave requests (domain.md §6): the driver asks for dates (a list or a range), edits or cancels while
 * nothing is approved; the company approves, rejects or puts dates in review. Every write locks the
 * request row (FOR UPDATE) first, so that two decisions on one request queue and the second sees the
 * first's outcome; the request's status is recomputed from its dates in the same transaction. Writes
 * that take dates (a new request, an edit adding dates, an approval) also lock the driver's row, so
 * that one driver's requests never take a date twice and an approval and an assignment of the same
 * driver queue (assignment share-locks the driver before its leave check).
 */
@Injectable()
export class LeaveRequestsService {
  constructor(
    private readonly requests: LeaveRequestRepository,
    private readonly leaves: LeaveRepository,
    private readonly uow: UnitOfWork,
    private readonly companies: CompaniesService,
    private readonly drivers: DriversService,
    private readonly jobs: JobsService,
    private readonly media: MediaService,
    private readonly users: UsersService,
  ) {}

  // ------------------------------------------------------------ the driver

  async create(scope: Scope, d: CreateLeaveRequestDto): Promise<LeaveRequestDto> {
    const driverId = scope.actorId!;
    const requested = requestedDates(d);
    if (!requested) throw ApiError.validation({ dates: ['give the dates, or from and to'] });
    assertNotPast(d.type, requested.dates, await this.today(scope), requested.field);
    const id = await this.uow.transaction(async () => {
      await this.lockDriver(scope, driverId);
      await this.assertFree(scope, driverId, requested.dates, requested.field, null);
      await this.assertAttachment(scope, d.attachment_media_id);
      const requestId = await this.requests.insert(scope, {
        driverId,
        type: d.type,
        status: 'pending',
        reason: d.reason,
        attachmentMediaId: d.attachment_media_id?.toLowerCase() ?? null,
        firstDate: requested.dates[0],
        lastDate: requested.dates.at(-1)!,
      });
      await this.requests.insertDates(
        scope,
        requested.dates.map((date) => ({ leaveRequestId: requestId, driverId, date, status: 'pending' as const })),
      );
      await this.requests.recordEvents({ type: 'leave_request.submitted', ...about(scope, requestId), payload: { driver_id: driverId, type: d.type, dates: requested.dates } });
      return requestId;
    });
    return this.get(scope, id);
  }

  /**
   * Edits a request while none of its dates is approved (and it is not cancelled): type, reason,
   * attachment, dates. New dates replace the set: kept dates keep their decision, added ones are pending.
   */
  async update(scope: Scope, id: string, d: UpdateLeaveRequestDto): Promise<LeaveRequestDto> {
    const requested = requestedDates(d);
    const today = await this.today(scope);
    await this.uow.transaction(async () => {
      const r = await this.requests.find(scope, id, true);
      if (r.status === 'cancelled') throw transition('This request is cancelled.');
      const current = await this.requests.dates(scope, r.id);
      if (current.some((x) => x.status === 'approved')) throw transition('Dates of this request are approved: it can no longer be changed (ask the company).');
      const type: LeaveType = d.type ?? r.type;
      const had = new Set(current.map((x) => x.date));
      const dates = requested?.dates ?? current.map((x) => x.date);
      const wanted = new Set(dates);
      const added = dates.filter((x) => !had.has(x));
      const removed = current.filter((x) => !wanted.has(x.date));
      // A new type applies its rule to every date (sick leave may reach back); otherwise only added dates are checked.
      assertNotPast(type, type !== r.type ? dates : added, today, requested?.field ?? 'type');
      if (added.length) {
        await this.lockDriver(Scope.company(r.companyId), r.driverId);
        await this.assertFree(scope, r.driverId, added, requested!.field, r.id);
      }
      if (d.attachment_media_id) await this.assertAttachment(Scope.company(r.companyId), d.attachment_media_id);
      if (removed.length) await this.requests.deleteDates(scope, removed.map((x) => x.id));
      if (added.length) await this.requests.insertDates(scope, added.map((date) => ({ leaveRequestId: r.id, driverId: r.driverId, date, status: 'pending' as const })));
      const statuses = [...current.filter((x) => wanted.has(x.date)).map((x) => x.status), ...added.map(() => 'pending' as const)];
      await this.requests.update(
        scope,
        r.id,
        {
          type,
          status: requestStatusOf(statuses),
          ...(d.reason !== undefined ? { reason: d.reason } : {}),
          ...(d.attachment_media_id !== undefined ? { attachmentMediaId: d.attachment_media_id?.toLowerCase() ?? null } : {}),
          firstDate: dates[0],
          lastDate: dates.at(-1)!,
        },
      );
      const fields = Object.entries(d)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k);
      await this.requests.recordEvents({ type: 'leave_request.updated', ...about(scope, r.id), payload: { driver_id: r.driverId, fields, dates } });
    });
    return this.get(scope, id);
  }

  /** Cancels a request while none of its dates is approved. */
  async cancel(scope: Scope, id: string): Promise<LeaveRequestDto> {
    await this.uow.transaction(async () => {
      const r = await this.requests.find(scope, id, true);
      if (r.status === 'cancelled') throw transition('This request is already cancelled.');
      if (r.status === 'approved' || r.status === 'partially_approved') throw transition('Dates of this request are approved: it can no longer be cancelled (ask the company to cancel the leave).');
      await this.requests.update(scope, r.id, { status: 'cancelled', cancelledAt: new Date() });
      const dates = await this.requests.dates(scope, r.id);
      await this.requests.recordEvents({ type: 'leave_request.cancelled', ...about(scope, r.id), payload: { driver_id: r.driverId, dates: dates.map((x) => x.date) } });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ the company

  /**
   * Approves, rejects or puts in review some dates of a request. Approve and reject take pending or
   * in-review dates, review only pending ones (else 409 naming them). Approving a date on which the
   * driver has assigned or in-progress jobs is 409 `DRIVER_HAS_JOBS` listing them. Approved dates
   * become leaves (`leavesFromApproved`).
   */
  async decide(scope: Scope, decision: LeaveDecision, id: string, d: LeaveDatesDecisionDto): Promise<LeaveRequestDto> {
    const dates = sortedDates(d.dates);
    const to = LEAVE_DECISIONS[decision];
    await this.uow.transaction(async () => {
      const r = await this.requests.find(scope, id, true);
      if (r.status === 'cancelled') throw transition('The driver cancelled this request.');
      const rows = await this.requests.dates(scope, r.id);
      const byDate = new Map(rows.map((x) => [x.date, x]));
      const foreign = dates.filter((x) => !byDate.has(x));
      if (foreign.length) throw ApiError.validation({ dates: [`not dates of this request: ${foreign.join(', ')}`] });
      const stuck = dates.filter((x) => !DECIDABLE[decision].includes(byDate.get(x)!.status));
      if (stuck.length) {
        const what = stuck.map((x) => `${x} (${byDate.get(x)!.status})`).join(', ');
        throw transition(decision === 'review' ? `Only pending dates can be put in review: ${what}.` : `These dates are already decided: ${what}.`);
      }
      if (decision === 'approve') {
        await this.lockDriver(Scope.company(r.companyId), r.driverId);
        await this.assertNoJobs(r, dates);
      }
      await this.requests.updateDates(scope, r.id, dates, { status: to, note: d.note ?? null, decidedAt: new Date(), decidedBy: scope.actorId });
      const leaveIds = decision === 'approve' ? await this.leavesFromApproved(scope, r, dates) : [];
      const status = requestStatusOf(rows.map((x) => (dates.includes(x.date) ? to : x.status)));
      await this.requests.update(scope, r.id, { status });
      await this.requests.recordEvents({ type: 'leave_request.dates_decided', ...about(scope, r.id), payload: { driver_id: r.driverId, decision: to, dates, note: d.note ?? null, status, leave_ids: leaveIds } });
    });
    return this.get(scope, id);
  }

  // ------------------------------------------------------------ reads

  /** A request `scope` reaches (a driver their own; the company any), with its dates; else 404. */
  async get(scope: Scope, id: string): Promise<LeaveRequestDto> {
    const found = await this.requests.findWithDates(scope, id);
    if (!found) throw ApiError.notFound('Leave request');
    return (await this.views(scope, [found]))[0];
  }

  /** Requests `scope` reaches, newest first (or by first date); filters status, type, from/to on the span, and for the company driver_id and `q`. */
  async list(scope: Scope, q: LeaveRequestQuery | DriverLeaveRequestQuery): Promise<Page<LeaveRequestDto>> {
    const page = await this.requests.page(scope, q);
    return new Page(await this.views(scope, page.items), page.meta);
  }

  // ------------------------------------------------------------ internals

  private async today(scope: Scope): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope)));
  }

  /** The requests as answers, with their drivers' names (users' typed read: one statement for all of them). */
  private async views(scope: Scope, rows: readonly RequestWithDates[]): Promise<LeaveRequestDto[]> {
    const names = await this.users.names(scope, [...new Set(rows.map((x) => x.request.driverId))]);
    return rows.map((x) => LeaveRequestDto.of(x.request, names.get(x.request.driverId) ?? '', x.dates));
  }

  /** The driver's row, locked (FOR UPDATE) until the commit: one driver's date-taking writes queue, and assignments of the driver wait. */
  private async lockDriver(scope: Scope, driverId: string): Promise<void> {
    await this.drivers.lock(scope, driverId);
  }

  /**
   * 422 `DATES_TAKEN` naming the dates on which the driver already has an approved leave, or a pending
   * or in-review date of another live request (`exceptRequestId`: the request being edited). One statement.
   */
  private async assertFree(scope: Scope, driverId: string, dates: readonly string[], field: string, exceptRequestId: string | null): Promise<void> {
    const rows = await this.requests.takenDates(scope, driverId, dates, exceptRequestId);
    if (!rows.length) return;
    const messages = rows.map((x) => `${x.date}: ${x.on_leave ? 'you are on approved leave' : 'already asked for in another request'}`);
    throw ApiError.unprocessable('DATES_TAKEN', `You already have leave or a pending request on ${rows.map((x) => x.date).join(', ')}.`, { [field]: messages });
  }

  /** An attachment must be an upload not attached to another company's request (422 `not found` otherwise). */
  private async assertAttachment(scope: Scope, mediaId: string | null | undefined): Promise<void> {
    if (!mediaId) return;
    const id = mediaId.toLowerCase();
    if ((await this.requests.attachedOutside(scope, id)) || !(await this.media.exists(id))) throw ApiError.validation({ attachment_media_id: ['not found'] });
  }

  /** 409 `DRIVER_HAS_JOBS` listing the driver's assigned or in-progress jobs on these dates. */
  private async assertNoJobs(r: LeaveRequest, dates: readonly string[]): Promise<void> {
    const wanted = new Set(dates);
    const jobs = (await this.jobs.between(Scope.company(r.companyId), dates[0], dates.at(-1)!, { statuses: BLOCKING_JOB_STATUSES, driverIds: [r.driverId] })).filter((j) => wanted.has(j.scheduledDate));
    if (!jobs.length) return;
    const days = sortedDates(jobs.map((j) => j.scheduledDate));
    throw new ApiError(
      409,
      'DRIVER_HAS_JOBS',
      `The driver has ${jobs.length} job(s) on ${days.join(', ')}: reassign them first (${jobs.map((j) => j.id).join(', ')}).`,
      { dates: jobs.map((j) => `${j.scheduledDate}: job ${j.id} (${j.type}, ${j.status})`) },
    );
  }

  /**
   * Makes leaves of newly approved dates: each run of consecutive dates joins the request's live
   * (approved) leave that ends the day before or starts the day after it (both: they become one, the
   * later leave's dates moving to the earlier), else becomes a new leave. Those leaves are locked first,
   * so that a concurrent cancellation is seen. Returns the ids of the leaves the dates are in. `scope`:
   * the company's, that locked the request.
   */
  private async leavesFromApproved(scope: Scope, r: LeaveRequest, dates: readonly string[]): Promise<string[]> {
    const live = await this.leaves.liveOfRequestLocked(scope, r.id);
    const ids: string[] = [];
    for (const [start, end] of runsOf(dates)) {
      const prev = live.find((l) => addDays(l.endDate, 1) === start);
      const next = live.find((l) => l.startDate === addDays(end, 1));
      let leave: Leave;
      if (prev && next) {
        await this.leaves.update(scope, prev.id, { endDate: next.endDate });
        await this.requests.moveDatesToLeave(scope, next.id, prev.id);
        await this.leaves.delete(scope, next.id);
        prev.endDate = next.endDate;
        live.splice(live.indexOf(next), 1);
        leave = prev;
      } else if (prev) {
        await this.leaves.update(scope, prev.id, { endDate: end });
        prev.endDate = end;
        leave = prev;
      } else if (next) {
        await this.leaves.update(scope, next.id, { startDate: start });
        next.startDate = start;
        leave = next;
      } else {
        const id = await this.leaves.insert(scope, { driverId: r.driverId, leaveRequestId: r.id, type: r.type, status: 'approved', startDate: start, endDate: end });
        leave = { id, startDate: start, endDate: end } as Leave;
        live.push(leave);
      }
      await this.requests.updateDates(scope, r.id, expandRange(start, end), { leaveId: leave.id });
      if (!ids.includes(leave.id)) ids.push(leave.id);
    }
    return ids.filter((id) => live.some((l) => l.id === id));
  }
}

function about(scope: Scope, requestId: string) {
  return { aggregateType: 'leave_request', aggregateId: requestId, companyId: scope.companyId, actorId: scope.actorId };
}

/**
 * The dates a body names: `dates` (a list) or `from`..`to` (a range), sorted; null when it names none.
 * `field` is where errors about them go. 422 on both forms, half a range, or more than 60 dates.
 */
export function requestedDates(d: { dates?: string[]; from?: string; to?: string }): { dates: string[]; field: 'dates' | 'from' } | null {
  const range = d.from !== undefined || d.to !== undefined;
  if (d.dates !== undefined && range) throw ApiError.validation({ dates: ['give dates, or from and to, not both'] });
  if (d.dates !== undefined) return { dates: sortedDates(d.dates), field: 'dates' };
  if (!range) return null;
  if (d.from === undefined) throw ApiError.validation({ from: ['is required with to'] });
  if (d.to === undefined) throw ApiError.validation({ to: ['is required with from'] });
  if (d.to < d.from) throw ApiError.validation({ to: ['must be on or after from'] });
  if (daysBetween(d.from, d.to) >= MAX_LEAVE_DATES) throw ApiError.validation({ to: [`must be at most ${MAX_LEAVE_DATES - 1} days after from (${MAX_LEAVE_DATES} dates)`] });
  return { dates: expandRange(d.from, d.to), field: 'from' };
}

/** None of the dates in the past (the company's today); sick leave may reach back SICK_BACKDATE_DAYS days. */
function assertNotPast(type: LeaveType, dates: readonly string[], today: string, field: string): void {
  const earliest = type === 'sick' ? addDays(today, -SICK_BACKDATE_DAYS) : today;
  const past = dates.filter((x) => x < earliest);
  if (!past.length) return;
  const rule = type === 'sick' ? `sick leave reaches back ${SICK_BACKDATE_DAYS} days at most (to ${earliest})` : `must not be in the past (today is ${today})`;
  throw ApiError.validation({ [field]: [`${rule}: ${past.join(', ')}`] });
}
