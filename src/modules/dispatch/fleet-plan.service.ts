import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/access/actor';
import { ApiError } from '../../common/http/api-error';
import { AttendanceService } from '../attendance';
import { ContainerCalendar } from '../catalogue';
import { CompanySettingsService, type CompanySettingsDto } from '../companies';
import { CustomerAddressesService } from '../customers';
import { DriversService } from '../drivers';
import { TrucksService, type TruckForDispatch } from '../fleet';
import { JobsService, type JobView } from '../jobs';
import { OrderOperations, type OrderForJobs } from '../orders';
import { LotsService, StationsService, type SiteDay } from '../sites';
import { UnitOfWork } from '../../database/unit-of-work';
import { DriverLeaveCheck } from './assignment-leave-check';
import { AssignmentService, RESERVING_TYPES, type DispatchCtx } from './assignment.service';
import type { FleetDriverLeftOutDto, FleetPlanDto, FleetPlanResultDto, FleetUnassignedDto } from './fleet-plan.dto';
import { planFleet, type FleetJob, type FleetSettings, type FleetVehicle } from './fleet-planner';
import { dayPlaces, homeLotOf, inSequence, ordersOfJobs, routeJobOf } from './route-collapse.service';

/** Order statuses whose unassigned jobs may be assigned (as assignment's rule). */
const LIVE_ORDER: readonly string[] = ['approved', 'scheduled', 'delivered'];

/** The company's planning settings as the planner takes them (company settings, issue #26). */
export const fleetSettingsOf = (s: Pick<CompanySettingsDto, 'shift_minutes' | 'average_speed_kmh' | 'service_minutes_delivery' | 'service_minutes_pickup' | 'service_minutes_swap' | 'service_minutes_dump_return' | 'service_minutes_relocate' | 'station_minutes'>): FleetSettings => ({
  shiftMinutes: s.shift_minutes,
  averageSpeedKmh: s.average_speed_kmh,
  serviceMinutes: { delivery: s.service_minutes_delivery, pickup: s.service_minutes_pickup, swap: s.service_minutes_swap, dump_return: s.service_minutes_dump_return, relocate: s.service_minutes_relocate },
  stationMinutes: s.station_minutes,
});

/**
 * The drivers planned and their trucks (docs/dispatch.md, "Planning the whole day"): active drivers not on
 * leave and not checked out (checked in, on a break, or expected: no attendance that day yet), by id.
 * A driver's truck of the day is the truck of their first job that day (in sequence), else the truck they
 * checked in with, else a free active truck (one no other driver has that day), the trucks carrying
 * the most specifications first (then plate, then id), handed out in driver id order. A truck without a
 * usable home lot leaves its driver out.
 */
export function vehiclesOf(
  roster: readonly { id: string }[],
  states: ReadonlyMap<string, { status: string; truck_id: string | null }>,
  onLeave: ReadonlySet<string>,
  jobs: readonly JobView[],
  fleet: readonly TruckForDispatch[],
  lots: readonly SiteDay[],
): { vehicles: FleetVehicle[]; leftOut: FleetDriverLeftOutDto[] } {
  const leftOut: FleetDriverLeftOutDto[] = [];
  const drivers = [...roster].sort((a, b) => (a.id < b.id ? -1 : 1)).filter((d) => {
    if (onLeave.has(d.id)) leftOut.push({ driver_id: d.id, reason: 'on_leave' });
    else if (states.get(d.id)?.status === 'checked_out') leftOut.push({ driver_id: d.id, reason: 'checked_out' });
    else return true;
    return false;
  });
  const byId = new Map(fleet.map((t) => [t.id, t]));
  const chosen = new Map<string, TruckForDispatch>();
  const taken = new Set<string>();
  for (const d of drivers) {
    const own = inSequence(jobs.filter((j) => j.driverId === d.id)).find((j) => j.truckId)?.truckId;
    const checkedIn = states.get(d.id)?.truck_id;
    const truck = (own && byId.get(own)) || (checkedIn && byId.get(checkedIn)?.status === 'active' ? byId.get(checkedIn) : undefined);
    if (truck && !taken.has(truck.id)) {
      chosen.set(d.id, truck);
      taken.add(truck.id);
    }
  }
  const free = fleet
    .filter((t) => t.status === 'active' && !taken.has(t.id) && homeLotOf(t, lots))
    .sort((a, b) => b.specificationIds.length - a.specificationIds.length || a.plate.localeCompare(b.plate) || (a.id < b.id ? -1 : 1));
  const vehicles: FleetVehicle[] = [];
  for (const d of drivers) {
    const truck = chosen.get(d.id) ?? free.shift();
    if (!truck) {
      leftOut.push({ driver_id: d.id, reason: 'no_truck' });
      continue;
    }
    const home = homeLotOf(truck, lots);
    if (!home) leftOut.push({ driver_id: d.id, reason: 'no_home_lot' });
    else vehicles.push({ driverId: d.id, truckId: truck.id, home, specificationIds: truck.specificationIds });
  }
  return { vehicles, leftOut: leftOut.sort((a, b) => (a.driver_id < b.driver_id ? -1 : 1)) };
}

/**
 * The containers the calendar leaves the day's free deliveries and swaps (`jobs`, each with the assets
 * free for its order's hold, in the order assignment pins from; `undefined`: the order has no hold, left
 * to assignment): a maximum matching, one container per job (augmenting paths, jobs in id order, each
 * trying its assets in their order), so as many jobs as possible get one and the same day gives the same
 * answer. A job left without one gets null (`no_container`).
 */
export function containersFor(jobs: readonly { id: string; free: readonly string[] | undefined }[]): Map<string, string | null> {
  const sorted = [...jobs].filter((j) => j.free).sort((a, b) => (a.id < b.id ? -1 : 1));
  const byId = new Map(sorted.map((j) => [j.id, j]));
  const holder = new Map<string, string>(); // asset → job
  const mine = new Map<string, string>(); // job → asset
  const augment = (job: { id: string; free: readonly string[] | undefined }, seen: Set<string>): boolean => {
    for (const a of job.free!) {
      if (seen.has(a)) continue;
      seen.add(a);
      const other = holder.get(a);
      if (other === undefined || augment(byId.get(other)!, seen)) {
        holder.set(a, job.id);
        mine.set(job.id, a);
        return true;
      }
    }
    return false;
  };
  for (const j of sorted) augment(j, new Set());
  return new Map(sorted.map((j) => [j.id, mine.get(j.id) ?? null]));
}

/**
 * `POST /dispatch/plan` (issue #26 item 1, extension): the whole fleet's day. Loads the day's unfinished
 * jobs (merged pickups left out), the drivers available with their trucks, the lots and stations open that
 * day and the company's planning settings, calls `planFleet` (fleet-planner.ts) and, with `apply`, saves it
 * in one transaction: every planned unassigned job assigned through `AssignmentService.placeJob` (the rules
 * of every assignment: driver active and not on leave, the truck carries the specification, the container
 * the preview matched (`containersFor`) pinned on the calendar, the order scheduled; `job.assigned`), every pinned job given its new sequence
 * the same way (`job.updated`). The orders of the jobs to assign are locked first (id order), then all the
 * day's jobs (id order), and the plan is derived again from the locked rows: with `plan_id` it must give
 * that id, else 409 `PLAN_STALE` before any write (docs/dispatch.md, "Planning the whole day").
 */
@Injectable()
export class FleetPlanService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly assignment: AssignmentService,
    private readonly jobs: JobsService,
    private readonly orders: OrderOperations,
    private readonly drivers: DriversService,
    private readonly trucks: TrucksService,
    private readonly lots: LotsService,
    private readonly stations: StationsService,
    private readonly addresses: CustomerAddressesService,
    private readonly attendance: AttendanceService,
    private readonly leave: DriverLeaveCheck,
    private readonly settings: CompanySettingsService,
    private readonly containers: ContainerCalendar,
  ) {}

  async plan(actor: Actor, dto: FleetPlanDto): Promise<FleetPlanResultDto> {
    const c = await this.assignment.ctx(actor);
    const apply = dto.apply === true;
    if (dto.date < c.today) throw ApiError.validation({ date: [`must not be in the past (today is ${c.today})`] });
    return this.uow.transaction(async () => {
      const listed = (await this.jobs.between(c.scope, dto.date, dto.date, { statuses: ['unassigned', 'assigned', 'in_progress'] })).filter((j) => !j.mergedIntoJobId);
      let rows: JobView[] = listed;
      let orders: Map<string, OrderForJobs>;
      if (apply) {
        // The lock order of every dispatch write: the orders of the jobs to assign, then the jobs (id order each).
        const locked = await this.orders.lockMany(c.scope, listed.filter((j) => j.status === 'unassigned').map((j) => j.orderId));
        rows = (await this.jobs.lockMany(c.scope, listed.map((j) => j.id))).filter((j) => j.scheduledDate === dto.date && ['unassigned', 'assigned', 'in_progress'].includes(j.status) && !j.mergedIntoJobId);
        orders = await this.orders.many(c.scope, ordersOfJobs(rows));
        for (const [id, o] of locked) orders.set(id, o);
      } else {
        orders = await this.orders.many(c.scope, ordersOfJobs(rows));
      }
      const day = await this.load(c, dto.date, rows, orders);
      const plan = planFleet(day.input);
      const byId = new Map(rows.map((j) => [j.id, j]));
      const changes = plan.routes.flatMap((r) => r.stops.map((s) => ({ job: byId.get(s.job_id)!, driverId: r.driver_id, truckId: r.truck_id, sequence: s.sequence }))).filter((x) => x.job.status === 'unassigned' || x.job.sequence !== x.sequence);
      if (dto.plan_id && dto.plan_id !== plan.plan_id) throw ApiError.conflict('PLAN_STALE', `The day changed since plan ${dto.plan_id} was made: nothing was saved; preview the day again.`);
      if (apply) {
        for (const x of changes) {
          const order = orders.get(x.job.orderId)!;
          const assetId = day.containers.get(x.job.id) ?? undefined;
          await this.assignment.placeJob(c, order, x.job, x.job.status === 'unassigned' ? { driverId: x.driverId, truckId: x.truckId, sequence: x.sequence, assetId } : { sequence: x.sequence });
        }
      }
      const unassigned: FleetUnassignedDto[] = [...plan.unassigned, ...day.notLive.map((id) => ({ job_id: id, reason: 'order_state' }))].sort((a, b) => (a.job_id < b.job_id ? -1 : 1));
      return {
        plan_id: plan.plan_id,
        date: plan.date,
        applied: apply,
        exact: plan.exact,
        routes: plan.routes,
        unassigned,
        drivers_left_out: day.leftOut,
        distance_before_km: plan.distance_before_km,
        distance_after_km: plan.distance_after_km,
        moves: changes.length,
      };
    });
  }

  /** The planner's input for the day from its jobs (`rows`, with their orders): drivers, trucks, places, settings. */
  private async load(c: DispatchCtx, date: string, rows: readonly JobView[], orders: ReadonlyMap<string, OrderForJobs>) {
    const roster = await this.drivers.roster(c.scope, { activeOnly: true });
    const states = await this.attendance.statesOn(c.scope, date);
    const onLeave = await this.leave.onLeaveAmong(c.scope, roster.map((d) => d.id), date);
    const fleet = await this.trucks.roster(c.scope);
    const lots = await this.lots.forDay(c.scope, date);
    const stations = await this.stations.forDay(c.scope, date);
    const settings = fleetSettingsOf(await this.settings.get(c.scope));
    const destinations = await this.addresses.positions(c.scope, rows.map((j) => j.destinationAddressId).filter((a): a is string => !!a));
    const { vehicles, leftOut } = vehiclesOf(roster, states, onLeave, rows, fleet, lots);
    const notLive = rows.filter((j) => j.status === 'unassigned' && !LIVE_ORDER.includes(orders.get(j.orderId)!.status)).map((j) => j.id);
    const notLiveIds = new Set(notLive);
    const live = (j: JobView) => !notLiveIds.has(j.id);
    // The container calendar: each free delivery or swap without a container needs one free on its order's days (pinned at apply).
    const pinning = rows.filter((j) => j.status === 'unassigned' && RESERVING_TYPES.includes(j.type) && !j.assetId && live(j));
    const free = await this.containers.freeForHolds(c.scope, pinning.map((j) => j.orderId));
    const containers = containersFor(pinning.map((j) => ({ id: j.id, free: free.get(j.orderId) })));
    const jobs: FleetJob[] = inSequence(rows)
      .filter(live)
      .map((j) => ({ ...routeJobOf(j, orders, destinations), driverId: j.status === 'unassigned' ? null : j.driverId, underWay: j.status === 'in_progress', sequence: j.sequence, version: j.updatedAt.toISOString(), ...(containers.has(j.id) ? { assetId: containers.get(j.id) } : {}) }));
    return { input: { date, vehicles, jobs, ...dayPlaces(lots, stations), settings }, leftOut, notLive, containers };
  }
}
