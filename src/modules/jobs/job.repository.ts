import { Injectable } from '@nestjs/common';
import { In, type FindOptionsWhere } from 'typeorm';
import { Scope, SystemReach } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import type { Page } from '../../common/http/envelope';
import { countRows, paginate, type PageQuery } from '../../common/http/pagination';
import { GenerateSql, SQL_SAMPLE } from '../../database/generate-sql';
import { ModuleRepository } from '../../database/repository';
import type { ArrivalTimes } from './arrivals';
import { JobArrival } from './job-arrival.entity';
import { Job, JobStatusChange, UNFINISHED_JOB_STATUSES, type JobStatus, type JobType } from './job.entity';

const SAMPLE_SCOPE = Scope.company(SQL_SAMPLE.companyId, SQL_SAMPLE.actorId);

/** Company-side list filters (dispatch): scheduled from/to (inclusive), driver, status, type, order. */
export interface JobFilters {
  from?: string;
  to?: string;
  driverId?: string;
  status?: JobStatus;
  type?: JobType;
  orderId?: string;
}

/** A job column that points at another module's record (the in-use checks). */
export type JobReference = 'lotId' | 'destinationAddressId' | 'truckId' | 'assetId';

const LOCK = { mode: 'pessimistic_write' as const };

/** A job row with its driver's display name. */
export interface NamedJob {
  job: Job;
  driverName: string | null;
  /** Its arrival times, when the read asked for them (`between` with `arrivals`). */
  arrival?: ArrivalTimes | null;
}

/**
 * The driver's name in the job's own statement, through the users module's SQL API (`users_name`,
 * src/modules/users/sql-api.ts): a typed read of the names (`UsersService#names`) would add a statement
 * to the dispatch routes, whose budgets (test/dispatch/company-statements.e2e.spec.ts) must not go up.
 */
const DRIVER_NAME = 'users_name(j.driver_id)';
const named = (job: Job, raw: Record<string, unknown>): NamedJob => ({ job, driverName: (raw.driver_name as string | null) ?? null });

/**
 * The jobs module's SQL (docs/data-layer.md): the `jobs` and `job_status_changes` tables, and the
 * events their writes record. Reads and writes run in the open unit of work (`this.m`); row locks
 * require one (`this.locked`). A method named for an order or a job reaches the scope's company's rows
 * (`company_id`; the caller reached the order or the job with its scope before); the lists apply the
 * tenant policy (`scopedQuery`: a driver reaches their own jobs).
 */
@Injectable()
export class JobRepository extends ModuleRepository {
  /** Whether an unfinished job points at the record in `column` (the in-use checks: the registry names the record by its id alone). */
  @GenerateSql({ params: () => [SystemReach.of('sample'), 'lotId', SQL_SAMPLE.id] })
  unfinishedUses(reach: SystemReach, column: JobReference, id: string): Promise<boolean> {
    return this.m.existsBy(Job, { [column]: id, status: In(UNFINISHED_JOB_STATUSES) } as FindOptionsWhere<Job>);
  }

  /** New rows of the scope's company in one INSERT (their ids and defaults filled in). */
  @GenerateSql({ params: () => [SAMPLE_SCOPE, [{ orderId: SQL_SAMPLE.id, type: 'delivery', status: 'unassigned', scheduledDate: SQL_SAMPLE.date, lotId: null }]] })
  async insert(scope: Scope, rows: Omit<Partial<Job>, 'companyId'>[]): Promise<Job[]> {
    const jobs = rows.map((r) => this.m.create(Job, { ...r, companyId: scope.companyId }));
    await this.m.insert(Job, jobs);
    return jobs;
  }

  /** Sets columns of the scope's company's jobs `ids` (one UPDATE). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, { scheduledDate: SQL_SAMPLE.date }] })
  async update(scope: Scope, ids: string | readonly string[], values: Partial<Job>): Promise<void> {
    await this.m.update(Job, { id: typeof ids === 'string' ? ids : In([...ids]), companyId: scope.companyId }, values);
  }

  /** Deletes the scope's company's job `id`. */
  async delete(scope: Scope, id: string): Promise<void> {
    await this.m.delete(Job, { id, companyId: scope.companyId });
  }

  /** Status history rows of the scope's company (one INSERT). */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ jobId: SQL_SAMPLE.id, fromStatus: 'unassigned', toStatus: 'assigned', driverId: null, actorId: null, actorType: 'system', reason: null }]] })
  async insertStatusChanges(scope: Scope, rows: Omit<Partial<JobStatusChange>, 'companyId'>[]): Promise<void> {
    await this.m.insert(JobStatusChange, rows.map((r) => ({ ...r, companyId: scope.companyId })));
  }

  /** The order's latest unfinished job of a type, locked; null when none. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, 'delivery'] })
  latestUnfinishedLocked(scope: Scope, orderId: string, type: JobType): Promise<Job | null> {
    return this.locked.findOne(Job, { where: { orderId, companyId: scope.companyId, type, status: In(UNFINISHED_JOB_STATUSES) }, order: { createdAt: 'DESC' }, lock: LOCK });
  }

  /** The order's unfinished jobs, locked (`byId`: in id order, so that concurrent lockers queue instead of deadlocking). */
  unfinishedOfOrderLocked(scope: Scope, orderId: string, byId: boolean): Promise<Job[]> {
    return this.locked.find(Job, { where: { orderId, companyId: scope.companyId, status: In(UNFINISHED_JOB_STATUSES) }, ...(byId ? { order: { id: 'ASC' as const } } : {}), lock: LOCK });
  }

  /** The order's unassigned jobs, locked in id order. */
  unassignedOfOrderLocked(scope: Scope, orderId: string): Promise<Job[]> {
    return this.locked.find(Job, { where: { orderId, companyId: scope.companyId, status: 'unassigned' }, order: { id: 'ASC' }, lock: LOCK });
  }

  /** The order's jobs, by date then creation. */
  ofOrder(scope: Scope, orderId: string): Promise<Job[]> {
    // Jobs made in one transaction share created_at (approval makes the delivery and the pickup together): on one
    // day, a delivery comes before the other jobs and a pickup after them, then the id, so the order is fixed.
    return this.m
      .createQueryBuilder(Job, 'j')
      .where('j.orderId = :orderId AND j.companyId = :companyId', { orderId, companyId: scope.companyId })
      .orderBy('j.scheduledDate', 'ASC')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy(`CASE j.type WHEN 'delivery' THEN 0 WHEN 'pickup' THEN 2 ELSE 1 END`, 'ASC')
      .addOrderBy('j.id', 'ASC')
      .getMany();
  }

  /** How many jobs on the order `scope` reaches. */
  countOnOrder(scope: Scope, orderId: string): Promise<number> {
    return scopedQuery(this.m, Job, scope, 'j').andWhere('j.orderId = :orderId', { orderId }).getCount();
  }

  /** A job `scope` reaches (`lock`: FOR UPDATE); 404 otherwise. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id] })
  findScoped(scope: Scope, id: string, lock = false): Promise<Job> {
    return findScoped(lock ? this.locked : this.m, Job, scope, id, { what: 'Job', ...(lock ? { lock: true } : {}) });
  }

  /** The status history of a job, oldest first. */
  statusChanges(scope: Scope, jobId: string): Promise<JobStatusChange[]> {
    return this.m.find(JobStatusChange, { where: { jobId, companyId: scope.companyId }, order: { createdAt: 'ASC' } });
  }

  /** A page of the jobs `scope` reaches, filtered and sorted in SQL; the count only when the page is full. */
  @GenerateSql({ name: 'no filter', params: [SAMPLE_SCOPE, {}, {}] }, { name: 'with filters', params: [SAMPLE_SCOPE, { from: SQL_SAMPLE.date, to: SQL_SAMPLE.date, driverId: SQL_SAMPLE.id, status: 'assigned', type: 'delivery', orderId: SQL_SAMPLE.otherId }, { sort: '-created_at' }] })
  page(scope: Scope, f: JobFilters, q: PageQuery): Promise<Page<NamedJob>> {
    const qb = scopedQuery(this.m, Job, scope, 'j');
    if (f.from) qb.andWhere('j.scheduledDate >= :from', { from: f.from });
    if (f.to) qb.andWhere('j.scheduledDate <= :to', { to: f.to });
    if (f.driverId) qb.andWhere('j.driverId = :driverId', { driverId: f.driverId });
    if (f.status) qb.andWhere('j.status = :status', { status: f.status });
    if (f.type) qb.andWhere('j.type = :type', { type: f.type });
    if (f.orderId) qb.andWhere('j.orderId = :orderId', { orderId: f.orderId });
    qb.addSelect(DRIVER_NAME, 'driver_name');
    return paginate(qb, q, {
      sortable: { scheduled_date: 'j.scheduledDate', created_at: 'j.createdAt' },
      defaultSort: 'scheduled_date',
      mapRaw: named,
      count: () => countRows(qb),
    });
  }

  /** The jobs `scope` reaches scheduled from `from` to `to` (inclusive), by date, driver, sequence and creation. */
  @GenerateSql(
    { params: [SAMPLE_SCOPE, SQL_SAMPLE.date, SQL_SAMPLE.date, {}] },
    { name: 'statuses and drivers', params: [SAMPLE_SCOPE, SQL_SAMPLE.date, SQL_SAMPLE.date, { statuses: ['assigned'], driverIds: [SQL_SAMPLE.id] }] },
    { name: 'with arrivals', params: [SAMPLE_SCOPE, SQL_SAMPLE.date, SQL_SAMPLE.date, { arrivals: true }] },
  )
  async between(scope: Scope, from: string, to: string, o: { statuses?: readonly JobStatus[]; driverIds?: readonly string[]; arrivals?: boolean }): Promise<NamedJob[]> {
    const qb = scopedQuery(this.m, Job, scope, 'j')
      .andWhere('j.scheduledDate BETWEEN :from AND :to', { from, to })
      .addSelect(DRIVER_NAME, 'driver_name')
      .orderBy('j.scheduledDate', 'ASC')
      .addOrderBy('j.driverId', 'ASC', 'NULLS FIRST')
      .addOrderBy('j.sequence', 'ASC', 'NULLS LAST')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy('j.id', 'ASC');
    if (o.statuses) qb.andWhere('j.status IN (:...statuses)', { statuses: o.statuses });
    if (o.driverIds) qb.andWhere('j.driverId IN (:...driverIds)', { driverIds: o.driverIds });
    // The arrival times (issue #26) in the same statement: the dispatch context's count stays as it was.
    if (o.arrivals) qb.leftJoin(JobArrival, 'a', 'a.job_id = j.id').addSelect('a.planned_at', 'a_planned_at').addSelect('a.expected_at', 'a_expected_at').addSelect('a.arrived_at', 'a_arrived_at');
    const { entities, raw } = await qb.getRawAndEntities();
    const at = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
    return entities.map((j, i) => ({
      ...named(j, raw[i]),
      ...(o.arrivals ? { arrival: { plannedAt: at(raw[i].a_planned_at), expectedAt: at(raw[i].a_expected_at), arrivedAt: at(raw[i].a_arrived_at) } } : {}),
    }));
  }

  /** Per driver, the dates (ascending) of their jobs that were not aborted, optionally from/to. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, SQL_SAMPLE.date] })
  driverDates(scope: Scope, from?: string, to?: string): Promise<{ driver_id: string; dates: string[] | string }[]> {
    const qb = scopedQuery(this.m, Job, scope, 'j')
      .select('j.driver_id', 'driver_id')
      .addSelect(`array_agg(DISTINCT to_char(j.scheduled_date, 'YYYY-MM-DD') ORDER BY to_char(j.scheduled_date, 'YYYY-MM-DD'))`, 'dates')
      .andWhere('j.driverId IS NOT NULL')
      .andWhere(`j.status <> 'aborted'`)
      .groupBy('j.driver_id')
      .orderBy('j.driver_id');
    if (from) qb.andWhere('j.scheduledDate >= :from', { from });
    if (to) qb.andWhere('j.scheduledDate <= :to', { to });
    return qb.getRawMany<{ driver_id: string; dates: string[] | string }>();
  }

  /** The jobs among `ids` that `scope` reaches, locked in id order. */
  lockMany(scope: Scope, ids: readonly string[]): Promise<Job[]> {
    return scopedQuery(this.locked, Job, scope, 'j').andWhere('j.id IN (:...ids)', { ids: [...new Set(ids)] }).orderBy('j.id', 'ASC').setLock('pessimistic_write').getMany();
  }

  /** A driver's jobs on a date (of `statuses`), in sequence then creation. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.id, SQL_SAMPLE.date, ['assigned', 'in_progress']] })
  ofDriverDay(scope: Scope, driverId: string, date: string, statuses: readonly JobStatus[]): Promise<Job[]> {
    return scopedQuery(this.m, Job, scope, 'j')
      .andWhere('j.driverId = :driverId AND j.scheduledDate = :date AND j.status IN (:...statuses)', { driverId, date, statuses })
      .orderBy('j.sequence', 'ASC', 'NULLS LAST')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .getMany();
  }

  /** The next free sequence number on a driver's day in the scope's company (1 + the highest one; 1 on an empty day). */
  async nextSequence(scope: Scope, driverId: string, date: string): Promise<number> {
    const row = await this.m
      .createQueryBuilder(Job, 'j')
      .select('coalesce(max(j.sequence), 0) + 1', 'next')
      .where('j.companyId = :companyId AND j.driverId = :driverId AND j.scheduledDate = :date', { companyId: scope.companyId, driverId, date })
      .getRawOne<{ next: number | string }>();
    return Number(row?.next ?? 1);
  }

  /** The jobs among `ids` that `scope` reaches, with their drivers' names (no lock; one statement, in no particular order). */
  async reached(scope: Scope, ids: readonly string[]): Promise<NamedJob[]> {
    const { entities, raw } = await scopedQuery(this.m, Job, scope, 'j')
      .andWhere('j.id IN (:...ids)', { ids: [...new Set(ids)] })
      .addSelect(DRIVER_NAME, 'driver_name')
      .getRawAndEntities();
    return entities.map((j, i) => named(j, raw[i]));
  }

  /** The ids of the jobs merged into any of `ids`, with the job they are merged into, by id. */
  mergedIdsOf(scope: Scope, ids: readonly string[]): Promise<Pick<Job, 'id' | 'mergedIntoJobId'>[]> {
    return this.m.find(Job, { select: { id: true, mergedIntoJobId: true }, where: { mergedIntoJobId: In([...new Set(ids)]), companyId: scope.companyId }, order: { id: 'ASC' } });
  }

  /** The jobs merged into `jobId`, locked in id order. */
  mergedIntoLocked(scope: Scope, jobId: string): Promise<Job[]> {
    return this.locked.find(Job, { where: { mergedIntoJobId: jobId, companyId: scope.companyId }, order: { id: 'ASC' }, lock: LOCK });
  }

  /** Jobs merged into these swaps, oldest first; `lock`: FOR UPDATE. */
  @GenerateSql({ params: [SAMPLE_SCOPE, [SQL_SAMPLE.id], false] }, { name: 'locked', params: [SAMPLE_SCOPE, [SQL_SAMPLE.id], true] })
  mergedInto(scope: Scope, swapIds: readonly string[], lock: boolean): Promise<Job[]> {
    return (lock ? this.locked : this.m).find(Job, { where: { mergedIntoJobId: In([...swapIds]), companyId: scope.companyId }, order: { createdAt: 'ASC', id: 'ASC' }, ...(lock ? { lock: LOCK } : {}) });
  }

  /** Many jobs' sequence numbers (the scope's company's jobs) in one UPDATE. */
  @GenerateSql({ params: [SAMPLE_SCOPE, [{ id: SQL_SAMPLE.id, sequence: 1 }]] })
  async setSequences(scope: Scope, sequences: readonly { id: string; sequence: number }[]): Promise<void> {
    await this.sql(
      `UPDATE jobs SET sequence = v.sequence, updated_at = now()
         FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::int[]) AS sequence) v
        WHERE jobs.id = v.id AND jobs.company_id = $3`,
      [sequences.map((s) => s.id), sequences.map((s) => s.sequence), scope.companyId],
    );
  }

  /** The drivers with a job on the order that is not aborted. */
  async driversOnOrder(scope: Scope, orderId: string): Promise<string[]> {
    const rows = await this.sql<{ driver_id: string }>(`SELECT DISTINCT driver_id FROM jobs WHERE order_id = $1 AND company_id = $2 AND driver_id IS NOT NULL AND status <> 'aborted'`, [orderId, scope.companyId]);
    return rows.map((r) => r.driver_id);
  }

  /** A driver's jobs on a date, in sequence, merged pickups left out (idx_jobs_driver_date). */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, {}] })
  driverDay(scope: Scope, date: string, q: PageQuery): Promise<Page<Job>> {
    const qb = scopedQuery(this.m, Job, scope, 'j').andWhere('j.driverId IS NOT NULL').andWhere('j.scheduledDate = :date', { date }).andWhere('j.mergedIntoJobId IS NULL');
    return paginate(qb, q, { sortable: { sequence: 'j.sequence' }, defaultSort: 'sequence' });
  }

  /** A driver's finished jobs, newest first by when they finished, optionally of one status (idx_jobs_driver_finished). */
  @GenerateSql({ params: [SAMPLE_SCOPE, { status: 'completed' }] })
  driverHistory(scope: Scope, q: PageQuery & { status?: 'completed' | 'aborted' }): Promise<Page<Job>> {
    const qb = scopedQuery(this.m, Job, scope, 'j').andWhere('j.driverId IS NOT NULL').andWhere(`j.status IN ('completed', 'aborted')`);
    if (q.status) qb.andWhere('j.status = :status', { status: q.status });
    return paginate(qb, q, { sortable: { finished_at: 'coalesce(j.completed_at, j.aborted_at)' }, defaultSort: '-finished_at' });
  }

  /** How many of the driver's jobs on a date are in each status. */
  driverCounts(scope: Scope, date: string): Promise<{ status: JobStatus; n: number }[]> {
    return scopedQuery(this.m, Job, scope, 'j')
      .select('j.status', 'status')
      .addSelect('count(*)::int', 'n')
      .andWhere('j.driverId IS NOT NULL')
      .andWhere('j.scheduledDate = :date', { date })
      .groupBy('j.status')
      .getRawMany();
  }

  /** The driver's latest started job in progress, merged pickups left out. */
  driverCurrent(scope: Scope): Promise<Job | null> {
    return scopedQuery(this.m, Job, scope, 'j').andWhere('j.driverId IS NOT NULL').andWhere(`j.status = 'in_progress'`).andWhere('j.mergedIntoJobId IS NULL').orderBy('j.startedAt', 'DESC').addOrderBy('j.id', 'DESC').getOne();
  }

  /** The driver's assigned jobs on a date, in sequence, merged pickups left out; at most `limit`. */
  @GenerateSql({ params: [SAMPLE_SCOPE, SQL_SAMPLE.date, 3] })
  driverNext(scope: Scope, date: string, limit: number): Promise<Job[]> {
    return scopedQuery(this.m, Job, scope, 'j')
      .andWhere('j.driverId IS NOT NULL')
      .andWhere('j.scheduledDate = :date', { date })
      .andWhere(`j.status = 'assigned'`)
      .andWhere('j.mergedIntoJobId IS NULL')
      .orderBy('j.sequence', 'ASC', 'NULLS LAST')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .take(limit)
      .getMany();
  }

  /** Whether the driver has a job in progress (of the scope's company) other than these. */
  async driverBusy(scope: Scope, driverId: string, exceptJobIds: readonly string[]): Promise<boolean> {
    const qb = this.m.createQueryBuilder(Job, 'j').where('j.companyId = :companyId AND j.driverId = :driverId', { companyId: scope.companyId, driverId }).andWhere(`j.status = 'in_progress'`);
    if (exceptJobIds.length) qb.andWhere('j.id NOT IN (:...exceptJobIds)', { exceptJobIds: [...exceptJobIds] });
    return (await qb.getCount()) > 0;
  }

  /** The order's completed jobs (what they put on site and took away), in completion order. */
  completedOfOrder(scope: Scope, orderId: string): Promise<Pick<Job, 'id' | 'type' | 'assetId' | 'removedAssetId' | 'completedAt' | 'createdAt'>[]> {
    return this.m.find(Job, {
      select: { id: true, type: true, assetId: true, removedAssetId: true, completedAt: true, createdAt: true },
      where: { orderId, companyId: scope.companyId, status: 'completed' },
      order: { completedAt: 'ASC', createdAt: 'ASC', id: 'ASC' },
    });
  }
}
