import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { AssetsService, ContainerCalendar } from '../catalogue';
import { CompaniesService } from '../companies';
import { CustomerAddressesService } from '../customers';
import { JobsService, type JobRow, type JobStatus } from '../jobs';
import { OrderOperations, type OrderForJobs } from '../orders';
import { OpeningCalendar } from '../sites';
import {
  AbortCompanyJobDto,
  CompanyJobDetailDto,
  CompanyJobDto,
  CompanyJobQuery,
  CompanyJobWithFeeDto,
  CreateCompanyJobDto,
  DispatchOrderDto,
  JobTreeDayDto,
  JobTreeQuery,
} from './company-jobs.dto';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobFactsRepository } from './job-facts.repository';
import { crossedEnd, heldDaysOf } from './container-hold';

/** The longest range of the job tree, in days after `from`. */
export const MAX_TREE_DAYS = 31;
/** The fee line a company-added job brings (the price book frozen on the order decides the amount; 0 = none). */
const FEE_OF = { swap: 'swap_fee', dump_return: 'dump_return_fee', relocate: 'relocation_fee' } as const;
const LIVE_ORDER: readonly string[] = ['approved', 'scheduled', 'delivered'];

/** Whole days from `a` to `b` (YYYY-MM-DD). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(b + 'T00:00:00Z') - Date.parse(a + 'T00:00:00Z')) / 86_400_000);

/**
 * The company's jobs (domain.md §5): lists, the tree (date → driver → sequence), one job, and the
 * writes that are not assignment: adding a job to an order, deleting an unassigned one nothing depends
 * on, aborting one. Job rows are read and written through JobsService, orders through OrderOperations.
 */
@Injectable()
export class CompanyJobsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly facts: JobFactsRepository,
    private readonly jobs: JobsService,
    private readonly orders: OrderOperations,
    private readonly assets: AssetsService,
    private readonly addresses: CustomerAddressesService,
    private readonly calendar: OpeningCalendar,
    private readonly companies: CompaniesService,
    private readonly containers: ContainerCalendar,
  ) {}

  /** The company's date today (the time zone the caller's query brought, else read). */
  async today(scope: Scope): Promise<string> {
    return todayIn(scope.timezone ?? (await this.companies.timezone(scope)));
  }

  // ------------------------------------------------------------ reads

  /** Jobs by id as the routes show them, in the order of `ids` (two statements: the jobs with names, their orders). */
  async render(scope: Scope, ids: readonly string[]): Promise<CompanyJobDto[]> {
    return this.withOrders(scope, await this.jobs.rowsOf(Scope.company(scope.companyId), ids));
  }

  /** Job rows with their orders (one statement for the orders). */
  async withOrders(scope: Scope, rows: readonly JobRow[]): Promise<CompanyJobDto[]> {
    const orders = await this.orders.many(Scope.company(scope.companyId), rows.map((j) => j.orderId));
    return rows.map((j) => CompanyJobDto.of(j, orders.get(j.orderId)));
  }

  /** `GET /jobs`, `GET /order/jobs/all`: a page of the company's jobs (page, count when full, orders). */
  async list(scope: Scope, q: CompanyJobQuery): Promise<Page<CompanyJobDto>> {
    if (q.from && q.to && q.from > q.to) throw ApiError.validation({ to: ['must not be before from'] });
    const page = await this.jobs.page(Scope.company(scope.companyId), { from: q.from, to: q.to, driverId: q.driver_id, status: q.status, type: q.type, orderId: q.order_id }, q);
    return new Page(await this.withOrders(scope, page.items), page.meta);
  }

  /** `GET /order/jobs`: days → drivers (unassigned jobs first, then drivers by name) → jobs in sequence. */
  async tree(scope: Scope, q: JobTreeQuery): Promise<JobTreeDayDto[]> {
    const { from, to } = await this.range(scope, q);
    const statuses: JobStatus[] = q.include_aborted ? ['unassigned', 'assigned', 'in_progress', 'completed', 'aborted'] : ['unassigned', 'assigned', 'in_progress', 'completed'];
    const rows = await this.jobs.between(Scope.company(scope.companyId), from, to, { statuses, driverIds: q.driver_id ? [q.driver_id] : undefined });
    const views = await this.withOrders(scope, rows);
    const days = new Map<string, Map<string, { driver_id: string | null; driver_name: string | null; jobs: CompanyJobDto[] }>>();
    for (const j of views) {
      const day = days.get(j.scheduled_date) ?? days.set(j.scheduled_date, new Map()).get(j.scheduled_date)!;
      const key = j.driver_id ?? '';
      const group = day.get(key) ?? day.set(key, { driver_id: j.driver_id, driver_name: j.driver_name, jobs: [] }).get(key)!;
      group.jobs.push(j);
    }
    const byName = (a: { driver_id: string | null; driver_name: string | null }, b: typeof a) =>
      (a.driver_id === null ? -1 : 0) - (b.driver_id === null ? -1 : 0) || (a.driver_name ?? '').localeCompare(b.driver_name ?? '') || (a.driver_id ?? '').localeCompare(b.driver_id ?? '');
    return [...days.entries()].map(([date, drivers]) => ({ date, drivers: [...drivers.values()].sort(byName) }));
  }

  /** The tree's range: `date`, or `from`..`to` (default today), at most MAX_TREE_DAYS days (422). */
  private async range(scope: Scope, q: { date?: string; from?: string; to?: string }): Promise<{ from: string; to: string }> {
    if (q.date && (q.from || q.to)) throw ApiError.validation({ date: ['give either date or from/to'] });
    const from = q.date ?? q.from ?? (q.to && q.to < (await this.today(scope)) ? q.to : await this.today(scope));
    const to = q.date ?? q.to ?? from;
    if (to < from) throw ApiError.validation({ to: ['must not be before from'] });
    if (daysBetween(from, to) > MAX_TREE_DAYS) throw ApiError.validation({ to: [`must be at most ${MAX_TREE_DAYS} days after from`] });
    return { from, to };
  }

  /** `GET /jobs/{driverJob}`, `GET /order/jobs/{driverJob}`: the job with its order and names, history, merged pickups, evidence and issue counts. */
  async detail(who: Scope, id: string): Promise<CompanyJobDetailDto> {
    const scope = Scope.company(who.companyId);
    const [job] = await this.jobs.rowsOf(scope, [id]);
    if (!job) throw ApiError.notFound('Job');
    const order = (await this.orders.many(scope, [job.orderId])).get(job.orderId);
    // Names as the owning modules' SQL, and evidence and issue counts (dispatch's own rows): one statement.
    const [extra, history, merged] = await Promise.all([
      this.facts.detail(scope, job.id, order?.customerId ?? null, order?.assetSpecificationId ?? null, order?.wasteTypeId ?? null),
      this.jobs.history(scope, job.id),
      this.jobs.mergedIdsOf(scope, [job.id]),
    ]);
    return {
      ...CompanyJobDto.of(job, undefined),
      order: order
        ? {
            ...DispatchOrderDto.of(order),
            customer_name: extra?.customer ?? '',
            specification_name: extra?.specification ?? '',
            waste_type_name: extra?.waste_type ?? '',
          }
        : null,
      status_history: history,
      merged_job_ids: merged.get(job.id) ?? [],
      evidence_count: Number(extra?.evidence ?? 0),
      issue_count: Number(extra?.issues ?? 0),
      open_blocking_issue_count: Number(extra?.blocking ?? 0),
    };
  }

  // ------------------------------------------------------------ writes

  /**
   * `POST /order/jobs`: an unassigned job on one of the company's orders (approved, scheduled or
   * delivered), from the order's lot, with the price book's service fee line for a swap, dump and
   * return or relocation (when the frozen price book has one and `charge_fee` is not false).
   */
  async create(actor: Actor, dto: CreateCompanyJobDto): Promise<CompanyJobWithFeeDto> {
    const scope = Scope.of(actor);
    const companyId = scope.companyId;
    const today = await this.today(scope);
    const { id, fee } = await this.uow.transaction(async () => {
      const order = await this.orderFromBody(scope, dto.order_id);
      if (!LIVE_ORDER.includes(order.status)) throw ApiError.conflict('ORDER_STATE', `Jobs can be added to approved, scheduled or delivered orders; this order is ${order.status}.`);
      const errors: Record<string, string[]> = {};
      const delivered = order.deliveredOn ?? order.deliveryDate;
      if (dto.date < today) errors.date = [`must not be in the past (today is ${today})`];
      else if (dto.type !== 'delivery' && dto.date < delivered) errors.date = [`must not be before the order's delivery date ${delivered}`];
      if (dto.type === 'relocate' && !dto.destination_address_id) errors.destination_address_id = ['is required for a relocation'];
      if (dto.type !== 'relocate' && dto.destination_address_id) errors.destination_address_id = ['is only for a relocation'];
      if (dto.type === 'relocate' && dto.destination_address_id?.toLowerCase() === order.addressId) errors.destination_address_id = ["is already the order's address"];
      if (Object.keys(errors).length) throw ApiError.validation(errors);
      if (dto.destination_address_id) await this.addresses.assertOwned(Scope.customer(companyId, order.customerId), [{ field: 'destination_address_id', id: dto.destination_address_id }]);
      await this.calendar.assertOpen('lot', order.lotId, Scope.company(companyId), dto.date, 'date');
      await this.holdWith(scope, order, dto.type, dto.date);
      const job = await this.jobs.create(scope, { orderId: order.id, type: dto.type, scheduledDate: dto.date, lotId: order.lotId, destinationAddressId: dto.destination_address_id?.toLowerCase() ?? null });
      if (dto.notes) await this.jobs.change(job, { notes: dto.notes });
      const feeKind = (FEE_OF as Record<string, (typeof FEE_OF)[keyof typeof FEE_OF]>)[dto.type];
      const fee = feeKind && dto.charge_fee !== false ? await this.orders.addFee(scope, order, feeKind) : 0;
      return { id: job.id, fee };
    });
    return { ...(await this.render(scope, [id]))[0], fee_amount: fee };
  }

  /**
   * `DELETE /order/jobs/{driverJob}`: only an unassigned job no order state depends on (409
   * `JOB_NOT_DELETABLE` otherwise): not one created by an approved change request (the customer was
   * billed for it), not the order's only unfinished delivery before delivery, not the only unfinished
   * pickup of an order with a pickup date. Abort those instead.
   */
  async remove(actor: Actor, id: string): Promise<void> {
    const scope = Scope.company(Scope.of(actor).companyId);
    await this.uow.transaction(async () => {
      const found = await this.jobs.find(scope, id);
      const order = await this.orders.lock(scope, found.orderId);
      const job = await this.jobs.lock(scope, id);
      const refuse = (why: string) => ApiError.conflict('JOB_NOT_DELETABLE', `${why} Abort it instead.`);
      if (job.status !== 'unassigned') throw refuse(`Only an unassigned job can be deleted; this one is ${job.status}.`);
      if (job.changeRequestId) throw refuse('The job comes from an approved change request the customer was billed for.');
      if (job.type === 'delivery' || job.type === 'pickup') {
        const others = (await this.jobs.lockUnfinishedOfOrder(scope, order.id)).filter((j) => j.type === job.type && j.id !== job.id);
        if (job.type === 'delivery' && !others.length && !['delivered', 'completed'].includes(order.status)) throw refuse("It is the order's only delivery: the order's delivery date depends on it.");
        if (job.type === 'pickup' && !others.length && order.pickupDate) throw refuse("It is the order's only pickup: the order's pickup date depends on it.");
      }
      if (job.assetId) await this.assets.releaseReserved(scope, [{ assetId: job.assetId, orderId: job.orderId }]);
      await this.jobs.remove(job, actor);
    });
  }

  /**
   * `POST /order/jobs/{driverJob}/abort`: any job before completion (409 `INVALID_TRANSITION` after),
   * with a reason; its reserved asset is released; pickups merged into it are unmerged (they show again
   * as jobs of their own); optionally the wasted-trip fee line of the order's price book.
   */
  async abort(actor: Actor, id: string, dto: AbortCompanyJobDto): Promise<CompanyJobWithFeeDto> {
    const scope = Scope.company(Scope.of(actor).companyId);
    const { companyId } = scope;
    const fee = await this.uow.transaction(async () => {
      const found = await this.jobs.find(scope, id);
      await this.orders.lock(scope, found.orderId);
      const job = await this.jobs.lock(scope, id);
      await this.jobs.abort(scope, [job], dto.reason, actor);
      const merged = await this.jobs.lockMergedInto(scope, job.id);
      for (const p of merged) await this.jobs.change(p, { mergedIntoJobId: null });
      if (merged.length) {
        await this.facts.recordEvents(
          ...merged.map((p) => ({ type: 'job.updated' as const, aggregateType: 'job', aggregateId: p.id, companyId, actorId: actor.id, payload: { order_id: p.orderId, fields: ['merged_into_job_id'] } })),
        );
      }
      return dto.wasted_trip_fee ? this.orders.addFee(scope, job.orderId, 'wasted_trip_fee') : 0;
    });
    return { ...(await this.render(scope, [id]))[0], fee_amount: fee };
  }

  /**
   * The container calendar for a job added to the order: a delivery (or a swap before delivery) or a pickup
   * that changes the days its container is out (`heldDaysOf`: an extra delivery never shortens them, a
   * pickup ends them on its date) sets the order's hold to the new days, checked (409
   * `NO_CONTAINER_AVAILABLE` naming the days, nothing saved); one that would cross the other end is 422 on
   * `date`. A relocation, a dump and return or a swap of a delivered order leaves the hold as it is.
   */
  private async holdWith(scope: Scope, order: OrderForJobs, type: string, date: string): Promise<void> {
    if (type !== 'delivery' && type !== 'pickup' && !(type === 'swap' && !order.deliveredOn)) return;
    const jobs = await this.jobs.listForOrder(Scope.company(scope.companyId), order.id);
    const before = heldDaysOf(order, jobs);
    const held = heldDaysOf(order, [...jobs, { type, status: 'unassigned', scheduledDate: date, createdAt: new Date() }]);
    const crossed = crossedEnd(type, date, held);
    if (crossed) throw ApiError.validation({ date: [crossed] });
    if (held.from === before.from && held.to === before.to) return;
    await this.containers.hold(Scope.company(scope.companyId), { orderId: order.id, specificationId: order.assetSpecificationId, lotId: order.lotId, ...held });
  }

  /** An order named in a body: the company's, locked; 422 on `order_id` otherwise. */
  private async orderFromBody(scope: Scope, orderId: string): Promise<OrderForJobs> {
    try {
      return await this.orders.lock(scope, orderId);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'NOT_FOUND') throw ApiError.validation({ order_id: ['not found'] });
      throw e;
    }
  }
}
