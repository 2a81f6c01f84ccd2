import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { ContainerCalendar } from '../catalogue';
import { CustomerAddressesService } from '../customers';
import { DriversService } from '../drivers';
import { TrucksService, type TruckForDispatch } from '../fleet';
import { JobsService, pickupSideOf, type JobView } from '../jobs';
import { OrderOperations, type OrderForJobs } from '../orders';
import { LotsService, StationsService, type SiteDay, type StationDay } from '../sites';
import type { RouteCollapseDto } from './company-jobs.dto';
import { legsOf, pathKm, planChanges, planRoute, RouteError, type Place, type RouteJob, type RoutePlan, type RouteStation } from './route-optimiser';
import { UnitOfWork } from '../../database/unit-of-work';
import { JobFactsRepository } from './job-facts.repository';

/** What the planner needs of a day besides the jobs: open lots and stations with positions. */
export interface DayPlaces {
  lots: Place[];
  stations: RouteStation[];
}

/** Open, positioned lots and stations of a day, as the planner takes them. */
export function dayPlaces(lots: readonly SiteDay[], stations: readonly StationDay[]): DayPlaces {
  const placed = <T extends SiteDay>(s: T) => s.day.open && s.latitude !== null && s.longitude !== null;
  return {
    lots: lots.filter(placed).map((l) => ({ id: l.id, lat: l.latitude!, lng: l.longitude! })),
    stations: stations.filter(placed).map((s) => ({ id: s.id, lat: s.latitude!, lng: s.longitude!, wasteTypeIds: s.wasteTypeIds })),
  };
}

/** The orders a day's jobs concern: each job's own order and, for a swap, the order whose container it takes back. */
export const ordersOfJobs = (jobs: readonly JobView[]): string[] => [...new Set(jobs.flatMap((j) => [j.orderId, pickupSideOf(j)]))];

/**
 * A job as the planner sees it: its order's site (the address id and position) and specification (the
 * container it brings), and the waste type of the container it takes to a station: a swap's side coming
 * back (`pickupSideOf`: the merged pickup's order), else its own order's. `orders` holds `ordersOfJobs`.
 */
export function routeJobOf(j: JobView, orders: ReadonlyMap<string, OrderForJobs>, destinations: ReadonlyMap<string, { latitude: number; longitude: number }>, loadLots?: ReadonlyMap<string, string[]>): RouteJob {
  const order = orders.get(j.orderId)!;
  const loads = j.type === 'delivery' || j.type === 'swap' ? loadLots?.get(j.orderId) : undefined;
  const dest = j.destinationAddressId ? destinations.get(j.destinationAddressId) : undefined;
  return {
    id: j.id,
    type: j.type,
    specificationId: order.assetSpecificationId,
    wasteTypeId: orders.get(pickupSideOf(j))!.wasteTypeId,
    orderId: order.id,
    // A job under way keeps its type: only jobs not started yet merge into a swap.
    mergeable: j.status !== 'in_progress',
    site: { id: order.addressId, lat: order.address.latitude, lng: order.address.longitude },
    destination: j.destinationAddressId && dest ? { id: j.destinationAddressId, lat: dest.latitude, lng: dest.longitude } : null,
    ...(loads?.length ? { loadLots: loads } : {}),
  };
}

/** The orders whose container a day's jobs bring (deliveries and swaps): what `ContainerCalendar#loadingLots` is asked about. */
export const loadingOrdersOf = (jobs: readonly JobView[]): string[] => jobs.filter((j) => j.type === 'delivery' || j.type === 'swap').map((j) => j.orderId);

/** The planned length of a day's jobs in their current order (home lot → every leg → home lot), km with 3 decimals; null when a job cannot be routed. */
export function plannedKm(home: Place, jobs: readonly RouteJob[], places: DayPlaces): number | null {
  try {
    const legs = jobs.flatMap((j) => legsOf(j, { homeLot: home, ...places }));
    return Math.round(pathKm([home, ...legs, home]) * 1000) / 1000;
  } catch (e) {
    if (e instanceof RouteError) return null;
    throw e;
  }
}

/** The home lot of a truck among the day's lots (active, with a position), else null. */
export function homeLotOf(truck: TruckForDispatch | undefined, lots: readonly SiteDay[]): Place | null {
  const lot = truck?.homeLotId ? lots.find((l) => l.id === truck.homeLotId) : undefined;
  return lot && lot.latitude !== null && lot.longitude !== null ? { id: lot.id, lat: lot.latitude, lng: lot.longitude } : null;
}

/**
 * `PUT /order/jobs/route-collapse` (issue #11): loads a driver's unfinished jobs of a day (merged pickups
 * left out) with their orders' sites, specifications and waste types, the truck's home lot (the truck of
 * the day's first job in sequence), the active lots and the stations open that day, calls `planRoute`
 * (route-optimiser.ts) and, with `apply`, saves in one transaction: each merged delivery becomes a swap
 * carrying the pickup's order as its side coming back (`pickup_order_id`), its pickup gets
 * `merged_into_job_id` (both keep their orders) and the swap's sequence, and every stop its new sequence
 * (`job.updated` events).
 *
 * Plan ids (issue #25): the plan is made from the jobs as they stand (each with its stored sequence and
 * `updated_at`), and `planRoute` is deterministic, so a preview's `plan_id` comes back from an apply
 * exactly when the day is unchanged. With `plan_id`, the apply (made from the jobs locked and read again)
 * saves only a plan with that id, else 409 `PLAN_STALE` before any write. Nothing is stored between
 * preview and apply: the plan is derived again (docs/dispatch.md, "Plans that mean what they say").
 */
@Injectable()
export class RouteCollapseService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly jobs: JobsService,
    private readonly orders: OrderOperations,
    private readonly drivers: DriversService,
    private readonly trucks: TrucksService,
    private readonly lots: LotsService,
    private readonly stations: StationsService,
    private readonly addresses: CustomerAddressesService,
    private readonly events: JobFactsRepository,
    private readonly containers: ContainerCalendar,
  ) {}

  async collapse(actor: Actor, dto: RouteCollapseDto): Promise<RoutePlan> {
    const scope = Scope.company(Scope.of(actor).companyId);
    const apply = dto.apply !== false;
    const driverId = dto.driver_id.toLowerCase();
    return this.uow.transaction(async () => {
      await this.drivers.assertOwned(scope, [{ field: 'driver_id', id: driverId }]);
      const listed = (await this.jobs.ofDriverDay(scope, driverId, dto.date, ['assigned', 'in_progress'])).filter((j) => !j.mergedIntoJobId);
      // With apply the jobs are locked (id order) and read again: the plan is made from what will be saved.
      // Both ways they are put in the day's order here (not by the SQL), so that a preview and an apply of one day see the same.
      const jobs = inSequence(apply ? (await this.jobs.lockMany(scope, listed.map((j) => j.id))).filter((j) => j.driverId === driverId && j.scheduledDate === dto.date && (j.status === 'assigned' || j.status === 'in_progress') && !j.mergedIntoJobId) : listed);
      if (!jobs.length) throw ApiError.validation({ date: [`the driver has no unfinished job on ${dto.date}`] });
      const truckId = jobs.find((j) => j.truckId)?.truckId;
      if (!truckId) throw ApiError.unprocessable('NO_TRUCK', "None of the driver's jobs of the day has a truck.", { driver_id: ['has no truck on that day'] });
      const [orders, fleet, lots, stations] = [
        await this.orders.many(scope, ordersOfJobs(jobs)),
        await this.trucks.roster(scope),
        await this.lots.forDay(scope, dto.date),
        await this.stations.forDay(scope, dto.date),
      ];
      const home = homeLotOf(fleet.find((t) => t.id === truckId), lots);
      if (!home) throw ApiError.unprocessable('NO_HOME_LOT', "The truck's home lot is not set, inactive, or has no position.", { driver_id: ["the day's truck has no usable home lot"] });
      const destinations = await this.addresses.positions(scope, jobs.map((j) => j.destinationAddressId).filter((a): a is string => !!a));
      // The container calendar: where each delivered container is loaded (its pinned asset's lot).
      const loadLots = await this.containers.loadingLots(scope, dto.date, loadingOrdersOf(jobs));
      let plan: RoutePlan;
      try {
        const routeJobs = jobs.map((j) => ({ ...routeJobOf(j, orders, destinations, loadLots), sequence: j.sequence, version: j.updatedAt.toISOString() }));
        plan = planRoute({ driverId, date: dto.date, homeLot: home, jobs: routeJobs, ...dayPlaces(lots, stations) });
      } catch (e) {
        if (e instanceof RouteError) throw ApiError.unprocessable('NO_STATION', e.message, { date: [`no station open that day accepts the waste of job ${e.jobId}`] });
        throw e;
      }
      if (dto.plan_id && dto.plan_id !== plan.plan_id) throw ApiError.conflict('PLAN_STALE', `The driver's day changed since plan ${dto.plan_id} was made: nothing was saved; preview the day again.`);
      if (apply) await this.save(actor, scope, jobs, plan);
      return plan;
    });
  }

  /** Saves a plan: merges (delivery → swap, pickup → merged into it) and every job's sequence (`planChanges`), with `job.updated` events. */
  private async save(actor: Actor, scope: Scope, jobs: readonly JobView[], plan: RoutePlan): Promise<void> {
    const byId = new Map(jobs.map((j) => [j.id, j]));
    const changes = planChanges(jobs, plan);
    for (const c of changes) {
      // The swap carries both sides: its own order's container goes out, the pickup's order's comes back.
      if (c.pickup_order_id) await this.jobs.change(byId.get(c.job_id)!, { type: 'swap', pickupOrderId: c.pickup_order_id });
      if (c.merged_into_job_id) await this.jobs.change(byId.get(c.job_id)!, { mergedIntoJobId: c.merged_into_job_id });
    }
    await this.jobs.setSequences(scope, changes.filter((c) => c.fields.includes('sequence')).map((c) => ({ id: c.job_id, sequence: c.sequence })));
    if (changes.length) {
      await this.events.recordEvents(
        ...changes.map((c) => ({ type: 'job.updated' as const, aggregateType: 'job', aggregateId: c.job_id, companyId: scope.companyId, actorId: actor.id, payload: { order_id: byId.get(c.job_id)!.orderId, fields: c.fields } })),
      );
    }
  }
}

/** Jobs in the day's order, as `JobsService.ofDriverDay` lists them: by sequence (none last), then creation, then id. */
export const inSequence = <T extends JobView>(jobs: readonly T[]): T[] =>
  [...jobs].sort((a, b) => (a.sequence ?? Infinity) - (b.sequence ?? Infinity) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
