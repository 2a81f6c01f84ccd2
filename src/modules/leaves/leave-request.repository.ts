import { Injectable } from '@nestjs/common';
import { type EntityManager, type EntityTarget, type FindOptionsWhere, In, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery, scopeWhere } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import type { Page } from '../../common/http/envelope';
import { countRows, likePattern, paginate } from '../../common/http/pagination';
import { jsonValue } from '../../database/json-value';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { DateRow, DriverLeaveRequestQuery, LeaveRequestQuery } from './leave.dto';
import { LeaveRequest, LeaveRequestDate } from './leave.entities';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** The request's dates, oldest first, as one JSON array (the read stays one statement). Alias `r`. */
const DATES_SQL = `(SELECT coalesce(json_agg(json_build_object('date', to_char(d.date, 'YYYY-MM-DD'), 'status', d.status, 'note', d.note, 'decided_at', d.decided_at, 'leave_id', d.leave_id) ORDER BY d.date), '[]'::json)
   FROM leave_request_dates d WHERE d.leave_request_id = r.id)`;

/** A request with its dates. */
export interface RequestWithDates {
  request: LeaveRequest;
  dates: DateRow[];
}

const withDates = (request: LeaveRequest, raw: Record<string, unknown>): RequestWithDates => ({ request, dates: jsonValue<DateRow[]>(raw.dates) ?? [] });

/**
 * The `leave_requests` and `leave_request_dates` tables (domain.md §6). Reads and writes run in the open
 * unit of work; row locks require one.
 */
@Injectable()
export class LeaveRequestRepository extends ModuleRepository {
  /** A request `scope` reaches (`lock`: FOR UPDATE); 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  find(scope: Scope, id: string, lock = false): Promise<LeaveRequest> {
    return findScoped(lock ? this.locked : this.m, LeaveRequest, scope, id, { what: 'Leave request', ...(lock ? { lock: true } : {}) });
  }

  /** A request `scope` reaches with its dates (one statement); null otherwise. */
  async findWithDates(scope: Scope, id: string): Promise<RequestWithDates | null> {
    const { entities, raw } = await this.withDatesQuery(scope).andWhere('r.id = :id', { id }).getRawAndEntities();
    return entities[0] ? withDates(entities[0], raw[0]) : null;
  }

  /**
   * Requests `scope` reaches with their dates, newest first (or by first date); filters status, type,
   * from/to on the span, and for the company driver_id and `q` (the driver's name or e-mail, through
   * the users module's SQL API `users_matching`). The count only when the page is full.
   */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { status: 'pending', type: 'annual', from: SQL_SAMPLE.date, to: SQL_SAMPLE.date, driver_id: SQL_SAMPLE.id, q: 'Al' }] })
  page(scope: Scope, q: LeaveRequestQuery | DriverLeaveRequestQuery): Promise<Page<RequestWithDates>> {
    const qb = this.withDatesQuery(scope);
    if (q.status) qb.andWhere('r.status = :status', { status: q.status });
    if (q.type) qb.andWhere('r.type = :type', { type: q.type });
    if (q.from) qb.andWhere('r.lastDate >= :from', { from: q.from });
    if (q.to) qb.andWhere('r.firstDate <= :to', { to: q.to });
    if ('driver_id' in q && q.driver_id) qb.andWhere('r.driverId = :driverId', { driverId: q.driver_id });
    if ('q' in q && q.q) qb.andWhere('EXISTS (SELECT 1 FROM users_matching(:q) m WHERE m.id = r.driver_id)', { q: likePattern(q.q) });
    return paginate(qb, q, {
      sortable: { created_at: 'r.createdAt', first_date: 'r.firstDate' },
      defaultSort: '-created_at',
      mapRaw: withDates,
      count: () => countRows(qb),
    });
  }

  /** A new request of the scope's company; its id. */
  @GenerateSql({ params: [SAMPLE_SCOPE, { driverId: SQL_SAMPLE.id, type: 'annual', status: 'pending', reason: 'r', attachmentMediaId: null, firstDate: SQL_SAMPLE.date, lastDate: SQL_SAMPLE.date }] })
  async insert(scope: Scope, values: Omit<Partial<LeaveRequest>, 'companyId'>): Promise<string> {
    const inserted = await this.m.insert(LeaveRequest, { ...values, companyId: scope.companyId });
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** Changes a request `scope` reaches (locked by `find` in the caller's unit). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { status: 'cancelled' }] })
  async update(scope: Scope, id: string, values: Partial<LeaveRequest>): Promise<void> {
    await this.m.update(LeaveRequest, { ...reached(this.m, LeaveRequest, scope, 'Leave request'), id }, values);
  }

  /** The dates `scope` reaches of a request, oldest first. */
  dates(scope: Scope, requestId: string): Promise<LeaveRequestDate[]> {
    return this.m.find(LeaveRequestDate, { where: { ...reached(this.m, LeaveRequestDate, scope, 'Leave request'), leaveRequestId: requestId }, order: { date: 'ASC' } });
  }

  /** New dates of a request of the scope's company. */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ leaveRequestId: SQL_SAMPLE.id, driverId: SQL_SAMPLE.otherId, date: SQL_SAMPLE.date, status: 'pending' }]] })
  async insertDates(scope: Scope, rows: Omit<Partial<LeaveRequestDate>, 'companyId'>[]): Promise<void> {
    await this.m.insert(LeaveRequestDate, rows.map((r) => ({ ...r, companyId: scope.companyId })));
  }

  /** Deletes dates `scope` reaches. */
  async deleteDates(scope: Scope, ids: readonly string[]): Promise<void> {
    await this.m.delete(LeaveRequestDate, { ...reached(this.m, LeaveRequestDate, scope, 'Leave request'), id: In([...ids]) });
  }

  /** Sets columns of some dates `scope` reaches of a request (one UPDATE). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, [SQL_SAMPLE.date], { status: 'approved' }] })
  async updateDates(scope: Scope, requestId: string, dates: readonly string[], values: Partial<LeaveRequestDate>): Promise<void> {
    await this.m.update(LeaveRequestDate, { ...reached(this.m, LeaveRequestDate, scope, 'Leave request'), leaveRequestId: requestId, date: In([...dates]) }, values);
  }

  /** Dates (that `scope` reaches) that were in one leave now belong to another (two leaves joined). */
  async moveDatesToLeave(scope: Scope, fromLeaveId: string, toLeaveId: string): Promise<void> {
    await this.m.update(LeaveRequestDate, { ...reached(this.m, LeaveRequestDate, scope, 'Leave request'), leaveId: fromLeaveId }, { leaveId: toLeaveId });
  }

  /**
   * The dates among `dates` on which the driver already has an approved leave (`on_leave`), or a
   * pending or in-review date of another live request (`exceptRequestId`: the request being edited),
   * in the scope's company. One statement.
   */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, [SQL_SAMPLE.date], null] })
  takenDates(scope: Scope, driverId: string, dates: readonly string[], exceptRequestId: string | null): Promise<{ date: string; on_leave: boolean }[]> {
    return this.sql(
      `SELECT to_char(x.date, 'YYYY-MM-DD') AS date,
              EXISTS (SELECT 1 FROM leaves l WHERE l.driver_id = $1 AND l.company_id = $4 AND l.status IN ('approved', 'revoked') AND l.start_date <= x.date AND l.end_date >= x.date) AS on_leave
         FROM unnest($2::date[]) AS x(date)
        WHERE EXISTS (SELECT 1 FROM leaves l WHERE l.driver_id = $1 AND l.company_id = $4 AND l.status IN ('approved', 'revoked') AND l.start_date <= x.date AND l.end_date >= x.date)
           OR EXISTS (SELECT 1 FROM leave_request_dates d JOIN leave_requests r ON r.id = d.leave_request_id
                       WHERE d.driver_id = $1 AND d.company_id = $4 AND d.date = x.date AND d.status IN ('pending', 'in_review') AND r.status <> 'cancelled' AND r.id IS DISTINCT FROM $3::uuid)
        ORDER BY x.date`,
      [driverId, dates, exceptRequestId, scope.companyId],
    );
  }

  /** Whether a request of another company than the scope's has this attachment. */
  async attachedOutside(scope: Scope, mediaId: string): Promise<boolean> {
    const [foreign] = await this.sql<{ one: number }>(`SELECT 1 AS one FROM leave_requests WHERE attachment_media_id = $1 AND company_id <> $2 LIMIT 1`, [mediaId, scope.companyId]);
    return !!foreign;
  }

  private withDatesQuery(scope: Scope): SelectQueryBuilder<LeaveRequest> {
    return scopedQuery(this.m, LeaveRequest, scope, 'r').addSelect(DATES_SQL, 'dates');
  }
}

/** The tenant policy's conditions for the rows of `entity` that `scope` reaches; 404 (`what`) for a scope that reaches none. */
function reached<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, scope: Scope, what: string): FindOptionsWhere<E> {
  const where = scopeWhere(m, entity, scope);
  if (!where) throw ApiError.notFound(what);
  return where;
}
