import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import type { Scope } from '../../common/access/scope';
import { findScoped, scopedQuery } from '../../common/access/tenant-policy';
import { ApiError } from '../../common/http/api-error';
import { DataSource, EntityManager, In } from 'typeorm';
import { recordEvents } from '../../common/outbox/outbox';
import { InUseRegistry } from '../../common/records/in-use';
import { AssetsService } from '../catalogue';
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
  // ── end of company-side dispatch reads ──

  // ── Driver-side reads (the driver's jobs, tracking, history, an order's jobs) ──
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
