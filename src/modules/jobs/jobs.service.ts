import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Scope } from '../../common/access/scope';
import { scopedQuery } from '../../common/access/tenant-policy';
import { DataSource, EntityManager, In } from 'typeorm';
import { recordEvents } from '../../common/outbox/outbox';
import { InUseRegistry } from '../../common/records/in-use';
import { AssetsService } from '../catalogue';
import { Job, UNFINISHED_JOB_STATUSES, type JobStatus, type JobType } from './job.entity';

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
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

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

  /** Aborts jobs (reason, `job.aborted` events) and releases the assets they reserved. */
  async abort(m: EntityManager, jobs: readonly JobView[], reason: string): Promise<void> {
    if (jobs.length === 0) return;
    await m.update(Job, { id: In(jobs.map((j) => j.id)) }, { status: 'aborted', abortReason: reason, abortedAt: new Date() });
    await this.assets.releaseReserved(m, jobs.map((j) => j.assetId).filter((a): a is string => !!a));
    await recordEvents(m, ...jobs.map((j) => ({ type: 'job.aborted' as const, aggregateType: 'job', aggregateId: j.id, companyId: j.companyId, payload: { order_id: j.orderId, reason } })));
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
}
