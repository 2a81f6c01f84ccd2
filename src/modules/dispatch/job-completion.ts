import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { AssetsService } from '../catalogue';
import { CustomerAddressesService } from '../customers';
import { TrucksService } from '../fleet';
import { JobsService, pickupSideOf, type JobChanges, type JobStatus, type JobView } from '../jobs';
import { OrderOperations, type OrderForJobs } from '../orders';
import { LotsService, StationsService } from '../sites';
import type { StationTicket } from './dispatch.entities';
import { DriverJobDetailDto } from './driver-jobs.dto';
import { DriverJobsService, DUMPING_TYPES } from './driver-jobs.service';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobEvidenceRepository } from './job-evidence.repository';

type AssetMove = Parameters<AssetsService['moveForJob']>[2][number];
type Place = AssetMove['place'];
type Who = Pick<Actor, 'id' | 'type'>;

/** The next status on the way to completion. */
const NEXT: Partial<Record<JobStatus, JobStatus>> = { unassigned: 'assigned', assigned: 'in_progress', in_progress: 'completed' };

const nothingOnSite = (order: OrderForJobs) => ApiError.conflict('NOTHING_ON_SITE', `Order ${order.number} has no container on site to take.`);

/**
 * A driver starts and completes jobs (domain.md §5), each in one transaction with the asset and order
 * moves it causes:
 * - start (assigned → in_progress): a delivery's or swap's reserved asset goes `in_transit` on the truck.
 * - complete (in_progress → completed), once no blocking issue is open (409 `JOB_BLOCKED`), a delivery
 *   has a photo (409 `EVIDENCE_REQUIRED`) and a job that dumps has its station ticket (409 `TICKET_REQUIRED`):
 *   delivery → asset `on_site` at the order's address, order `delivered` (the company's local date);
 *   pickup → the order's on-site asset `at_station` (the ticket's station), then `available` at the lot,
 *   and the order `completed` with its final bill when nothing of it is left on site;
 *   swap → the new asset (its own order's) `on_site`, the old one (its pickup side's) `at_station` then
 *   `available` at the lot;
 *   dump_return → the same asset `at_station`, then back `on_site`;
 *   relocate → the asset `on_site` at the job's destination address.
 *   A swap made by route collapse completes the pickup merged into it, with its order's effects (the
 *   old asset and the final bill are the pickup's order's, `pickup_order_id`; the swap's own order is
 *   delivered).
 */
@Injectable()
export class JobCompletion {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly evidence: JobEvidenceRepository,
    private readonly jobs: JobsService,
    private readonly driverJobs: DriverJobsService,
    private readonly orderOps: OrderOperations,
    private readonly assets: AssetsService,
    private readonly trucks: TrucksService,
    private readonly lots: LotsService,
    private readonly stations: StationsService,
    private readonly addresses: CustomerAddressesService,
  ) {}

  async start(actor: Who, scope: Scope, id: string): Promise<DriverJobDetailDto> {
    await this.uow.transaction(async () => {
      const job = await this.jobs.lock(scope, id);
      await this.driverJobs.assertWorkable(job);
      if (job.status !== 'assigned') throw ApiError.invalidTransition(job.status, 'in_progress', 'Job');
      const company = Scope.company(job.companyId);
      const merged = await this.jobs.mergedInto(company, [job.id], true);
      if (await this.jobs.driverBusy(company, job.driverId!, [job.id, ...merged.map((p) => p.id)])) {
        throw ApiError.conflict('JOB_IN_PROGRESS', 'Another of your jobs is in progress: complete it first.');
      }
      if (job.type === 'delivery' || job.type === 'swap') {
        const assetId = this.broughtAsset(job);
        const truck = job.truckId ? (await this.trucks.summaries(Scope.company(job.companyId), [job.truckId])).get(job.truckId) : undefined;
        const place: Place = job.truckId ? { type: 'truck', id: job.truckId, lat: truck?.lat ?? null, lng: truck?.lng ?? null } : null;
        await this.assets.moveForJob(Scope.company(job.companyId), job.id, [{ assetId, to: 'in_transit', place }]);
      }
      await this.jobs.move(job, 'in_progress', actor);
      for (const p of merged) await this.advance(p, 'in_progress', actor, job);
    });
    return this.driverJobs.detail(scope, id);
  }

  async complete(actor: Who, scope: Scope, id: string): Promise<DriverJobDetailDto> {
    const today = await this.driverJobs.today(scope);
    await this.uow.transaction(async () => {
      // The order is locked before the job, as assignment does (no lock-order deadlock between them);
      // the driver reaches it through this job of theirs (found with their scope).
      const peek = await this.jobs.find(scope, id);
      const order = await this.orderOps.lock(scope, peek.orderId, { orderId: peek.orderId, driverId: peek.driverId });
      const job = await this.jobs.lock(scope, id);
      await this.driverJobs.assertWorkable(job);
      if (job.status !== 'in_progress') throw ApiError.invalidTransition(job.status, 'completed', 'Job');
      const company = Scope.company(job.companyId);
      const merged = (await this.jobs.mergedInto(company, [job.id], true)).filter((p) => p.status !== 'completed' && p.status !== 'aborted');
      if (await this.driverJobs.blocked(company, [job.id, ...merged.map((p) => p.id)])) {
        throw ApiError.conflict('JOB_BLOCKED', 'A blocking issue on this job is open: the company must resolve it first.');
      }
      if (job.type === 'delivery' && !(await this.driverJobs.hasPhoto(company, job.id))) {
        throw ApiError.conflict('EVIDENCE_REQUIRED', 'A delivery needs a photo (evidence of kind photo) before it completes.');
      }
      const ticket = DUMPING_TYPES.includes(job.type) ? await this.evidence.ticketOf(company, job.id) : null;
      if (DUMPING_TYPES.includes(job.type) && !ticket) {
        throw ApiError.conflict('TICKET_REQUIRED', `A ${job.type} dumps at a station: record its station ticket (evidence of kind ticket) first.`);
      }
      const effects = { actor, today, ticket };
      switch (job.type) {
        case 'delivery':
          await this.assets.moveForJob(Scope.company(job.companyId), job.id, [{ assetId: this.broughtAsset(job), to: 'on_site', place: siteOf(order) }]);
          await this.jobs.move(job, 'completed', actor);
          await this.delivered(order, effects);
          break;
        case 'pickup': {
          const assetId = await this.onSite(order);
          await this.dump(job, order, assetId, ticket!);
          await this.jobs.move(job, 'completed', actor, { removedAssetId: assetId });
          await this.finishIfEmpty(order, job, effects);
          break;
        }
        case 'swap': {
          // Both sides: the container going out is the swap's own order's (the asset reserved at
          // assignment); the one coming back is its pickup side's (`pickup_order_id`: the swap's own order,
          // or the merged pickup's order for a swap made by route collapse), which the ticket weighed.
          const newAssetId = this.broughtAsset(job);
          const backId = pickupSideOf(job);
          // An order locked once in this unit is passed on, not locked and read again.
          const back = backId === order.id ? order : await this.orderOps.lock(company, backId);
          const removed = await this.onSite(back);
          await this.assets.moveForJob(company, job.id, [{ assetId: newAssetId, to: 'on_site', place: siteOf(order) }]);
          await this.dump(job, order, removed, ticket!);
          await this.jobs.move(job, 'completed', actor, { removedAssetId: removed });
          await this.delivered(order, effects);
          // The merged pickup completes with the swap; its order, with nothing left on site, is completed
          // with its final bill (the swap's ticket: the weight and overage are the pickup order's).
          for (const p of merged) await this.advance(p, 'completed', actor, job, p.orderId === backId ? { removedAssetId: removed } : {});
          if (back !== order) await this.finishIfEmpty(back, merged.find((p) => p.orderId === backId) ?? job, effects);
          break;
        }
        case 'dump_return': {
          const assetId = await this.onSite(order);
          await this.assets.moveForJob(Scope.company(job.companyId), job.id, [{ assetId, to: 'at_station', place: await this.stationPlace(Scope.company(job.companyId), ticket!.stationId) }]);
          await this.assets.moveForJob(Scope.company(job.companyId), job.id, [{ assetId, to: 'on_site', place: siteOf(order) }]);
          await this.jobs.move(job, 'completed', actor, job.assetId ? {} : { assetId });
          break;
        }
        case 'relocate': {
          const assetId = await this.onSite(order);
          const destination = job.destinationAddressId ? await this.addresses.snapshot(Scope.company(job.companyId), job.destinationAddressId) : null;
          if (!job.destinationAddressId || !destination) throw ApiError.conflict('NO_DESTINATION', 'This relocation has no (live) destination address: ask dispatch.');
          await this.assets.moveForJob(Scope.company(job.companyId), job.id, [
            { assetId, to: 'on_site', place: { type: 'customer_address', id: job.destinationAddressId, lat: destination.latitude, lng: destination.longitude } },
          ]);
          await this.jobs.move(job, 'completed', actor, job.assetId ? {} : { assetId });
          break;
        }
      }
    });
    return this.driverJobs.detail(scope, id);
  }

  // ------------------------------------------------------------------ parts

  /** The asset a delivery or swap brings: the one reserved at assignment (409 `ASSET_REQUIRED` without one). */
  private broughtAsset(job: JobView): string {
    if (!job.assetId) throw ApiError.conflict('ASSET_REQUIRED', `No asset is reserved for this ${job.type}: ask dispatch to assign one.`);
    return job.assetId;
  }

  /** The order's on-site asset (the last its completed jobs left there); 409 `NOTHING_ON_SITE` when none. */
  private async onSite(order: OrderForJobs): Promise<string> {
    const assetId = (await this.jobs.onSiteAssets(Scope.company(order.companyId), order.id)).at(-1);
    if (!assetId) throw nothingOnSite(order);
    return assetId;
  }

  /** The asset is dumped at the ticket's station, then back `available` at the job's lot (else the order's): two history rows. */
  private async dump(job: JobView, order: OrderForJobs, assetId: string, ticket: StationTicket): Promise<void> {
    const company = Scope.company(job.companyId);
    await this.assets.moveForJob(company, job.id, [{ assetId, to: 'at_station', place: await this.stationPlace(company, ticket.stationId) }]);
    const lotId = job.lotId ?? order.lotId;
    const lot = await this.lots.find(company, lotId).catch(() => null);
    await this.assets.moveForJob(company, job.id, [{ assetId, to: 'available', place: { type: 'lot', id: lotId, lat: lot?.latitude ?? null, lng: lot?.longitude ?? null } }]);
  }

  private async stationPlace(scope: Scope, stationId: string): Promise<Place> {
    const station = await this.stations.find(scope, stationId).catch(() => null);
    return { type: 'station', id: stationId, lat: station?.latitude ?? null, lng: station?.longitude ?? null };
  }

  /** The order's first container arrived: approved/scheduled → delivered on the company's date (an extra delivery changes nothing). */
  private async delivered(order: OrderForJobs, e: { actor: Who; today: string }): Promise<void> {
    if (order.status === 'approved' || order.status === 'scheduled') await this.orderOps.delivered(Scope.company(order.companyId), order.id, e.actor, e.today);
  }

  /**
   * After a pickup: when the order has nothing left on site, this was its final pickup: the order is
   * completed with its final bill (extra days from the real delivery date, overage from this ticket's
   * net weight), and its other unfinished jobs are aborted (nothing is left to serve).
   */
  private async finishIfEmpty(order: OrderForJobs, pickup: JobView, e: { actor: Who; today: string; ticket: StationTicket | null }): Promise<void> {
    const company = Scope.company(order.companyId);
    if ((await this.jobs.onSiteAssets(company, order.id)).length || order.status !== 'delivered') return;
    await this.orderOps.completed(company, order.id, e.actor, { pickedUpOn: e.today, netWeightKg: e.ticket?.netKg ?? null });
    await this.jobs.abortUnfinished(company, order.id, `The order was completed by its final pickup (job ${pickup.id}).`);
  }

  /** Moves a merged pickup along with its swap, step by step (each move recorded), to `to`; it takes the swap's driver and truck. */
  private async advance(job: JobView, to: JobStatus, actor: Who, swap: JobView, set: JobChanges = {}): Promise<JobView> {
    let current = job;
    while (current.status !== to) {
      const next = NEXT[current.status];
      if (!next) return current;
      current = await this.jobs.move(current, next, actor, next === 'assigned' ? { driverId: swap.driverId, truckId: swap.truckId } : next === to ? set : {});
    }
    return current;
  }
}

/** The order's site as an asset place. */
const siteOf = (order: OrderForJobs): Place => ({ type: 'customer_address', id: order.addressId, lat: order.address.latitude, lng: order.address.longitude });
