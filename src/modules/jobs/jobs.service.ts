import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope, SystemReach } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import type { PageQuery } from '../../common/http/pagination';
import { InUseRegistry } from '../../common/records/in-use';
import { AssetsService } from '../catalogue';
import type { Job, JobStatus, JobType } from './job.entity';
import type { ArrivalTimes } from './arrivals';
import { JobArrivalRepository, type ArrivalWrite } from './job-arrival.repository';
import { JobRepository, type JobFilters, type NamedJob } from './job.repository';

export type { JobFilters } from './job.repository';

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
  /** A swap's side coming back: the order whose container it takes away (its own, or the merged pickup's); null for other types. */
  readonly pickupOrderId: string | null;
  readonly lastLat: number | null;
  readonly lastLng: number | null;
  readonly lastLocationAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * The order whose on-site container a job takes away or works on: a swap's side coming back (its own
 * order, or the merged pickup's), else the job's own order. Its waste type is what the job dumps.
 */
export const pickupSideOf = (j: Pick<JobView, 'orderId' | 'pickupOrderId'>): string => j.pickupOrderId ?? j.orderId;

/** A job with its driver's display name (lists and the job tree), and its arrival times when the read asked for them. */
export type JobRow = JobView & { readonly driverName: string | null; readonly arrival?: ArrivalTimes | null };

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
export type JobChanges = Partial<Pick<Job, 'driverId' | 'truckId' | 'assetId' | 'scheduledDate' | 'sequence' | 'notes' | 'removedAssetId' | 'mergedIntoJobId' | 'pickupOrderId' | 'lastLat' | 'lastLng' | 'lastLocationAt' | 'lotId' | 'type'>>;

/** The timestamp column a status move stamps. */
const STAMP: Partial<Record<JobStatus, 'assignedAt' | 'startedAt' | 'completedAt' | 'abortedAt'>> = {
  assigned: 'assignedAt',
  in_progress: 'startedAt',
  completed: 'completedAt',
  aborted: 'abortedAt',
};

/** What a new (unassigned) job needs (its company is the scope's). */
export interface NewJob {
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

// A row just inserted carries only what was written and what the INSERT returned: its unset nullable columns are null.
const view = (j: Job): JobView => ({
  id: j.id,
  companyId: j.companyId,
  orderId: j.orderId,
  type: j.type,
  status: j.status,
  scheduledDate: j.scheduledDate,
  sequence: j.sequence ?? null,
  driverId: j.driverId ?? null,
  truckId: j.truckId ?? null,
  assetId: j.assetId ?? null,
  lotId: j.lotId ?? null,
  destinationAddressId: j.destinationAddressId ?? null,
  changeRequestId: j.changeRequestId ?? null,
  notes: j.notes ?? null,
  abortReason: j.abortReason ?? null,
  startedAt: j.startedAt ?? null,
  completedAt: j.completedAt ?? null,
  abortedAt: j.abortedAt ?? null,
  assignedAt: j.assignedAt ?? null,
  removedAssetId: j.removedAssetId ?? null,
  mergedIntoJobId: j.mergedIntoJobId ?? null,
  pickupOrderId: j.pickupOrderId ?? null,
  lastLat: j.lastLat ?? null,
  lastLng: j.lastLng ?? null,
  lastLocationAt: j.lastLocationAt ?? null,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
});

const row = (n: NamedJob): JobRow => ({ ...view(n.job), driverName: n.driverName, ...(n.arrival !== undefined ? { arrival: n.arrival } : {}) });

/**
 * The job rows (domain.md §5): every read and write of the `jobs` table goes through here (its SQL in
 * `JobRepository`). Writes run in the caller's unit of work (`UnitOfWork#transaction`; a locked job is
 * passed on as a `JobView`, and what is written of it stays within its company). Jobs know nothing of
 * orders' rules: orders decide which jobs to create, move or abort, and ask this service to do it. A
 * method named for an order reaches the jobs of the scope's company (the caller reached the order with
 * its scope); the lists apply the tenant policy (a driver: their own jobs).
 */
@Injectable()
export class JobsService implements OnModuleInit {
  constructor(
    private readonly repo: JobRepository,
    private readonly arrivals: JobArrivalRepository,
    private readonly assets: AssetsService,
    private readonly inUse: InUseRegistry,
  ) {}

  /** Live (unfinished) jobs keep the lots, addresses, trucks and assets they point at from deletion. */
  onModuleInit(): void {
    // The registry names the record by its id alone (no tenant): the check is a lookup of any company's jobs pointing at it.
    const reach = SystemReach.of('in-use check of a record named by its id');
    this.inUse.register('lot', 'jobs', 'an unfinished job from or to the lot', (_m, id) => this.repo.unfinishedUses(reach, 'lotId', id));
    this.inUse.register('customer_address', 'jobs', 'an unfinished relocation job to the address', (_m, id) => this.repo.unfinishedUses(reach, 'destinationAddressId', id));
    this.inUse.register('truck', 'jobs', 'an unfinished job with the truck', (_m, id) => this.repo.unfinishedUses(reach, 'truckId', id));
    this.inUse.register('asset', 'jobs', 'an unfinished job with the asset', (_m, id) => this.repo.unfinishedUses(reach, 'assetId', id));
  }

  /** Creates an unassigned job of the scope's company (event `job.created`). */
  async create(scope: Scope, j: NewJob): Promise<JobView> {
    return (await this.createMany(scope, [j]))[0];
  }

  /** New unassigned jobs of the scope's company in one INSERT, with their `job.created` events in one more. */
  async createMany(scope: Scope, jobs: NewJob[]): Promise<JobView[]> {
    if (!jobs.length) return [];
    const rows = await this.repo.insert(
      scope,
      jobs.map((j) => ({
        orderId: j.orderId,
        type: j.type,
        status: 'unassigned' as const,
        scheduledDate: j.scheduledDate,
        lotId: j.lotId,
        changeRequestId: j.changeRequestId ?? null,
        destinationAddressId: j.destinationAddressId ?? null,
        // A swap added to one order takes that order's container back.
        pickupOrderId: j.type === 'swap' ? j.orderId : null,
      })),
    );
    await this.repo.recordEvents(
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

  /** The order's latest unfinished job of a type, locked for the rest of the unit; null when none. */
  async unfinished(scope: Scope, orderId: string, type: JobType): Promise<JobView | null> {
    const job = await this.repo.latestUnfinishedLocked(scope, orderId, type);
    return job && view(job);
  }

  /** Moves a job of the scope's company to another date. */
  async reschedule(scope: Scope, jobId: string, scheduledDate: string): Promise<void> {
    await this.repo.update(scope, jobId, { scheduledDate });
  }

  /** Aborts jobs of the scope's company (reason, history rows, `job.aborted` events) and releases the assets they reserved. */
  async abort(scope: Scope, jobs: readonly JobView[], reason: string, actor: JobActor = 'system'): Promise<void> {
    if (jobs.length === 0) return;
    for (const j of jobs) if (!JOB_TRANSITIONS[j.status].includes('aborted')) throw ApiError.invalidTransition(j.status, 'aborted', 'Job');
    await this.repo.update(
      scope,
      jobs.map((j) => j.id),
      { status: 'aborted', abortReason: reason, abortedAt: new Date() },
    );
    await this.assets.releaseReserved(scope, jobs.filter((j) => !!j.assetId).map((j) => ({ assetId: j.assetId!, orderId: j.orderId })));
    await this.recordMoves(scope, jobs.map((j) => ({ job: j, to: 'aborted' as const })), actor, reason);
  }

  /** Aborts every unfinished job of the order (locked first). */
  async abortUnfinished(scope: Scope, orderId: string, reason: string): Promise<void> {
    const jobs = await this.repo.unfinishedOfOrderLocked(scope, orderId, false);
    await this.abort(scope, jobs.map(view), reason);
  }

  /** Takes the reserved asset off a job (locked by the caller) and releases it (an asset already out keeps its status). */
  async unreserveAsset(job: JobView): Promise<void> {
    if (!job.assetId) return;
    await this.repo.update(Scope.company(job.companyId), job.id, { assetId: null });
    await this.assets.releaseReserved(Scope.company(job.companyId), [{ assetId: job.assetId, orderId: job.orderId }]);
  }

  /** The order's jobs, by date then creation. */
  async listForOrder(scope: Scope, orderId: string): Promise<JobView[]> {
    return (await this.repo.ofOrder(scope, orderId)).map(view);
  }

  /** Whether `scope` reaches a job on the order (a driver: one of their own, now or before). */
  async reachesOrder(scope: Scope, orderId: string): Promise<boolean> {
    return (await this.repo.countOnOrder(scope, orderId)) > 0;
  }

  /** A job `scope` reaches, locked for the rest of the unit; 404 otherwise (another company's, another driver's, absent). */
  async lock(scope: Scope, id: string): Promise<JobView> {
    return view(await this.repo.findScoped(scope, id, true));
  }

  /** A job `scope` reaches (no lock); 404 otherwise. */
  async find(scope: Scope, id: string): Promise<JobView> {
    return view(await this.repo.findScoped(scope, id));
  }

  /**
   * A status move (checked against JOB_TRANSITIONS, else 409 INVALID_TRANSITION), stamping its time
   * column, with `set` written in the same UPDATE, a history row and a `job.<status>` event. The job
   * must be locked by the caller (`lock`). Returns the job as it now is.
   */
  async move(job: JobView, to: JobStatus, actor: JobActor, set: JobChanges = {}, reason: string | null = null): Promise<JobView> {
    if (!JOB_TRANSITIONS[job.status].includes(to)) throw ApiError.invalidTransition(job.status, to, 'Job');
    const stamp = STAMP[to];
    const values: Partial<Job> = { ...set, status: to, ...(stamp ? { [stamp]: new Date() } : {}), ...(to === 'aborted' ? { abortReason: reason } : {}) };
    const company = Scope.company(job.companyId);
    await this.repo.update(company, job.id, values);
    const moved: JobView = { ...job, ...values, updatedAt: new Date() } as JobView;
    await this.recordMoves(company, [{ job: moved, to, from: job.status }], actor, reason);
    return moved;
  }

  /** Columns of a job (locked by the caller) other than its status (driver, truck, asset, date, sequence, notes, location…). Returns the job as it now is. */
  async change(job: JobView, set: JobChanges): Promise<JobView> {
    if (Object.keys(set).length) await this.repo.update(Scope.company(job.companyId), job.id, set as Partial<Job>);
    return { ...job, ...set, updatedAt: new Date() } as JobView;
  }

  /** Deletes a job row (locked by the caller; its history goes with it), with a `job.deleted` event. The caller checks that nothing depends on it. */
  async remove(job: JobView, actor: JobActor): Promise<void> {
    await this.repo.delete(Scope.company(job.companyId), job.id);
    await this.repo.recordEvents({ type: 'job.deleted', aggregateType: 'job', aggregateId: job.id, companyId: job.companyId, actorId: actor === 'system' ? null : actor.id, payload: { order_id: job.orderId, type: job.type } });
  }

  /** The status history of a job of the scope's company, oldest first. */
  async history(scope: Scope, jobId: string): Promise<{ from: JobStatus | null; to: JobStatus; driver_id: string | null; actor_id: string | null; actor_type: string; reason: string | null; at: string }[]> {
    const rows = await this.repo.statusChanges(scope, jobId);
    return rows.map((r) => ({ from: r.fromStatus, to: r.toStatus, driver_id: r.driverId, actor_id: r.actorId, actor_type: r.actorType, reason: r.reason, at: r.createdAt.toISOString() }));
  }

  // ── Company-side dispatch reads (assignment, lists, the job tree, the dispatch context) ──

  /**
   * A page of the jobs `scope` reaches, filtered and sorted in SQL (each filter and sort has an index:
   * migrations/1764200002000-DispatchCompany.ts), each with its driver's name: one statement, and the
   * count only when the page is full.
   */
  async page(scope: Scope, f: JobFilters, q: PageQuery): Promise<Page<JobRow>> {
    const page = await this.repo.page(scope, f, q);
    return new Page(page.items.map(row), page.meta);
  }

  /**
   * The jobs `scope` reaches scheduled from `from` to `to` (inclusive), with their drivers' names, by date,
   * driver, sequence and creation (one statement). `statuses` limits them; `driverIds` too; `arrivals`
   * adds each job's arrival times (`arrival`, null when none was computed) in the same statement.
   */
  async between(scope: Scope, from: string, to: string, o: { statuses?: readonly JobStatus[]; driverIds?: readonly string[]; arrivals?: boolean } = {}): Promise<JobRow[]> {
    if (o.driverIds && !o.driverIds.length) return [];
    return (await this.repo.between(scope, from, to, o)).map(row);
  }

  /** Per driver, the dates (ascending) on which they have jobs that were not aborted, optionally from/to (one statement). */
  async driverDates(scope: Scope, from?: string, to?: string): Promise<{ driverId: string; dates: string[] }[]> {
    const rows = await this.repo.driverDates(scope, from, to);
    return rows.map((r) => ({ driverId: r.driver_id, dates: Array.isArray(r.dates) ? r.dates : parsePgArray(r.dates) }));
  }

  /** The order's unassigned jobs, locked, in assignment order: the delivery first, then by date and creation. */
  async unassignedOfOrder(scope: Scope, orderId: string): Promise<JobView[]> {
    const jobs = await this.repo.unassignedOfOrderLocked(scope, orderId);
    const rank = (j: Job) => (j.type === 'delivery' ? 0 : 1);
    return jobs
      .sort((a, b) => rank(a) - rank(b) || a.scheduledDate.localeCompare(b.scheduledDate) || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map(view);
  }

  /** The order's unfinished jobs, locked (in id order, so that concurrent lockers queue instead of deadlocking). */
  async lockUnfinishedOfOrder(scope: Scope, orderId: string): Promise<JobView[]> {
    return (await this.repo.unfinishedOfOrderLocked(scope, orderId, true)).map(view);
  }

  /** The jobs among `ids` that `scope` reaches, locked in id order; the others are left out (the caller reports them). */
  async lockMany(scope: Scope, ids: readonly string[]): Promise<JobView[]> {
    if (!ids.length) return [];
    return (await this.repo.lockMany(scope, ids)).map(view);
  }

  /** A driver's jobs on a date (of `statuses`), in sequence then creation; no lock (lock them with `lockMany`). */
  async ofDriverDay(scope: Scope, driverId: string, date: string, statuses: readonly JobStatus[]): Promise<JobView[]> {
    return (await this.repo.ofDriverDay(scope, driverId, date, statuses)).map(view);
  }

  /** The next free sequence number on a driver's day in the scope's company (1 + the highest one; 1 on an empty day). */
  nextSequence(scope: Scope, driverId: string, date: string): Promise<number> {
    return this.repo.nextSequence(scope, driverId, date);
  }

  /** The jobs among `ids` that `scope` reaches, with their drivers' names, in the order of `ids` (no lock; one statement). */
  async rowsOf(scope: Scope, ids: readonly string[]): Promise<JobRow[]> {
    if (!ids.length) return [];
    const rows = (await this.repo.reached(scope, ids)).map(row);
    const byId = new Map(rows.map((j) => [j.id, j]));
    return ids.map((id) => byId.get(id)).filter((j): j is JobRow => !!j);
  }

  /** Per job among `ids` (of the scope's company), the pickups merged into it by route collapse (one statement). */
  async mergedIdsOf(scope: Scope, ids: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (!ids.length) return out;
    for (const r of await this.repo.mergedIdsOf(scope, ids)) out.set(r.mergedIntoJobId!, [...(out.get(r.mergedIntoJobId!) ?? []), r.id]);
    return out;
  }

  /** The jobs merged into `jobId` (of the scope's company), locked (to undo the merge when the swap is aborted). */
  async lockMergedInto(scope: Scope, jobId: string): Promise<JobView[]> {
    return (await this.repo.mergedIntoLocked(scope, jobId)).map(view);
  }

  /** Saves many jobs' sequence numbers (the scope's company's) in one UPDATE (route collapse); the jobs must be locked by the caller. */
  async setSequences(scope: Scope, sequences: readonly { id: string; sequence: number }[]): Promise<void> {
    if (sequences.length) await this.repo.setSequences(scope, sequences);
  }



  /** The drivers with a job on the order that is not aborted (the order's chat members; chats ask at each request). */
  async driversOnOrder(scope: Scope, orderId: string): Promise<string[]> {
    return this.repo.driversOnOrder(scope, orderId);
  }


  // ── end of company-side dispatch reads ──

  // ── Driver-side reads (the driver's jobs, tracking, history, an order's jobs) ──

  /**
   * A driver's jobs on a date (`scope`: the driver), in sequence (unsequenced last, then by id), merged
   * pickups left out (they show under their swap). Served by idx_jobs_driver_date.
   */
  async driverDay(scope: Scope, date: string, q: PageQuery): Promise<Page<JobView>> {
    const page = await this.repo.driverDay(scope, date, q);
    return new Page(page.items.map(view), page.meta);
  }

  /** Jobs (of the scope's company) merged into these swaps by route collapse, oldest first; `lock`: FOR UPDATE for the rest of the unit. */
  async mergedInto(scope: Scope, swapIds: readonly string[], lock = false): Promise<JobView[]> {
    if (!swapIds.length) return [];
    return (await this.repo.mergedInto(scope, swapIds, lock)).map(view);
  }

  /**
   * A driver's finished jobs (completed or aborted), newest first by when they finished, optionally of
   * one status. Served by idx_jobs_driver_finished.
   */
  async driverHistory(scope: Scope, q: PageQuery & { status?: 'completed' | 'aborted' }): Promise<Page<JobView>> {
    const page = await this.repo.driverHistory(scope, q);
    return new Page(page.items.map(view), page.meta);
  }

  /** How many of the driver's jobs on a date are in each status (merged pickups included). One statement. */
  async driverCounts(scope: Scope, date: string): Promise<Record<JobStatus, number>> {
    const counts: Record<JobStatus, number> = { unassigned: 0, assigned: 0, in_progress: 0, completed: 0, aborted: 0 };
    for (const r of await this.repo.driverCounts(scope, date)) counts[r.status] = Number(r.n);
    return counts;
  }

  /** The driver's job in progress (the latest started), whatever its date; null when none. */
  async driverCurrent(scope: Scope): Promise<JobView | null> {
    const job = await this.repo.driverCurrent(scope);
    return job ? view(job) : null;
  }

  /** The driver's assigned (not started) jobs on a date, in sequence, merged pickups left out; at most `limit`. */
  async driverNext(scope: Scope, date: string, limit: number): Promise<JobView[]> {
    return (await this.repo.driverNext(scope, date, limit)).map(view);
  }


  /** Whether the driver has a job in progress (of the scope's company) other than these (a driver works one job, with its merged pickups, at a time). */
  async driverBusy(scope: Scope, driverId: string, exceptJobIds: readonly string[]): Promise<boolean> {
    return this.repo.driverBusy(scope, driverId, exceptJobIds);
  }

  /**
   * The assets an order has on site now, oldest first, as its completed jobs left them: a delivery or
   * swap puts its `asset_id` there, a swap or pickup takes its `removed_asset_id` away (dump-returns and
   * relocations keep the same asset). "The order's on-site asset" is the last of them.
   */
  async onSiteAssets(scope: Scope, orderId: string): Promise<string[]> {
    const onSite: string[] = [];
    for (const j of await this.repo.completedOfOrder(scope, orderId)) {
      const removed = j.removedAssetId && (j.type === 'pickup' || j.type === 'swap') ? onSite.indexOf(j.removedAssetId) : -1;
      if (removed >= 0) onSite.splice(removed, 1);
      if (j.assetId && (j.type === 'delivery' || j.type === 'swap') && !onSite.includes(j.assetId)) onSite.push(j.assetId);
    }
    return onSite;
  }
  // ── end of driver-side reads ──

  // ── Arrival times (issue #26): dispatch recomputes a driver's day in the relay and keeps them here ──

  /** Serialises the recomputations of a driver's day (of the scope's company) until the unit commits. */
  serialiseArrivals(scope: Scope, driverId: string, date: string): Promise<void> {
    return this.arrivals.serialiseDay(scope, driverId, date);
  }

  /** The arrival rows of a driver's day (null: none) and of `jobIds` whatever day they were computed for (one statement). */
  arrivalsOf(scope: Scope, day: { driverId: string; date: string } | null, jobIds: readonly string[]): Promise<ArrivalWrite[]> {
    return this.arrivals.ofDay(scope, day?.driverId ?? null, day?.date ?? null, jobIds);
  }

  /** Writes recomputed arrival rows (one statement) and deletes those of `gone` (jobs that left the day). */
  async saveArrivals(scope: Scope, rows: readonly ArrivalWrite[], gone: readonly string[] = []): Promise<void> {
    await this.arrivals.save(scope, rows);
    await this.arrivals.remove(scope, gone);
  }

  /** History rows (one INSERT) and `job.<status>` events (one more) for status moves of the scope's company's jobs. */
  private async recordMoves(scope: Scope, moves: { job: JobView; to: JobStatus; from?: JobStatus }[], actor: JobActor, reason: string | null): Promise<void> {
    const actorId = actor === 'system' ? null : actor.id;
    const actorType = actor === 'system' ? 'system' : actor.type;
    await this.repo.insertStatusChanges(
      scope,
      moves.map(({ job, to, from }) => ({ jobId: job.id, fromStatus: from ?? job.status, toStatus: to, driverId: job.driverId, actorId, actorType, reason })),
    );
    await this.repo.recordEvents(
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
