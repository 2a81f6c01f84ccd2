import { Injectable } from '@nestjs/common';
import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import type { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate } from '../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { DriverLeaveQuery, LeaveQuery } from './leave.dto';
import { Leave } from './leave.entities';
import type { LeaveType } from './leave.types';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** A leave in force that day: approved, or the days a revoked leave kept (its end moved to the revocation day). */
const ON_DATE = `l.status IN ('approved', 'revoked') AND l.startDate <= :date AND l.endDate >= :date`;

/**
 * The `leaves` table (approved dates; domain.md §6): reads, the dispatch calendar, the yearly stats,
 * and the company's cancellation and revocation. Reads and writes run in the open unit of work.
 */
@Injectable()
export class LeaveRepository extends ModuleRepository {
  /** A leave `scope` reaches (`lock`: FOR UPDATE); 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  find(scope: Scope, id: string, lock = false): Promise<Leave> {
    return findScoped(lock ? this.locked : this.m, Leave, scope, id, { what: 'Leave', ...(lock ? { lock: true } : {}) });
  }

  /** A leave `scope` reaches; null otherwise. */
  findReached(scope: Scope, id: string): Promise<Leave | null> {
    return scopedQuery(this.m, Leave, scope, 'l').andWhere('l.id = :id', { id }).getOne();
  }

  /**
   * Leaves `scope` reaches, by start date; filters status, type, from/to (overlap), and for the company
   * driver, request and `q` (the driver's name or e-mail, through the users module's SQL API
   * `users_matching`). The count only when the page is full.
   */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { status: 'approved', type: 'annual', from: SQL_SAMPLE.date, to: SQL_SAMPLE.date, driver_id: SQL_SAMPLE.id, leave_request_id: SQL_SAMPLE.otherId, q: 'Al' }] })
  page(scope: Scope, q: LeaveQuery | DriverLeaveQuery): Promise<Page<Leave>> {
    const qb = scopedQuery(this.m, Leave, scope, 'l');
    if (q.status) qb.andWhere('l.status = :status', { status: q.status });
    if (q.type) qb.andWhere('l.type = :type', { type: q.type });
    if (q.from) qb.andWhere('l.endDate >= :from', { from: q.from });
    if (q.to) qb.andWhere('l.startDate <= :to', { to: q.to });
    if ('driver_id' in q && q.driver_id) qb.andWhere('l.driverId = :driverId', { driverId: q.driver_id });
    if ('leave_request_id' in q && q.leave_request_id) qb.andWhere('l.leaveRequestId = :requestId', { requestId: q.leave_request_id });
    if ('q' in q && q.q) qb.andWhere('EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = l.driver_id)', { q: likePattern(q.q) });
    return paginate(qb, q, { sortable: { start_date: 'l.startDate' }, defaultSort: '-start_date', mapRaw: (l) => l, count: () => countRows(qb) });
  }

  /** The driver's approved leave days and pending requested days per type within [first, last] (one statement; `types` in order). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.date, SQL_SAMPLE.date, ['annual', 'sick']] })
  yearCounts(scope: Scope, driverId: string, first: string, last: string, types: readonly LeaveType[]): Promise<{ type: LeaveType; taken: number; pending: number }[]> {
    return this.sql(
      `SELECT t.type,
              (SELECT coalesce(sum(least(l.end_date, $4::date) - greatest(l.start_date, $3::date) + 1), 0)::int FROM leaves l
                WHERE l.driver_id = $2 AND l.company_id = $1 AND l.type = t.type AND l.status IN ('approved', 'revoked') AND l.start_date <= $4::date AND l.end_date >= $3::date) AS taken,
              (SELECT count(*)::int FROM leave_request_dates d JOIN leave_requests r ON r.id = d.leave_request_id
                WHERE d.driver_id = $2 AND r.company_id = $1 AND r.type = t.type AND r.status <> 'cancelled' AND d.status IN ('pending', 'in_review') AND d.date BETWEEN $3::date AND $4::date) AS pending
         FROM unnest($5::text[]) WITH ORDINALITY AS t(type, n)
        ORDER BY t.n`,
      [scope.companyId, driverId, first, last, [...types]],
    );
  }

  /** Changes a leave `scope` reaches (locked by the caller's unit). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { note: 'n' }] })
  async update(scope: Scope, id: string, values: Partial<Leave>): Promise<void> {
    await this.m.update(Leave, { ...reached(this.m, Leave, scope), id }, values);
  }

  /** A new leave of the scope's company; its id. */
  @GenerateSql({ params: [SAMPLE_SCOPE, { driverId: SQL_SAMPLE.id, leaveRequestId: SQL_SAMPLE.otherId, type: 'annual', status: 'approved', startDate: SQL_SAMPLE.date, endDate: SQL_SAMPLE.date }] })
  async insert(scope: Scope, values: Omit<Partial<Leave>, 'companyId'>): Promise<string> {
    const inserted = await this.m.insert(Leave, { ...values, companyId: scope.companyId });
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** Deletes a leave `scope` reaches (locked by the caller's unit). */
  async delete(scope: Scope, id: string): Promise<void> {
    await this.m.delete(Leave, { ...reached(this.m, Leave, scope), id });
  }

  /** The request's live (approved) leaves that `scope` reaches, locked in id order. */
  liveOfRequestLocked(scope: Scope, requestId: string): Promise<Leave[]> {
    return this.locked.find(Leave, { where: { ...reached(this.locked, Leave, scope), leaveRequestId: requestId, status: 'approved' }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
  }

  /** Whether the driver is on leave that day in the scope's company (idx_leaves_driver_start). */
  onLeave(scope: Scope, driverId: string, date: string): Promise<boolean> {
    return this.m
      .createQueryBuilder(Leave, 'l')
      .where('l.driverId = :driverId AND l.companyId = :companyId', { driverId, companyId: scope.companyId })
      .andWhere(ON_DATE, { date })
      .getExists();
  }

  /** Which of the drivers are on leave that day in the scope's company (one statement). */
  async onLeaveAmong(scope: Scope, driverIds: readonly string[], date: string): Promise<Set<string>> {
    const rows: { driver_id: string }[] = await this.m
      .createQueryBuilder(Leave, 'l')
      .select('DISTINCT l.driver_id', 'driver_id')
      .where('l.driverId IN (:...driverIds) AND l.companyId = :companyId', { driverIds: [...driverIds], companyId: scope.companyId })
      .andWhere(ON_DATE, { date })
      .getRawMany();
    return new Set(rows.map((r) => r.driver_id));
  }
}

/** The tenant policy's conditions for the rows of `entity` that `scope` reaches; 404 (`what`) for a scope that reaches none. */
function reached<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, scope: Scope, what = 'Leave'): FindOptionsWhere<E> {
  const where = scopeWhere(m, entity, scope);
  if (!where) throw ApiError.notFound(what);
  return where;
}
