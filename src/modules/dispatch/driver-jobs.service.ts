import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { todayIn } from '../../common/dates';
import { DriverLocations } from '../../common/live/driver-locations';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { AttendanceService } from '../attendance';
import { AssetsService, CustomerCatalogueService } from '../catalogue';
import { CustomerAddressesService } from '../customers';
import { TrucksService } from '../fleet';
import { JobsService, pickupSideOf, type JobView } from '../jobs';
import { OrderOperations, OrdersService, orderNumber, type OrderForJobs } from '../orders';
import {
  DriverHistoryQuery,
  DriverJobDetailDto,
  DriverJobDto,
  DriverJobsQuery,
  JobEvidenceDto,
  JobLocationDto,
  jobTimes,
  MAX_POINTS_PER_JOB,
  SendLocationDto,
  StationTicketDto,
  TrackingWrapperDto,
} from './driver-jobs.dto';
import { JobIssueDto } from './job-issues.dto';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobEvidenceRepository } from './job-evidence.repository';
import { JobIssueRepository } from './job-issue.repository';
import { JobLocationRepository } from './job-location.repository';
import { JobFactsRepository } from './job-facts.repository';
import { startsSample } from './arrival-times';

/** Job types that go to a station and need a station ticket to complete. */
export const DUMPING_TYPES: readonly string[] = ['pickup', 'swap', 'dump_return'];

/** How many next stops the tracking view shows. */
const NEXT_STOPS = 10;

/**
 * The driver's reads (their day, one job, history, the tracking view) and the location points they
 * send. A driver's `Scope` reaches only their own jobs (404 otherwise); order details come from the
 * orders module (`OrderOperations.many`), names and asset codes from their owners.
 */
@Injectable()
export class DriverJobsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly evidence: JobEvidenceRepository,
    private readonly issueRows: JobIssueRepository,
    private readonly points: JobLocationRepository,
    private readonly facts: JobFactsRepository,
    private readonly jobs: JobsService,
    private readonly orderOps: OrderOperations,
    private readonly orders: OrdersService,
    private readonly catalogue: CustomerCatalogueService,
    private readonly assets: AssetsService,
    private readonly addresses: CustomerAddressesService,
    private readonly trucks: TrucksService,
    private readonly attendance: AttendanceService,
    private readonly locations: DriverLocations,
  ) {}

  /** The company's date today (the caller's query brought the time zone; else it is read). */
  async today(scope: Scope): Promise<string> {
    return scope.timezone ? todayIn(scope.timezone) : this.orders.today(scope);
  }

  // ------------------------------------------------------------------ reads

  async day(scope: Scope, q: DriverJobsQuery): Promise<Page<DriverJobDto>> {
    const date = q.date ?? (await this.today(scope));
    const page = await this.jobs.driverDay(scope, date, q);
    return new Page(await this.views(scope, page.items), page.meta);
  }

  async history(scope: Scope, q: DriverHistoryQuery): Promise<Page<DriverJobDto>> {
    const page = await this.jobs.driverHistory(scope, q);
    return new Page(await this.views(scope, page.items), page.meta);
  }

  /** One of the driver's jobs with what the driver needs on site; 404 when it is not theirs. */
  async detail(scope: Scope, id: string): Promise<DriverJobDetailDto> {
    const job = await this.jobs.find(scope, id);
    // The job's rows (evidence, ticket, issues, its order's jobs) within its company: the driver reached the job with their scope.
    const company = Scope.company(job.companyId);
    const [base] = await this.views(scope, [job]);
    const merged = base.merged_jobs.map((j) => j.id);
    const evidence = await this.evidence.ofJob(company, job.id);
    const ticket = await this.evidence.ticketOf(company, job.id);
    const lastTicket = evidence.filter((e) => e.kind === 'ticket').at(-1);
    const issues = await this.issues(company, [job.id, ...merged], true);
    // The container the job takes or works on: its order's, a swap's pickup side's (the merged pickup's order's).
    const onSite = job.type === 'delivery' ? [] : await this.jobs.onSiteAssets(company, pickupSideOf(job));
    const onSiteId = onSite.at(-1) ?? null;
    const onSiteAsset = onSiteId ? ((await this.assets.summaries(Scope.company(scope.companyId), [onSiteId])).get(onSiteId) ?? null) : null;
    const destination = job.destinationAddressId ? await this.addresses.snapshot(Scope.company(scope.companyId), job.destinationAddressId) : null;
    return {
      ...base,
      destination_address: destination,
      on_site_asset: onSiteAsset,
      // A later ticket replaces the job's ticket: the latest ticket evidence shows it.
      evidence: evidence.map((e) => JobEvidenceDto.of(e, e === lastTicket ? ticket : null)),
      open_issues: issues,
      ticket: ticket ? StationTicketDto.of(ticket) : null,
      missing: missingFor(job, { photo: evidence.some((e) => e.kind === 'photo'), ticket: !!ticket, blocked: issues.some((i) => i.blocking) }),
    };
  }

  /** The tracking view: today's current job, next stops, the last point sent and today's counts. */
  async tracking(scope: Scope): Promise<TrackingWrapperDto> {
    const date = await this.today(scope);
    const current = await this.jobs.driverCurrent(scope);
    const next = await this.jobs.driverNext(scope, date, NEXT_STOPS);
    const views = await this.views(scope, [...(current ? [current] : []), ...next]);
    const last = await this.points.latest(scope);
    const counts = await this.jobs.driverCounts(scope, date);
    return {
      date,
      current_job: current ? views[0] : null,
      next_stops: current ? views.slice(1) : views,
      last_location: last ? JobLocationDto.of(last) : null,
      counts: { total: Object.values(counts).reduce((a, b) => a + b, 0), assigned: counts.assigned, in_progress: counts.in_progress, completed: counts.completed, aborted: counts.aborted },
    };
  }

  /** An order the driver has a job on (now or before), as its company sees it with its jobs; 404 otherwise. */
  order(actor: Actor, id: string) {
    return this.orders.details(actor, id);
  }

  // ------------------------------------------------------------------ locations

  /**
   * A point for one of the driver's jobs in progress (409 `JOB_STATE` otherwise). At most one point a
   * second per driver (429 `THROTTLED` with `Retry-After: 1`; serialised per driver by an advisory lock
   * so that two phones racing cannot both pass) and MAX_POINTS_PER_JOB per job (409 `LOCATION_LIMIT`).
   * The newest point (by `recorded_at`) goes on the job, and the truck's position follows.
   */
  async sendLocation(scope: Scope, id: string, d: SendLocationDto): Promise<JobLocationDto> {
    const point = await this.uow.transaction(async () => {
      const job = await this.jobs.lock(scope, id);
      if (job.status !== 'in_progress') throw ApiError.conflict('JOB_STATE', `Locations are sent for a job in progress; this job is ${job.status}.`);
      const driverId = job.driverId!;
      const company = Scope.company(job.companyId);
      await this.points.serialiseDriver(driverId);
      if (await this.points.sentWithinASecond(company, driverId)) throw new ApiError(429, 'THROTTLED', 'At most one location point a second.', undefined, { 'Retry-After': '1' });
      if ((await this.points.countOfJob(company, job.id)) >= MAX_POINTS_PER_JOB) throw ApiError.conflict('LOCATION_LIMIT', `This job has ${MAX_POINTS_PER_JOB} location points already.`);
      const recordedAt = d.recorded_at ? new Date(d.recorded_at) : new Date();
      const point = await this.points.insert(company, {
        jobId: job.id,
        driverId,
        lat: d.lat,
        lng: d.lng,
        accuracyM: d.accuracy ?? null,
        heading: d.heading ?? null,
        speedMps: d.speed ?? null,
        recordedAt,
      });
      if (!job.lastLocationAt || recordedAt >= job.lastLocationAt) {
        await this.jobs.change(job, { lastLat: d.lat, lastLng: d.lng, lastLocationAt: recordedAt });
        if (job.truckId) await this.trucks.follow(company, job.truckId, d.lat, d.lng, recordedAt);
        // Arrival times follow the driver: the first point of each ARRIVAL_SAMPLE_SECONDS slot has the relay recompute the day (issue #26).
        if (startsSample(job.lastLocationAt, recordedAt)) {
          await this.facts.recordEvents({
            type: 'job.position_sampled',
            aggregateType: 'job',
            aggregateId: job.id,
            companyId: job.companyId,
            actorId: driverId,
            payload: { order_id: job.orderId, driver_id: driverId, lat: d.lat, lng: d.lng, recorded_at: recordedAt.toISOString() },
          });
        }
      }
      const saved = await this.points.get(company, point.id);
      return { saved, orderId: job.orderId };
    });
    // After the commit: the live view (company dispatch, the order's customer; README "Notifications and live push").
    const { saved, orderId } = point;
    this.locations.publish({ companyId: saved.companyId, driverId: saved.driverId, jobId: saved.jobId, orderId, lat: saved.lat, lng: saved.lng, recordedAt: saved.recordedAt });
    return JobLocationDto.of(saved);
  }

  // ------------------------------------------------------------------ shared by the driver's views

  /** Issues of jobs of the scope's company (open only with `open`), oldest first, with the reporter's name (one statement). */
  async issues(scope: Scope, jobIds: readonly string[], open: boolean): Promise<JobIssueDto[]> {
    return (await this.issueRows.ofJobs(scope, jobIds, open)).map((n) => JobIssueDto.of(n.issue, n.driverName));
  }

  /** Driver views of jobs: their orders' sites, names, asset codes and merged pickups, in a fixed number of statements. */
  async views(scope: Scope, jobs: readonly JobView[]): Promise<DriverJobDto[]> {
    if (!jobs.length) return [];
    const merged = await this.jobs.mergedInto(Scope.company(scope.companyId), jobs.filter((j) => j.type === 'swap').map((j) => j.id));
    const orders = await this.orderOps.many(Scope.company(scope.companyId), [...new Set([...jobs, ...merged].flatMap((j) => [j.orderId, pickupSideOf(j)]))]);
    const list = [...orders.values()];
    const names = await this.catalogue.names(Scope.company(scope.companyId), [...new Set(list.map((o) => o.assetSpecificationId))], [...new Set(list.map((o) => o.wasteTypeId))]);
    const assets = await this.assets.summaries(Scope.company(scope.companyId), jobs.map((j) => j.assetId).filter((a): a is string => !!a));
    return jobs.map((j) => {
      const o = orders.get(j.orderId) as OrderForJobs;
      // What the job takes to a station: the waste of the container it takes back (a swap's pickup side).
      const dumped = DUMPING_TYPES.includes(j.type) ? (orders.get(pickupSideOf(j)) as OrderForJobs) : null;
      return {
        id: j.id,
        order_id: j.orderId,
        order_number: orderNumber(o.number),
        type: j.type,
        status: j.status,
        scheduled_date: j.scheduledDate,
        sequence: j.sequence,
        truck_id: j.truckId,
        asset: j.assetId ? (assets.get(j.assetId) ?? null) : null,
        removed_asset_id: j.removedAssetId,
        lot_id: j.lotId,
        address: o.address,
        destination_address_id: j.destinationAddressId,
        specification: { id: o.assetSpecificationId, name: names.specs.get(o.assetSpecificationId) ?? '' },
        waste_type: { id: o.wasteTypeId, name: names.wasteTypes.get(o.wasteTypeId) ?? '' },
        pickup_order_id: j.pickupOrderId,
        dump_waste_type: dumped ? { id: dumped.wasteTypeId, name: names.wasteTypes.get(dumped.wasteTypeId) ?? '' } : null,
        notes: j.notes,
        ...jobTimes(j),
        abort_reason: j.abortReason,
        last_location: j.lastLat !== null && j.lastLng !== null && j.lastLocationAt ? { lat: j.lastLat, lng: j.lastLng, at: j.lastLocationAt.toISOString() } : null,
        merged_jobs: merged
          .filter((p) => p.mergedIntoJobId === j.id)
          .map((p) => {
            const po = orders.get(p.orderId) as OrderForJobs;
            return { id: p.id, order_id: p.orderId, order_number: orderNumber(po.number), type: p.type, status: p.status, address: po.address };
          }),
      };
    });
  }

  /**
   * What every driver action on a job checks once the job is locked: not on a break (409 `ON_BREAK`),
   * and not a pickup merged into a swap (409 `JOB_MERGED`: the swap is worked, the pickup completes with it).
   */
  async assertWorkable(job: JobView): Promise<void> {
    if (await this.attendance.isOnBreak(Scope.company(job.companyId), job.driverId!)) throw ApiError.conflict('ON_BREAK', 'You are on a break: end it first.');
    if (job.mergedIntoJobId) throw ApiError.conflict('JOB_MERGED', 'This pickup was merged into a swap: work the swap, and the pickup completes with it.');
  }

  /** Evidence rows of kind photo exist for the job of the scope's company (one statement). */
  hasPhoto(scope: Scope, jobId: string): Promise<boolean> {
    return this.evidence.hasPhoto(scope, jobId);
  }

  /** Open blocking issues on any of these jobs of the scope's company (one statement). */
  blocked(scope: Scope, jobIds: readonly string[]): Promise<boolean> {
    return this.issueRows.blocked(scope, jobIds);
  }
}

/** What completion still needs: a delivery's photo, a dumping job's station ticket, blocking issues resolved. */
export function missingFor(job: Pick<JobView, 'type'>, has: { photo: boolean; ticket: boolean; blocked: boolean }): string[] {
  const missing: string[] = [];
  if (job.type === 'delivery' && !has.photo) missing.push('photo');
  if (DUMPING_TYPES.includes(job.type) && !has.ticket) missing.push('station_ticket');
  if (has.blocked) missing.push('issues_resolved');
  return missing;
}
