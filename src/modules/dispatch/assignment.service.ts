import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { AssetsService, ContainerCalendar } from '../catalogue';
import { CompaniesService } from '../companies';
import { DriversService } from '../drivers';
import { TrucksService } from '../fleet';
import { JobsService, type JobChanges, type JobView } from '../jobs';
import { OrderOperations, type OrderForJobs } from '../orders';
import { OpeningCalendar } from '../sites';
import { DriverLeaveCheck } from './assignment-leave-check';
import type { AssignDriverDto, AssignmentResultDto, MultiReassignDto, ReassignOrderDto } from './assignment.dto';
import type { BulkUpdateJobsDto, CompanyJobDto, UpdateCompanyJobDto } from './company-jobs.dto';
import { CompanyJobsService } from './company-jobs.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobFactsRepository } from './job-facts.repository';
import { crossedEnd, heldDaysOf, HOLD_MOVERS, type HeldDays } from './container-hold';

/** Job types that take a reserved asset at assignment (the container they bring). */
export const RESERVING_TYPES: readonly string[] = ['delivery', 'swap'];
/** Order statuses in which its jobs may be assigned or changed. */
const LIVE_ORDER: readonly string[] = ['approved', 'scheduled', 'delivered'];

/** Who acts and when: the company, its user, and the company's local date today. */
export interface DispatchCtx {
  companyId: string;
  /** The company's scope (`Scope.company`): what dispatch's reads and the other modules' checks take. */
  scope: Scope;
  actor: Actor;
  today: string;
}

/** What a change asks of one job (undefined = unchanged). */
export interface JobTarget {
  driverId?: string;
  truckId?: string;
  assetId?: string;
  date?: string;
  sequence?: number;
  notes?: string | null;
}

/** Body field names of one job's change: `driver_id`, or `items.3.driver_id` in a bulk. */
type Fields = (name: string) => string;
const plain: Fields = (name) => name;

const fieldNames: Record<string, string> = { driverId: 'driver_id', truckId: 'truck_id', assetId: 'asset_id', scheduledDate: 'scheduled_date', sequence: 'sequence', notes: 'notes', type: 'type', mergedIntoJobId: 'merged_into_job_id' };

/**
 * Assignment and every other change of a job's driver, truck, asset, date or sequence (domain.md §5),
 * with one set of rules (`placeJob`): the driver active and of the company (422 naming the field), not on
 * leave that day (422 `DRIVER_ON_LEAVE`, `DriverLeaveCheck`); the truck active and of a type that carries
 * the order's specification (422 with the reason); delivery and swap reserve an asset (the chosen one or
 * the first free one of the specification, those based at the job's lot first; 409 `ASSET_UNAVAILABLE`,
 * race-free in `AssetsService.reserve`); a new date today or later with the job's lot open (422
 * `HOLIDAY`/`CLOSED_DAY`/`INACTIVE`). The first assignment of an order's delivery schedules the order.
 * Every request is one transaction that locks the orders first (in id order), then the jobs (in id
 * order), so concurrent requests queue instead of deadlocking.
 */
@Injectable()
export class AssignmentService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly jobs: JobsService,
    private readonly orders: OrderOperations,
    private readonly assets: AssetsService,
    private readonly drivers: DriversService,
    private readonly trucks: TrucksService,
    private readonly calendar: OpeningCalendar,
    private readonly leave: DriverLeaveCheck,
    private readonly companies: CompaniesService,
    private readonly views: CompanyJobsService,
    private readonly events: JobFactsRepository,
    private readonly containers: ContainerCalendar,
  ) {}

  async ctx(actor: Actor): Promise<DispatchCtx> {
    const scope = Scope.of(actor);
    return { companyId: scope.companyId, scope: Scope.company(scope.companyId), actor, today: todayIn(scope.timezone ?? (await this.companies.timezone(scope))) };
  }

  // ------------------------------------------------------------ routes

  /** `POST /driver/assign/{order}`: the order's next unassigned job (delivery first, then by date). */
  async assign(actor: Actor, orderId: string, dto: AssignDriverDto): Promise<AssignmentResultDto> {
    const c = await this.ctx(actor);
    const id = await this.uow.transaction(async () => {
      const order = await this.liveOrder(c, orderId);
      const [job] = await this.jobs.unassignedOfOrder(c.scope, order.id);
      if (!job) throw ApiError.conflict('NOTHING_TO_ASSIGN', 'The order has no unassigned job.');
      await this.placeJob(c, order, job, { driverId: dto.driver_id, truckId: dto.truck_id, assetId: dto.asset_id, date: dto.date, sequence: dto.sequence });
      return job.id;
    });
    return { jobs: await this.views.render(c.scope, [id]) };
  }

  /**
   * `POST /order/jobs/{driverJob}/assign` (extension, issue #25): one unassigned job by id (a pickup on its own, say),
   * with the assignment rules; the order locked first, then the job, as every dispatch write.
   */
  async assignJob(actor: Actor, jobId: string, dto: AssignDriverDto): Promise<AssignmentResultDto> {
    const c = await this.ctx(actor);
    await this.uow.transaction(async () => {
      const found = await this.jobs.find(c.scope, jobId);
      const order = await this.liveOrder(c, found.orderId);
      const job = await this.jobs.lock(c.scope, jobId);
      if (job.status !== 'unassigned') {
        throw ApiError.conflict('INVALID_TRANSITION', `The job is ${job.status}, not unassigned: move an assigned job with POST /driver/reassign/{order} or PUT /order/jobs/{driverJob}.`);
      }
      await this.placeJob(c, order, job, { driverId: dto.driver_id, truckId: dto.truck_id, assetId: dto.asset_id, date: dto.date, sequence: dto.sequence });
    });
    return { jobs: await this.views.render(c.scope, [jobId]) };
  }

  /** `POST /driver/reassign/{order}`: the order's assigned jobs, or the listed ones, to another driver (and truck). */
  async reassign(actor: Actor, orderId: string, dto: ReassignOrderDto): Promise<AssignmentResultDto> {
    const c = await this.ctx(actor);
    const ids = await this.uow.transaction(async () => {
      const order = await this.liveOrder(c, orderId);
      const unfinished = await this.jobs.lockUnfinishedOfOrder(c.scope, order.id);
      let targets: JobView[];
      if (dto.job_ids?.length) {
        // The order's unfinished jobs are locked already: passed on; only the other listed ids are locked (and read) here.
        const mine = unfinished.filter((j) => dto.job_ids!.includes(j.id));
        const all = [...mine, ...(await this.jobs.lockMany(c.scope, dto.job_ids.filter((id) => !mine.some((j) => j.id === id))))];
        const errors: Record<string, string[]> = {};
        dto.job_ids.forEach((id, i) => {
          const j = all.find((x) => x.id === id);
          if (!j) errors[`job_ids.${i}`] = ['not found'];
          else if (j.orderId !== order.id) errors[`job_ids.${i}`] = ['is not a job of this order'];
        });
        if (Object.keys(errors).length) throw ApiError.validation(errors);
        targets = dto.job_ids.map((id) => all.find((x) => x.id === id)!);
      } else {
        // In the order of their days: date, then their sequence, then creation (the new driver's day gets them in that order).
        targets = unfinished
          .filter((j) => j.status === 'assigned')
          .sort((a, b) => a.scheduledDate.localeCompare(b.scheduledDate) || (a.sequence ?? 1e9) - (b.sequence ?? 1e9) || a.createdAt.getTime() - b.createdAt.getTime());
        if (!targets.length) throw ApiError.conflict('NOTHING_TO_REASSIGN', 'The order has no assigned job to move.');
      }
      for (const j of targets) assertMovable(j);
      for (const [i, j] of targets.entries()) {
        await this.placeJob(c, order, j, { driverId: dto.driver_id, truckId: dto.truck_id }, dto.job_ids?.length ? (f) => (f === 'driver_id' || f === 'truck_id' ? f : `job_ids.${i}`) : plain);
      }
      return targets.map((j) => j.id);
    });
    return { jobs: await this.views.render(c.scope, ids) };
  }

  /** `POST /multi/reassign`: a driver's assigned jobs of a day, or listed jobs, to another driver; all or nothing. */
  async multiReassign(actor: Actor, dto: MultiReassignDto): Promise<AssignmentResultDto> {
    const c = await this.ctx(actor);
    const byDriver = !!dto.from_driver_id || !!dto.date;
    if (byDriver && dto.job_ids) throw ApiError.validation({ job_ids: ['give either job_ids or from_driver_id with date, not both'] });
    if (!byDriver && !dto.job_ids) throw ApiError.validation({ job_ids: ['give job_ids, or from_driver_id with date'] });
    if (byDriver && !dto.from_driver_id) throw ApiError.validation({ from_driver_id: ['is required with date'] });
    if (byDriver && !dto.date) throw ApiError.validation({ date: ['is required with from_driver_id'] });
    const ids = await this.uow.transaction(async () => {
      let wanted: string[];
      if (byDriver) {
        await this.drivers.assertOwned(c.scope, [{ field: 'from_driver_id', id: dto.from_driver_id }]);
        wanted = (await this.jobs.ofDriverDay(c.scope, dto.from_driver_id!, dto.date!, ['assigned'])).map((j) => j.id);
        if (!wanted.length) throw ApiError.conflict('NOTHING_TO_REASSIGN', `The driver has no assigned job on ${dto.date}.`);
      } else {
        wanted = dto.job_ids!;
      }
      const jobs = await this.lockJobsWithOrders(c, wanted, (i) => (byDriver ? 'from_driver_id' : `job_ids.${i}`));
      // Locked now: a job that moved meanwhile (started, reassigned) is no longer the driver's assigned job of that day.
      const targets = byDriver ? jobs.filter(({ job }) => job.status === 'assigned' && job.driverId === dto.from_driver_id && job.scheduledDate === dto.date) : jobs;
      if (!targets.length) throw ApiError.conflict('NOTHING_TO_REASSIGN', 'No job left to move.');
      for (const { job } of targets) assertMovable(job);
      for (const [i, { job, order }] of targets.entries()) {
        await this.placeJob(c, order, job, { driverId: dto.driver_id, truckId: dto.truck_id }, (f) => (f === 'driver_id' || f === 'truck_id' || byDriver ? f : `job_ids.${i}`));
      }
      return targets.map(({ job }) => job.id);
    });
    return { jobs: await this.views.render(c.scope, ids) };
  }

  /** `PUT /order/jobs/{driverJob}`: driver, truck, date, sequence, notes of one job. */
  async update(actor: Actor, jobId: string, dto: UpdateCompanyJobDto): Promise<CompanyJobDto> {
    const c = await this.ctx(actor);
    await this.uow.transaction(async () => {
      const found = await this.jobs.find(c.scope, jobId);
      const order = await this.orders.lock(c.scope, found.orderId);
      const job = await this.jobs.lock(c.scope, jobId);
      await this.placeJob(c, order, job, targetOf(dto));
    });
    return (await this.views.render(c.scope, [jobId]))[0];
  }

  /** `PUT /order/jobs/bulk`: many jobs, all or nothing, the same rules as one. */
  async bulk(actor: Actor, dto: BulkUpdateJobsDto): Promise<CompanyJobDto[]> {
    const c = await this.ctx(actor);
    const ids = dto.items.map((i) => i.job_id.toLowerCase());
    const seen = new Map<string, number>();
    const dupes: Record<string, string[]> = {};
    ids.forEach((id, i) => (seen.has(id) ? (dupes[`items.${i}.job_id`] = [`repeats items.${seen.get(id)}.job_id`]) : seen.set(id, i)));
    if (Object.keys(dupes).length) throw ApiError.validation(dupes);
    await this.uow.transaction(async () => {
      const jobs = await this.lockJobsWithOrders(c, ids, (i) => `items.${i}.job_id`);
      for (const [i, item] of dto.items.entries()) {
        const { job, order } = jobs[i];
        await this.placeJob(c, order, job, targetOf(item), (f) => `items.${i}.${f}`);
      }
    });
    return this.views.render(c.scope, ids);
  }

  // ------------------------------------------------------------ the rules

  /**
   * Applies `t` to a locked job of a locked order: checks (driver, leave, truck, date, asset), reserves
   * the asset of a delivery or swap, moves an unassigned job with a driver to `assigned` (history and
   * `job.assigned`; a delivery schedules its order), and records `job.reassigned` / `job.updated` for
   * other changes. Returns the job as it now is.
   */
  async placeJob(c: DispatchCtx, order: OrderForJobs, job: JobView, target: JobTarget, f: Fields = plain): Promise<JobView> {
    const t: JobTarget = { ...target, driverId: target.driverId?.toLowerCase(), truckId: target.truckId?.toLowerCase(), assetId: target.assetId?.toLowerCase() };
    if (job.status === 'completed' || job.status === 'aborted') throw ApiError.conflict('INVALID_TRANSITION', `A ${job.status} job cannot be changed.`);
    const driverChanges = t.driverId !== undefined && t.driverId !== job.driverId;
    const truckChanges = t.truckId !== undefined && t.truckId !== job.truckId;
    const dateChanges = t.date !== undefined && t.date !== job.scheduledDate;
    const assetChanges = t.assetId !== undefined && t.assetId !== job.assetId;
    if (job.status === 'in_progress' && (driverChanges || truckChanges || dateChanges || assetChanges)) {
      throw ApiError.conflict('INVALID_TRANSITION', 'A job in progress keeps its driver, truck, asset and date; only its sequence and notes can change.');
    }
    const driverId = t.driverId ?? job.driverId;
    const truckId = t.truckId ?? job.truckId;
    const date = t.date ?? job.scheduledDate;
    const assigning = job.status === 'unassigned' && !!driverId;
    const errors: Record<string, string[]> = {};
    if (assigning && !truckId) errors[f('truck_id')] = ['is required to assign the job'];
    if (assetChanges && !RESERVING_TYPES.includes(job.type)) errors[f('asset_id')] = [`a ${job.type} job takes no reserved asset (only delivery and swap do)`];
    if (assetChanges && !driverId) errors[f('asset_id')] = ['is reserved when the job is assigned: give driver_id and truck_id too'];
    if (dateChanges && date < c.today) errors[f('date')] = [`must not be in the past (today is ${c.today})`];
    if (dateChanges && job.type !== 'delivery' && date < (order.deliveredOn ?? order.deliveryDate)) errors[f('date')] = [`must not be before the order's delivery date ${order.deliveredOn ?? order.deliveryDate}`];
    // The container calendar: the order's hold covers the days its container is out, its delivery job's date to its pickup job's.
    const pins = assetChanges || (assigning && RESERVING_TYPES.includes(job.type) && !job.assetId);
    const held = pins || (dateChanges && HOLD_MOVERS.includes(job.type)) ? await this.heldDays(c, order, job, date) : null;
    const crossed = dateChanges && held ? crossedEnd(job.type, date, held) : null;
    if (crossed) errors[f('date')] = [crossed];
    if (Object.keys(errors).length) throw ApiError.validation(errors);
    if (dateChanges && job.lotId) await this.calendar.assertOpen('lot', job.lotId, c.scope, date, f('date'));
    if (driverId && (assigning || driverChanges || dateChanges)) {
      await this.drivers.assertActive(c.scope, [{ field: f('driver_id'), id: driverId }]);
      await this.leave.assertAvailable(c.scope, driverId, date, f('driver_id'));
    }
    if (truckId && (assigning || truckChanges)) await this.trucks.assertCarries(c.scope, [{ field: f('truck_id'), id: truckId, specificationId: order.assetSpecificationId }]);

    let assetId = job.assetId;
    if (assetChanges) {
      await this.assertAssetOfCompany(c, t.assetId!, f('asset_id'));
      if (job.assetId) await this.assets.releaseReserved(c.scope, [{ assetId: job.assetId, orderId: order.id }]);
      assetId = await this.reserveAsset(c, order, job, held!, t.assetId!);
    } else if (assigning && RESERVING_TYPES.includes(job.type) && !job.assetId) {
      assetId = await this.reserveAsset(c, order, job, held!, null);
    } else if (dateChanges && held && HOLD_MOVERS.includes(job.type)) {
      // A moved delivery or pickup moves the hold (409 NO_CONTAINER_AVAILABLE when none is free on the new days); the order's dates stay.
      await this.containers.hold(c.scope, { orderId: order.id, specificationId: order.assetSpecificationId, lotId: order.lotId, ...held });
    }

    const set: JobChanges = {};
    if (driverId !== job.driverId) set.driverId = driverId;
    if (truckId !== job.truckId) set.truckId = truckId;
    if (assetId !== job.assetId) set.assetId = assetId;
    if (dateChanges) set.scheduledDate = date;
    if (t.notes !== undefined && t.notes !== job.notes) set.notes = t.notes;
    if (t.sequence !== undefined && t.sequence !== job.sequence) set.sequence = t.sequence;
    else if (t.sequence === undefined && driverId && (assigning || driverChanges || dateChanges)) set.sequence = await this.jobs.nextSequence(c.scope, driverId, date);

    if (assigning) {
      const moved = await this.jobs.move(job, 'assigned', c.actor, set);
      if (job.type === 'delivery') await this.orders.scheduled(c.scope, order, c.actor);
      return moved;
    }
    if (!Object.keys(set).length) return job;
    const changed = await this.jobs.change(job, set);
    const events = [];
    if (driverChanges) events.push({ type: 'job.reassigned' as const, aggregateType: 'job', aggregateId: job.id, companyId: c.companyId, actorId: c.actor.id, payload: { order_id: job.orderId, from_driver_id: job.driverId, to_driver_id: driverId } });
    const fields = Object.keys(set).filter((k) => !(driverChanges && k === 'driverId'));
    if (fields.length) events.push({ type: 'job.updated' as const, aggregateType: 'job', aggregateId: job.id, companyId: c.companyId, actorId: c.actor.id, payload: { order_id: job.orderId, fields: fields.map((k) => fieldNames[k] ?? k) } });
    if (events.length) await this.events.recordEvents(...events);
    return changed;
  }

  // ------------------------------------------------------------ helpers

  /**
   * The container calendar's one call of assignment: the asset a delivery or swap brings, pinned on its
   * order's hold over `held` (the chosen one, or the first free one); 409 `NO_CONTAINER_AVAILABLE`
   * naming the days when none is free, `ASSET_UNAVAILABLE` when the chosen one is not (AssetsService#reserve).
   */
  private reserveAsset(c: DispatchCtx, order: OrderForJobs, job: JobView, held: HeldDays, assetId: string | null): Promise<string> {
    return this.assets.reserve({ companyId: c.companyId, orderId: order.id, specificationId: order.assetSpecificationId, lotId: job.lotId, assetId, jobId: job.id, ...held });
  }

  /** The days the order's container is out once `job` is on `date` (`heldDaysOf`: a swap of a delivered order changes neither end). */
  private async heldDays(c: DispatchCtx, order: OrderForJobs, job: JobView, date: string): Promise<HeldDays> {
    return heldDaysOf(order, (await this.jobs.listForOrder(c.scope, order.id)).map((j) => (j.id === job.id ? { ...j, scheduledDate: date } : j)));
  }

  /** The company's order, locked; 404 otherwise; 409 `ORDER_STATE` when it is not approved, scheduled or delivered. */
  private async liveOrder(c: DispatchCtx, orderId: string): Promise<OrderForJobs> {
    const order = await this.orders.lock(c.scope, orderId);
    assertLiveOrder(order);
    return order;
  }

  /**
   * Jobs named in a body, with their orders: read, then the orders locked in id order, then the jobs in
   * id order (the lock order of every dispatch write). Missing ones are 422 on `field(i)`. Returned in
   * the order of `ids`.
   */
  private async lockJobsWithOrders(c: DispatchCtx, ids: readonly string[], field: (i: number) => string): Promise<{ job: JobView; order: OrderForJobs }[]> {
    const read = await this.jobs.rowsOf(c.scope, ids);
    const missing = ids.map((id, i) => (read.some((j) => j.id === id) ? null : i)).filter((i): i is number => i !== null);
    if (missing.length) throw ApiError.validation(Object.fromEntries(missing.map((i) => [field(i), ['not found']])));
    const orders = await this.orders.lockMany(c.scope, read.map((j) => j.orderId));
    const locked = await this.jobs.lockMany(c.scope, ids);
    return ids.map((id) => {
      const job = locked.find((j) => j.id === id)!;
      const order = orders.get(job.orderId)!;
      assertLiveOrder(order);
      return { job, order };
    });
  }

  /** A chosen asset must be the company's (422 naming the field); whether it is free is `reserve`'s answer (409). */
  private async assertAssetOfCompany(c: DispatchCtx, assetId: string, field: string): Promise<void> {
    try {
      await this.assets.get(c.scope, assetId);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'NOT_FOUND') throw ApiError.validation({ [field]: ['not found'] });
      throw e;
    }
  }
}

function assertLiveOrder(order: OrderForJobs): void {
  if (!LIVE_ORDER.includes(order.status)) throw ApiError.conflict('ORDER_STATE', `The jobs of a ${order.status} order cannot be assigned or changed.`);
}

/** Reassignment moves jobs not started yet (unassigned or assigned). */
function assertMovable(j: JobView): void {
  if (j.status !== 'unassigned' && j.status !== 'assigned') {
    throw ApiError.conflict('INVALID_TRANSITION', j.status === 'in_progress' ? 'A job in progress stays with its driver.' : `A ${j.status} job cannot be reassigned.`);
  }
}

const targetOf = (d: UpdateCompanyJobDto): JobTarget => ({ driverId: d.driver_id, truckId: d.truck_id, date: d.date, sequence: d.sequence, notes: d.notes });
