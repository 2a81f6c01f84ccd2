import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import type { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import type { Page } from '../../common/http/envelope';
import { paginate, type PageQuery } from '../../common/http/pagination';
import { DataSource, EntityManager, In } from 'typeorm';
import { recordEvents } from '../../common/outbox/outbox';
import { InUseRegistry } from '../../common/records/in-use';
import { AssetsService } from '../catalogue';
import { userNameSql } from '../users';
import { countRows } from '../../common/http/pagination';
import { Job, JobStatusChange, UNFINISHED_JOB_STATUSES, type JobStatus, type JobType } from './job.entity';

/** A job as other modules see it: a plain copy of the row (never the entity). */
export interface JobView {
  readonly id: string;
  readonly companyId: string;
  readonly orderId: string;
  readonly type: JobType;
  readonly status: JobStatus;
  readonly scheduledDate: string;
  readonly sequence: number | null;
  readonly driverId: string | null;
  readonly truckId: string | null;
  readonly assetId: string | null;
  readonly lotId: string | null;
  readonly destinationAddressId: string | null;
  readonly changeRequestId: string | null;
  readonly notes: string | null;
  readonly abortReason: string | null;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
  readonly abortedAt: Date | null;
  readonly assignedAt: Date | null;
  readonly removedAssetId: string | null;
  readonly mergedIntoJobId: string | null;
  readonly lastLat: number | null;
  readonly lastLng: number | null;
  readonly lastLocationAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Company-side list filters (dispatch): scheduled from/to (inclusive), driver, status, type, order. */
export interface JobFilters {
  from?: string;
  to?: string;
  driverId?: string;
  status?: JobStatus;
  type?: JobType;
  orderId?: string;
}

/** A job with its driver's display name (lists and the job tree). */
export type JobRow = JobView & { readonly driverName: string | null };

/** The only status moves of a job (domain.md §5); anything else is 409 INVALID_TRANSITION. */
export const JOB_TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  unassigned: ['assigned', 'aborted'],
  assigned: ['in_progress', 'aborted'],
  in_progress: ['completed', 'aborted'],
  completed: [],
  aborted: [],
};

/** Who moved a job: a user, or the system (order cancellation by the relay, merges). */
export type JobActor = Pick<Actor, 'id' | 'type'> | 'system';

/** Columns a job change may set besides its status (never status or the timestamps of moves). */
export type JobChanges = Partial<Pick<Job, 'driverId' | 'truckId' | 'assetId' | 'scheduledDate' | 'sequence' | 'notes' | 'removedAssetId' | 'mergedIntoJobId' | 'lastLat' | 'lastLng' | 'lastLocationAt' | 'lotId' | 'type'>>;

/** The timestamp column a status move stamps. */
const STAMP: Partial<Record<JobStatus, 'assignedAt' | 'startedAt' | 'completedAt' | 'abortedAt'>> = {
  assigned: 'assignedAt',
  in_progress: 'startedAt',
  completed: 'completedAt',
  aborted: 'abortedAt',
};

/** What a new (unassigned) job needs. */
export interface NewJob {
  companyId: string;
  orderId: string;
  type: JobType;
  scheduledDate: string;
  /** The lot a delivery leaves from, or a pickup returns to. */
  lotId: string | null;
  /** The change request that created it, if any. */
  changeRequestId?: string | null;
  /** A relocation's new address. */
  destinationAddressId?: string | null;
}

const view = (j: Job): JobView => ({
  id: j.id,
  companyId: j.companyId,
  orderId: j.orderId,
  type: j.type,
  status: j.status,
  scheduledDate: j.scheduledDate,
  sequence: j.sequence,
  driverId: j.driverId,
  truckId: j.truckId,
  assetId: j.assetId,
  lotId: j.lotId,
  destinationAddressId: j.destinationAddressId,
  changeRequestId: j.changeRequestId,
  notes: j.notes,
  abortReason: j.abortReason,
  startedAt: j.startedAt,
  completedAt: j.completedAt,
  abortedAt: j.abortedAt,
  assignedAt: j.assignedAt,
  removedAssetId: j.removedAssetId,
  mergedIntoJobId: j.mergedIntoJobId,
  lastLat: j.lastLat,
  lastLng: j.lastLng,
  lastLocationAt: j.lastLocationAt,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
});

/**
 * The job rows (domain.md §5): every read and write of the `jobs` table goes through here. Writes
 * run in the caller's transaction (`m`). Jobs know nothing of orders' rules: orders decide which jobs
 * to create, move or abort, and ask this service to do it.
 */
@Injectable()
export class JobsService implements OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly assets: AssetsService,
    private readonly inUse: InUseRegistry,
  ) {}

  /** Live (unfinished) jobs keep the lots, addresses, trucks and assets they point at from deletion. */
  onModuleInit(): void {
    const unfinished = { status: In(UNFINISHED_JOB_STATUSES) };
    this.inUse.register('lot', 'jobs', 'an unfinished job from or to the lot', (m, id) => m.existsBy(Job, { lotId: id, ...unfinished }));
    this.inUse.register('customer_address', 'jobs', 'an unfinished relocation job to the address', (m, id) => m.existsBy(Job, { destinationAddressId: id, ...unfinished }));
    this.inUse.register('truck', 'jobs', 'an unfinished job with the truck', (m, id) => m.existsBy(Job, { truckId: id, ...unfinished }));
    this.inUse.register('asset', 'jobs', 'an unfinished job with the asset', (m, id) => m.existsBy(Job, { assetId: id, ...unfinished }));
  }

  /** Creates an unassigned job (event `job.created`). */
  async create(m: EntityManager, j: NewJob): Promise<JobView> {
    return (await this.createMany(m, [j]))[0];
  }

  /** New unassigned jobs in one INSERT, with their `job.created` events in one more. */
  async createMany(m: EntityManager, jobs: NewJob[]): Promise<JobView[]> {
    if (!jobs.length) return [];
    const rows = jobs.map((j) =>
      m.create(Job, {
        companyId: j.companyId,
        orderId: j.orderId,
        type: j.type,
        status: 'unassigned',
        scheduledDate: j.scheduledDate,
        lotId: j.lotId,
        changeRequestId: j.changeRequestId ?? null,
        destinationAddressId: j.destinationAddressId ?? null,
      }),
    );
    await m.insert(Job, rows);
    await recordEvents(
      m,
      ...rows.map((saved) => ({
        type: 'job.created' as const,
        aggregateType: 'job',
        aggregateId: saved.id,
        companyId: saved.companyId,
        payload: { order_id: saved.orderId, type: saved.type, scheduled_date: saved.scheduledDate },
      })),
    );
    return rows.map(view);
  }

  /** The order's latest unfinished job of a type, locked for the rest of the transaction; null when none. */
  async unfinished(m: EntityManager, orderId: string, type: JobType): Promise<JobView | null> {
    const job = await m.findOne(Job, { where: { orderId, type, status: In(UNFINISHED_JOB_STATUSES) }, order: { createdAt: 'DESC' }, lock: { mode: 'pessimistic_write' } });
    return job && view(job);
  }

  /** Moves a job to another date. */
  async reschedule(m: EntityManager, jobId: string, scheduledDate: string): Promise<void> {
    await m.update(Job, { id: jobId }, { scheduledDate });
  }

  /** Aborts jobs (reason, history rows, `job.aborted` events) and releases the assets they reserved. */
  async abort(m: EntityManager, jobs: readonly JobView[], reason: string, actor: JobActor = 'system'): Promise<void> {
    if (jobs.length === 0) return;
    for (const j of jobs) if (!JOB_TRANSITIONS[j.status].includes('aborted')) throw ApiError.invalidTransition(j.status, 'aborted', 'Job');
    await m.update(Job, { id: In(jobs.map((j) => j.id)) }, { status: 'aborted', abortReason: reason, abortedAt: new Date() });
    await this.assets.releaseReserved(m, jobs.map((j) => j.assetId).filter((a): a is string => !!a));
    await this.recordMoves(m, jobs.map((j) => ({ job: j, to: 'aborted' as const })), actor, reason);
  }

  /** Aborts every unfinished job of the order (locked first). */
  async abortUnfinished(m: EntityManager, orderId: string, reason: string): Promise<void> {
    const jobs = await m.find(Job, { where: { orderId, status: In(UNFINISHED_JOB_STATUSES) }, lock: { mode: 'pessimistic_write' } });
    await this.abort(m, jobs.map(view), reason);
  }

  /** Takes the reserved asset off a job and releases it (an asset already out keeps its status). */
  async unreserveAsset(m: EntityManager, job: JobView): Promise<void> {
    if (!job.assetId) return;
    await m.update(Job, { id: job.id }, { assetId: null });
    await this.assets.releaseReserved(m, [job.assetId]);
  }

  /** The order's jobs, by date then creation. */
  async listForOrder(orderId: string, m: EntityManager = this.ds.manager): Promise<JobView[]> {
    const jobs = await m.find(Job, { where: { orderId }, order: { scheduledDate: 'ASC', createdAt: 'ASC' } });
    return jobs.map(view);
  }

  /** Whether `scope` reaches a job on the order (a driver: one of their own, now or before). */
  async reachesOrder(scope: Scope, orderId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    return (await scopedQuery(m, Job, scope, 'j').andWhere('j.orderId = :orderId', { orderId }).getCount()) > 0;
  }

  /** A job `scope` reaches, locked for the rest of the transaction; 404 otherwise (another company's, another driver's, absent). */
  async lock(m: EntityManager, scope: Scope, id: string): Promise<JobView> {
    return view(await findScoped(m, Job, scope, id, { what: 'Job', lock: true }));
  }

  /** A job `scope` reaches (no lock); 404 otherwise. */
  async find(scope: Scope, id: string, m: EntityManager = this.ds.manager): Promise<JobView> {
    return view(await findScoped(m, Job, scope, id, { what: 'Job' }));
  }

  /**
   * A status move (checked against JOB_TRANSITIONS, else 409 INVALID_TRANSITION), stamping its time
   * column, with `set` written in the same UPDATE, a history row and a `job.<status>` event. The job
   * must be locked by the caller (`lock`). Returns the job as it now is.
   */
  async move(m: EntityManager, job: JobView, to: JobStatus, actor: JobActor, set: JobChanges = {}, reason: string | null = null): Promise<JobView> {
    if (!JOB_TRANSITIONS[job.status].includes(to)) throw ApiError.invalidTransition(job.status, to, 'Job');
    const stamp = STAMP[to];
    const values: Partial<Job> = { ...set, status: to, ...(stamp ? { [stamp]: new Date() } : {}), ...(to === 'aborted' ? { abortReason: reason } : {}) };
    await m.update(Job, { id: job.id }, values);
    const moved: JobView = { ...job, ...values, updatedAt: new Date() } as JobView;
    await this.recordMoves(m, [{ job: moved, to, from: job.status }], actor, reason);
    return moved;
  }

  /** Columns of a job other than its status (driver, truck, asset, date, sequence, notes, location…). Returns the job as it now is. */
  async change(m: EntityManager, job: JobView, set: JobChanges): Promise<JobView> {
    if (Object.keys(set).length) await m.update(Job, { id: job.id }, set as Partial<Job>);
    return { ...job, ...set, updatedAt: new Date() } as JobView;
  }

  /** Deletes a job row (its history goes with it), with a `job.deleted` event. The caller checks that nothing depends on it. */
  async remove(m: EntityManager, job: JobView, actor: JobActor): Promise<void> {
    await m.delete(Job, { id: job.id });
    await recordEvents(m, { type: 'job.deleted', aggregateType: 'job', aggregateId: job.id, companyId: job.companyId, actorId: actor === 'system' ? null : actor.id, payload: { order_id: job.orderId, type: job.type } });
  }

  /** The status history of a job, oldest first. */
  async history(jobId: string, m: EntityManager = this.ds.manager): Promise<{ from: JobStatus | null; to: JobStatus; driver_id: string | null; actor_id: string | null; actor_type: string; reason: string | null; at: string }[]> {
    const rows = await m.find(JobStatusChange, { where: { jobId }, order: { createdAt: 'ASC' } });
    return rows.map((r) => ({ from: r.fromStatus, to: r.toStatus, driver_id: r.driverId, actor_id: r.actorId, actor_type: r.actorType, reason: r.reason, at: r.createdAt.toISOString() }));
  }

  // ── Company-side dispatch reads (assignment, lists, the job tree, the dispatch context) ──

  /**
   * A page of the jobs `scope` reaches, filtered and sorted in SQL (each filter and sort has an index:
   * migrations/1764200002000-DispatchCompany.ts), each with its driver's name: one statement, and the
   * count only when the page is full.
   */
  async page(scope: Scope, f: JobFilters, q: PageQuery): Promise<Page<JobRow>> {
    const qb = scopedQuery(this.ds.manager, Job, scope, 'j');
    if (f.from) qb.andWhere('j.scheduledDate >= :from', { from: f.from });
    if (f.to) qb.andWhere('j.scheduledDate <= :to', { to: f.to });
    if (f.driverId) qb.andWhere('j.driverId = :driverId', { driverId: f.driverId });
    if (f.status) qb.andWhere('j.status = :status', { status: f.status });
    if (f.type) qb.andWhere('j.type = :type', { type: f.type });
    if (f.orderId) qb.andWhere('j.orderId = :orderId', { orderId: f.orderId });
    qb.addSelect(userNameSql('j.driver_id'), 'driver_name');
    return paginate(qb, q, {
      sortable: { scheduled_date: 'j.scheduledDate', created_at: 'j.createdAt' },
      defaultSort: 'scheduled_date',
      mapRaw: (j, raw) => ({ ...view(j), driverName: (raw.driver_name as string | null) ?? null }),
      count: () => countRows(qb),
    });
  }

  /**
   * The jobs `scope` reaches scheduled from `from` to `to` (inclusive), with their drivers' names, by date,
   * driver, sequence and creation (one statement). `statuses` limits them; `driverIds` too.
   */
  async between(scope: Scope, from: string, to: string, o: { statuses?: readonly JobStatus[]; driverIds?: readonly string[] } = {}, m: EntityManager = this.ds.manager): Promise<JobRow[]> {
    if (o.driverIds && !o.driverIds.length) return [];
    const qb = scopedQuery(m, Job, scope, 'j')
      .andWhere('j.scheduledDate BETWEEN :from AND :to', { from, to })
      .addSelect(userNameSql('j.driver_id'), 'driver_name')
      .orderBy('j.scheduledDate', 'ASC')
      .addOrderBy('j.driverId', 'ASC', 'NULLS FIRST')
      .addOrderBy('j.sequence', 'ASC', 'NULLS LAST')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy('j.id', 'ASC');
    if (o.statuses) qb.andWhere('j.status IN (:...statuses)', { statuses: o.statuses });
    if (o.driverIds) qb.andWhere('j.driverId IN (:...driverIds)', { driverIds: o.driverIds });
    const { entities, raw } = await qb.getRawAndEntities();
    return entities.map((j, i) => ({ ...view(j), driverName: (raw[i].driver_name as string | null) ?? null }));
  }

  /** Per driver, the dates (ascending) on which they have jobs that were not aborted, optionally from/to (one statement). */
  async driverDates(scope: Scope, from?: string, to?: string, m: EntityManager = this.ds.manager): Promise<{ driverId: string; dates: string[] }[]> {
    const qb = scopedQuery(m, Job, scope, 'j')
      .select('j.driver_id', 'driver_id')
      .addSelect(`array_agg(DISTINCT to_char(j.scheduled_date, 'YYYY-MM-DD') ORDER BY to_char(j.scheduled_date, 'YYYY-MM-DD'))`, 'dates')
      .andWhere('j.driverId IS NOT NULL')
      .andWhere(`j.status <> 'aborted'`)
      .groupBy('j.driver_id')
      .orderBy('j.driver_id');
    if (from) qb.andWhere('j.scheduledDate >= :from', { from });
    if (to) qb.andWhere('j.scheduledDate <= :to', { to });
    const rows = await qb.getRawMany<{ driver_id: string; dates: string[] | string }>();
    return rows.map((r) => ({ driverId: r.driver_id, dates: Array.isArray(r.dates) ? r.dates : parsePgArray(r.dates) }));
  }

  /** The order's unassigned jobs, locked, in assignment order: the delivery first, then by date and creation. */
  async unassignedOfOrder(m: EntityManager, orderId: string): Promise<JobView[]> {
    const jobs = await m.find(Job, { where: { orderId, status: 'unassigned' }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
    const rank = (j: Job) => (j.type === 'delivery' ? 0 : 1);
    return jobs
      .sort((a, b) => rank(a) - rank(b) || a.scheduledDate.localeCompare(b.scheduledDate) || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map(view);
  }

  /** The order's unfinished jobs, locked (in id order, so that concurrent lockers queue instead of deadlocking). */
  async lockUnfinishedOfOrder(m: EntityManager, orderId: string): Promise<JobView[]> {
    const jobs = await m.find(Job, { where: { orderId, status: In(UNFINISHED_JOB_STATUSES) }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
    return jobs.map(view);
  }

  /** The jobs among `ids` that `scope` reaches, locked in id order; the others are left out (the caller reports them). */
  async lockMany(m: EntityManager, scope: Scope, ids: readonly string[]): Promise<JobView[]> {
    if (!ids.length) return [];
    const jobs = await scopedQuery(m, Job, scope, 'j').andWhere('j.id IN (:...ids)', { ids: [...new Set(ids)] }).orderBy('j.id', 'ASC').setLock('pessimistic_write').getMany();
    return jobs.map(view);
  }

  /** A driver's jobs on a date (of `statuses`), in sequence then creation; no lock (lock them with `lockMany`). */
  async ofDriverDay(scope: Scope, driverId: string, date: string, statuses: readonly JobStatus[], m: EntityManager = this.ds.manager): Promise<JobView[]> {
    const jobs = await scopedQuery(m, Job, scope, 'j')
      .andWhere('j.driverId = :driverId AND j.scheduledDate = :date AND j.status IN (:...statuses)', { driverId, date, statuses })
      .orderBy('j.sequence', 'ASC', 'NULLS LAST')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .getMany();
    return jobs.map(view);
  }

  /** The next free sequence number on a driver's day (1 + the highest one; 1 on an empty day). */
  async nextSequence(m: EntityManager, companyId: string, driverId: string, date: string): Promise<number> {
    const row = await m
      .createQueryBuilder(Job, 'j')
      .select('coalesce(max(j.sequence), 0) + 1', 'next')
      .where('j.companyId = :companyId AND j.driverId = :driverId AND j.scheduledDate = :date', { companyId, driverId, date })
      .getRawOne<{ next: number | string }>();
    return Number(row?.next ?? 1);
  }

  /** The jobs among `ids` that `scope` reaches, with their drivers' names, in the order of `ids` (no lock; one statement). */
  async rowsOf(scope: Scope, ids: readonly string[], m: EntityManager = this.ds.manager): Promise<JobRow[]> {
    if (!ids.length) return [];
    const { entities, raw } = await scopedQuery(m, Job, scope, 'j')
      .andWhere('j.id IN (:...ids)', { ids: [...new Set(ids)] })
      .addSelect(userNameSql('j.driver_id'), 'driver_name')
      .getRawAndEntities();
    const byId = new Map(entities.map((j, i) => [j.id, { ...view(j), driverName: (raw[i].driver_name as string | null) ?? null }]));
    return ids.map((id) => byId.get(id)).filter((j): j is JobRow => !!j);
  }

  /** Per job among `ids`, the pickups merged into it by route collapse (one statement). */
  async mergedIdsOf(ids: readonly string[], m: EntityManager = this.ds.manager): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!ids.length) return out;
    const rows = await m.find(Job, { select: { id: true, mergedIntoJobId: true }, where: { mergedIntoJobId: In([...new Set(ids)]) }, order: { id: 'ASC' } });
    for (const r of rows) out.set(r.mergedIntoJobId!, [...(out.get(r.mergedIntoJobId!) ?? []), r.id]);
    return out;
  }

  /** The jobs merged into `jobId`, locked (to undo the merge when the swap is aborted). */
  async lockMergedInto(m: EntityManager, jobId: string): Promise<JobView[]> {
    const jobs = await m.find(Job, { where: { mergedIntoJobId: jobId }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
    return jobs.map(view);
  }

  /** Saves many jobs' sequence numbers in one UPDATE (route collapse); the jobs must be locked by the caller. */
  async setSequences(m: EntityManager, sequences: readonly { id: string; sequence: number }[]): Promise<void> {
    if (!sequences.length) return;
    await m.query(
      `UPDATE jobs SET sequence = v.sequence, updated_at = now()
         FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::int[]) AS sequence) v
        WHERE jobs.id = v.id`,
      [sequences.map((s) => s.id), sequences.map((s) => s.sequence)],
    );
  }

  /** SQL for "the order in `orderIdColumn` has an unassigned job" (on the date bound as `:dateParam` when given), for the orders module's lists. */
  unassignedExistsSql(orderIdColumn: string, dateParam?: string): string {
    return `EXISTS (SELECT 1 FROM jobs uj WHERE uj.order_id = ${orderIdColumn} AND uj.status = 'unassigned'${dateParam ? ` AND uj.scheduled_date = CAST(:${dateParam} AS date)` : ''})`;
  }

  /** SQL for the unassigned jobs of the order in `orderIdColumn` as a JSON array ({id, type, scheduled_date}) in assignment order. */
  unassignedJsonSql(orderIdColumn: string): string {
    return `(SELECT coalesce(json_agg(json_build_object('id', uj.id, 'type', uj.type, 'scheduled_date', to_char(uj.scheduled_date, 'YYYY-MM-DD'))
               ORDER BY (uj.type <> 'delivery'), uj.scheduled_date, uj.created_at, uj.id), '[]'::json)
              FROM jobs uj WHERE uj.order_id = ${orderIdColumn} AND uj.status = 'unassigned')`;
  }

  /** The drivers with a job on the order that is not aborted (the order's chat members; chats ask at each request). */
  async driversOnOrder(orderId: string, m: EntityManager = this.ds.manager): Promise<string[]> {
    const rows: { driver_id: string }[] = await m.query(`SELECT DISTINCT driver_id FROM jobs WHERE order_id = $1 AND driver_id IS NOT NULL AND status <> 'aborted'`, [orderId]);
    return rows.map((r) => r.driver_id);
  }

  /** SQL for "the driver bound as `:driverParam` has a job that is not aborted on the order in `orderIdColumn`" (the chats list of a driver). */
  driverOnOrderSql(orderIdColumn: string, driverParam: string): string {
    return `EXISTS (SELECT 1 FROM jobs dj WHERE dj.order_id = ${orderIdColumn} AND dj.driver_id = :${driverParam} AND dj.status <> 'aborted')`;
  }

  // ── end of company-side dispatch reads ──

  // ── Driver-side reads (the driver's jobs, tracking, history, an order's jobs) ──

  /**
   * A driver's jobs on a date (`scope`: the driver), in sequence (unsequenced last, then by id), merged
   * pickups left out (they show under their swap). Served by idx_jobs_driver_date.
   */
  async driverDay(scope: Scope, date: string, q: PageQuery, m: EntityManager = this.ds.manager): Promise<Page<JobView>> {
    const qb = scopedQuery(m, Job, scope, 'j').andWhere('j.driverId IS NOT NULL').andWhere('j.scheduledDate = :date', { date }).andWhere('j.mergedIntoJobId IS NULL');
    return paginate(qb, q, { sortable: { sequence: 'j.sequence' }, defaultSort: 'sequence', map: view });
  }

  /** Jobs merged into these swaps by route collapse, oldest first; `lock`: FOR UPDATE for the rest of the transaction. */
  async mergedInto(swapIds: readonly string[], m: EntityManager = this.ds.manager, lock = false): Promise<JobView[]> {
    if (!swapIds.length) return [];
    const rows = await m.find(Job, { where: { mergedIntoJobId: In([...swapIds]) }, order: { createdAt: 'ASC', id: 'ASC' }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    return rows.map(view);
  }

  /**
   * A driver's finished jobs (completed or aborted), newest first by when they finished, optionally of
   * one status. Served by idx_jobs_driver_finished.
   */
  async driverHistory(scope: Scope, q: PageQuery & { status?: 'completed' | 'aborted' }, m: EntityManager = this.ds.manager): Promise<Page<JobView>> {
    const qb = scopedQuery(m, Job, scope, 'j').andWhere('j.driverId IS NOT NULL').andWhere(`j.status IN ('completed', 'aborted')`);
    if (q.status) qb.andWhere('j.status = :status', { status: q.status });
    return paginate(qb, q, { sortable: { finished_at: 'coalesce(j.completed_at, j.aborted_at)' }, defaultSort: '-finished_at', map: view });
  }

  /** How many of the driver's jobs on a date are in each status (merged pickups included). One statement. */
  async driverCounts(scope: Scope, date: string, m: EntityManager = this.ds.manager): Promise<Record<JobStatus, number>> {
    const rows: { status: JobStatus; n: number }[] = await scopedQuery(m, Job, scope, 'j')
      .select('j.status', 'status')
      .addSelect('count(*)::int', 'n')
      .andWhere('j.driverId IS NOT NULL')
      .andWhere('j.scheduledDate = :date', { date })
      .groupBy('j.status')
      .getRawMany();
    const counts: Record<JobStatus, number> = { unassigned: 0, assigned: 0, in_progress: 0, completed: 0, aborted: 0 };
    for (const r of rows) counts[r.status] = Number(r.n);
    return counts;
  }

  /** The driver's job in progress (the latest started), whatever its date; null when none. */
  async driverCurrent(scope: Scope, m: EntityManager = this.ds.manager): Promise<JobView | null> {
    const job = await scopedQuery(m, Job, scope, 'j').andWhere('j.driverId IS NOT NULL').andWhere(`j.status = 'in_progress'`).andWhere('j.mergedIntoJobId IS NULL').orderBy('j.startedAt', 'DESC').addOrderBy('j.id', 'DESC').getOne();
    return job ? view(job) : null;
  }

  /** The driver's assigned (not started) jobs on a date, in sequence, merged pickups left out; at most `limit`. */
  async driverNext(scope: Scope, date: string, limit: number, m: EntityManager = this.ds.manager): Promise<JobView[]> {
    const rows = await scopedQuery(m, Job, scope, 'j')
      .andWhere('j.driverId IS NOT NULL')
      .andWhere('j.scheduledDate = :date', { date })
      .andWhere(`j.status = 'assigned'`)
      .andWhere('j.mergedIntoJobId IS NULL')
      .orderBy('j.sequence', 'ASC', 'NULLS LAST')
      .addOrderBy('j.createdAt', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .take(limit)
      .getMany();
    return rows.map(view);
  }

  /**
   * The SQL of the orders' unfinished jobs from a date on (not merged into another), by date, sequence
   * and id, at most `limit`, for a read that composes it into its own statement (the dashboards; the
   * arguments are SQL: parameters, or a subquery of order ids): columns id, order_id, type, status,
   * scheduled_date, and ord (the rank); idx_jobs_order.
   */
  static upcomingOfOrdersSql(companyId: string, orderIds: string, from: string, limit: string): string {
    return `SELECT j.id, j.order_id, j.type, j.status, j.scheduled_date::text AS scheduled_date,
                   (row_number() OVER (ORDER BY j.scheduled_date, j.sequence NULLS LAST, j.id))::int AS ord
              FROM jobs j
             WHERE j.company_id = ${companyId} AND j.order_id IN (${orderIds}) AND j.status IN ('unassigned', 'assigned', 'in_progress')
               AND j.scheduled_date >= ${from}::date AND j.merged_into_job_id IS NULL
             ORDER BY j.scheduled_date, j.sequence NULLS LAST, j.id
             LIMIT ${limit}`;
  }

  /** Whether the driver has a job in progress other than these (a driver works one job, with its merged pickups, at a time). */
  async driverBusy(m: EntityManager, driverId: string, exceptJobIds: readonly string[]): Promise<boolean> {
    const qb = m.createQueryBuilder(Job, 'j').where('j.driverId = :driverId', { driverId }).andWhere(`j.status = 'in_progress'`);
    if (exceptJobIds.length) qb.andWhere('j.id NOT IN (:...exceptJobIds)', { exceptJobIds: [...exceptJobIds] });
    return (await qb.getCount()) > 0;
  }

  /**
   * The assets an order has on site now, oldest first, as its completed jobs left them: a delivery or
   * swap puts its `asset_id` there, a swap or pickup takes its `removed_asset_id` away (dump-returns and
   * relocations keep the same asset). "The order's on-site asset" is the last of them.
   */
  async onSiteAssets(orderId: string, m: EntityManager = this.ds.manager): Promise<string[]> {
    const rows = await m.find(Job, {
      select: { id: true, type: true, assetId: true, removedAssetId: true, completedAt: true, createdAt: true },
      where: { orderId, status: 'completed' },
      order: { completedAt: 'ASC', createdAt: 'ASC', id: 'ASC' },
    });
    const onSite: string[] = [];
    for (const j of rows) {
      const removed = j.removedAssetId && (j.type === 'pickup' || j.type === 'swap') ? onSite.indexOf(j.removedAssetId) : -1;
      if (removed >= 0) onSite.splice(removed, 1);
      if (j.assetId && (j.type === 'delivery' || j.type === 'swap') && !onSite.includes(j.assetId)) onSite.push(j.assetId);
    }
    return onSite;
  }
  // ── end of driver-side reads ──

  /** History rows (one INSERT) and `job.<status>` events (one more) for status moves. */
  private async recordMoves(m: EntityManager, moves: { job: JobView; to: JobStatus; from?: JobStatus }[], actor: JobActor, reason: string | null): Promise<void> {
    const actorId = actor === 'system' ? null : actor.id;
    const actorType = actor === 'system' ? 'system' : actor.type;
    await m.insert(
      JobStatusChange,
      moves.map(({ job, to, from }) => ({ companyId: job.companyId, jobId: job.id, fromStatus: from ?? job.status, toStatus: to, driverId: job.driverId, actorId, actorType, reason })),
    );
    await recordEvents(
      m,
      ...moves.map(({ job, to, from }) => ({
        type: `job.${to as 'assigned' | 'in_progress' | 'completed' | 'aborted'}` as const,
        aggregateType: 'job',
        aggregateId: job.id,
        companyId: job.companyId,
        actorId,
        payload: { order_id: job.orderId, type: job.type, from: from ?? job.status, to, driver_id: job.driverId, reason },
      })),
    );
  }
}

/** A PostgreSQL text array literal (`{a,b}`) as some adapters return it; node-postgres parses it already. */
function parsePgArray(v: string): string[] {
  const inner = v.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((x) => x.replace(/^"|"$/g, '')) : [];
}
