import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { ApiError } from '../../common/http/api-error';
import { Page } from '../../common/http/envelope';
import { AttendanceService } from '../attendance';
import { AssetsService, ContainerCalendar } from '../catalogue';
import { CustomerAddressesService } from '../customers';
import { DriversService } from '../drivers';
import { TrucksService, type TruckForDispatch } from '../fleet';
import { arrivalView, JobsService, pickupSideOf, type JobRow } from '../jobs';
import { OrderOperations, type OrderForJobs } from '../orders';
import { LotsService, StationsService, type SiteDay, type StationDay } from '../sites';
import { DriverLeaveCheck } from './assignment-leave-check';
import { RESERVING_TYPES } from './assignment.service';
import { CompanyJobDto, DispatchOrderDto } from './company-jobs.dto';
import { CompanyJobsService } from './company-jobs.service';
import { heldDaysOf } from './container-hold';
import {
  AssignableOrderDto,
  AssignableOrdersQuery,
  DispatchContextDto,
  DispatchDriverDto,
  DispatchSiteDto,
  DriverDatesDto,
  DriverDatesQuery,
  DriverWithJobsDto,
  FreeAssetsDto,
  OrderAssetsDto,
} from './dispatch-context.dto';
import { dayPlaces, homeLotOf, loadingOrdersOf, ordersOfJobs, plannedKm, routeJobOf } from './route-collapse.service';

const site = (s: SiteDay): DispatchSiteDto => ({
  id: s.id,
  name: s.name,
  latitude: s.latitude,
  longitude: s.longitude,
  open: s.day.open,
  closed_reason: s.day.reason ?? null,
  holiday: s.day.holiday ?? null,
});


/**
 * The dispatcher's reads (company side of issue #11): the day's context, drivers available and their
 * loads, drivers' job dates and jobs, assignable orders, and an order's assets with their availability.
 * Each is a fixed handful of statements (one per module read, run side by side), never one per row.
 */
@Injectable()
export class DispatchContextService {
  constructor(
    private readonly jobs: JobsService,
    private readonly orders: OrderOperations,
    private readonly drivers: DriversService,
    private readonly trucks: TrucksService,
    private readonly lots: LotsService,
    private readonly stations: StationsService,
    private readonly assets: AssetsService,
    private readonly attendance: AttendanceService,
    private readonly addresses: CustomerAddressesService,
    private readonly leave: DriverLeaveCheck,
    private readonly views: CompanyJobsService,
    private readonly containers: ContainerCalendar,
  ) {}

  private async dateOf(scope: Scope, date?: string): Promise<string> {
    return date ?? (await this.views.today(scope));
  }

  /**
   * The day for dispatch: active drivers (attendance, leave, load), trucks, the day's jobs with their
   * orders, lots, open stations and free assets: 9 statements (10 with relocations), most run side by side
   * (the approved leaves of the roster, one statement of the leaves module's calendar, and the container
   * calendar's day, free assets with where the day's containers are loaded, beside the orders).
   */
  async context(scope: Scope, date?: string): Promise<DispatchContextDto> {
    const day = await this.dateOf(scope, date);
    const company = Scope.company(scope.companyId);
    const [roster, states, rows, fleet, lots, stations] = await Promise.all([
      this.drivers.roster(company, { activeOnly: true }),
      this.attendance.statesOn(company, day),
      this.jobs.between(company, day, day, { statuses: ['unassigned', 'assigned', 'in_progress', 'completed'], arrivals: true }),
      this.trucks.roster(company),
      this.lots.forDay(company, day),
      this.stations.forDay(company, day),
    ]);
    const mine = rows.filter((j) => j.driverId && j.status !== 'aborted');
    const [orders, onLeave, containers] = await Promise.all([
      this.orders.many(company, ordersOfJobs(rows)),
      this.leave.onLeaveAmong(company, roster.map((d) => d.id), day),
      this.containers.dispatchDay(company, day, loadingOrdersOf(mine.filter((j) => !j.mergedIntoJobId))),
    ]);
    const { free, loadLots } = containers;
    const jobs = rows.map((j) => ({ ...CompanyJobDto.of(j, orders.get(j.orderId)), arrival: arrivalView(j.arrival) }));
    const loads = await this.loads(company, mine, orders, fleet, lots, stations, loadLots);
    const drivers: DispatchDriverDto[] = roster.map((d) => {
      const state = states.get(d.id);
      return {
        id: d.id,
        name: d.name,
        email: d.email,
        phone: d.phone,
        attendance: state ? { status: state.status, checked_in_at: state.checked_in_at, checked_out_at: state.checked_out_at, truck_id: state.truck_id } : null,
        on_leave: onLeave.has(d.id),
        truck_id: rows.find((j) => j.driverId === d.id && j.truckId)?.truckId ?? state?.truck_id ?? null,
        load: loads.get(d.id) ?? { jobs: 0, stops: 0, planned_km: null },
      };
    });
    const bySpec = new Map<string, FreeAssetsDto>();
    for (const f of free) {
      const e = bySpec.get(f.specificationId) ?? bySpec.set(f.specificationId, { asset_specification_id: f.specificationId, available: 0, by_home_lot: [] }).get(f.specificationId)!;
      e.available += f.available;
      e.by_home_lot.push({ home_lot_id: f.homeLotId, available: f.available });
    }
    return {
      date: day,
      drivers,
      trucks: fleet.map((t) => ({
        id: t.id,
        plate: t.plate,
        name: t.name,
        status: t.status,
        truck_type_id: t.truckTypeId,
        truck_type_name: t.truckTypeName,
        asset_specification_ids: t.specificationIds,
        home_lot_id: t.homeLotId,
        lat: t.lat,
        lng: t.lng,
      })),
      jobs: { unassigned: jobs.filter((j) => j.status === 'unassigned').map(({ arrival: _none, ...j }) => j), assigned: jobs.filter((j) => j.status !== 'unassigned') },
      lots: lots.map(site),
      stations: stations.filter((s) => s.day.open).map((s) => ({ ...site(s), waste_type_ids: s.wasteTypeIds })),
      free_assets: [...bySpec.values()],
    };
  }

  /** `GET /available/drivers`: active drivers not on leave that day, each with attendance and load. */
  async availableDrivers(scope: Scope, date?: string): Promise<DispatchDriverDto[]> {
    const ctx = await this.context(scope, date);
    return ctx.drivers.filter((d) => !d.on_leave);
  }

  /**
   * Per driver, the day's load: jobs (not aborted), stops (not merged into a swap), planned km of the
   * stops in sequence from and back to the home lot of the day's truck.
   */
  private async loads(scope: Scope, mine: readonly JobRow[], orders: ReadonlyMap<string, OrderForJobs>, fleet: readonly TruckForDispatch[], lots: readonly SiteDay[], stations: readonly StationDay[], loadLots: ReadonlyMap<string, string[]>) {
    const destinations = await this.addresses.positions(scope, mine.map((j) => j.destinationAddressId).filter((a): a is string => !!a));
    const places = dayPlaces(lots, stations);
    const out = new Map<string, { jobs: number; stops: number; planned_km: number | null }>();
    for (const driverId of new Set(mine.map((j) => j.driverId!))) {
      const jobs = mine.filter((j) => j.driverId === driverId);
      const stops = jobs.filter((j) => !j.mergedIntoJobId);
      const home = homeLotOf(
        fleet.find((t) => t.id === jobs.find((j) => j.truckId)?.truckId),
        lots,
      );
      const routable = stops.every((j) => orders.has(j.orderId) && orders.has(pickupSideOf(j)));
      out.set(driverId, {
        jobs: jobs.length,
        stops: stops.length,
        planned_km: home && routable ? plannedKm(home, stops.map((j) => routeJobOf(j, orders, destinations, loadLots)), places) : null,
      });
    }
    return out;
  }

  /** `GET /drivers-orders-dates`: per driver (by name), the dates with jobs that were not aborted. */
  async driverDates(scope: Scope, q: DriverDatesQuery): Promise<DriverDatesDto[]> {
    if (q.from && q.to && q.to < q.from) throw ApiError.validation({ to: ['must not be before from'] });
    const [dates, roster] = await Promise.all([this.jobs.driverDates(Scope.company(scope.companyId), q.from, q.to), this.drivers.roster(Scope.company(scope.companyId))]);
    const byDriver = new Map(dates.map((d) => [d.driverId, d.dates]));
    return roster.filter((d) => byDriver.has(d.id)).map((d) => ({ driver_id: d.id, driver_name: d.name, dates: byDriver.get(d.id)! }));
  }

  /** `GET /drivers-with-orders`: the drivers with jobs that day (by name), each with the day's jobs in sequence. */
  async driversWithOrders(scope: Scope, date?: string): Promise<DriverWithJobsDto[]> {
    const day = await this.dateOf(scope, date);
    const rows = (await this.jobs.between(Scope.company(scope.companyId), day, day, { statuses: ['assigned', 'in_progress', 'completed'] })).filter((j) => j.driverId);
    const jobs = await this.views.withOrders(scope, rows);
    const groups = new Map<string, DriverWithJobsDto>();
    for (const j of jobs) {
      const g = groups.get(j.driver_id!) ?? groups.set(j.driver_id!, { driver_id: j.driver_id!, driver_name: j.driver_name ?? '', jobs: [] }).get(j.driver_id!)!;
      g.jobs.push(j);
    }
    return [...groups.values()].sort((a, b) => a.driver_name.localeCompare(b.driver_name) || a.driver_id.localeCompare(b.driver_id));
  }

  /** `GET /orders/assignable`: orders (approved, scheduled, delivered) with unassigned jobs. */
  async assignable(scope: Scope, q: AssignableOrdersQuery): Promise<Page<AssignableOrderDto>> {
    const page = await this.orders.assignable(scope, q);
    return new Page(
      page.items.map((o) => ({
        ...DispatchOrderDto.of(o),
        customer_name: o.customerName,
        specification_name: o.specificationName,
        waste_type_name: o.wasteTypeName,
        unassigned_jobs: o.unassignedJobs,
      })),
      page.meta,
    );
  }

  /**
   * `GET /orders/{orderId}/assets-with-availability`: the company's assets of the order's specification,
   * each with its status and whether it is free for the order's next delivery or swap: available (no
   * job holds it), or already reserved for one of this order's jobs. Reservations are not dated: an asset
   * reserved for another job, out on a site or in maintenance is not free on any date.
   */
  async orderAssets(scope: Scope, orderId: string, date?: string): Promise<OrderAssetsDto> {
    const { companyId } = scope;
    const company = Scope.company(companyId);
    const order = (await this.orders.many(scope, [orderId])).get(orderId);
    if (!order) throw ApiError.notFound('Order');
    const [jobs, assets] = await Promise.all([this.jobs.listForOrder(company, order.id), this.assets.ofSpecification(company, order.assetSpecificationId)]);
    const next = jobs.filter((j) => j.status === 'unassigned' && RESERVING_TYPES.includes(j.type)).sort((a, b) => (a.type === 'delivery' ? 0 : 1) - (b.type === 'delivery' ? 0 : 1) || a.scheduledDate.localeCompare(b.scheduledDate))[0];
    const reserved = new Set(jobs.filter((j) => j.assetId && j.status !== 'completed' && j.status !== 'aborted').map((j) => j.assetId!));
    const lotId = next?.lotId ?? order.lotId;
    const day = date ?? next?.scheduledDate ?? (await this.views.today(scope));
    // The container calendar: free from the day to the order's pickup (its last unfinished pickup job's date, else the order's; open-ended without one).
    const pickup = heldDaysOf(order, jobs).to;
    const free = await this.containers.freeAssets(company, order.id, order.assetSpecificationId, day, pickup === null ? null : pickup >= day ? pickup : day);
    return {
      order_id: order.id,
      asset_specification_id: order.assetSpecificationId,
      job_id: next?.id ?? null,
      date: day,
      assets: assets.map((a) => {
        const mine = reserved.has(a.id) && a.status === 'reserved';
        return { ...a, free: free.has(a.id), reserved_for_this_order: mine, at_job_lot: a.home_lot_id === lotId };
      }),
    };
  }

}

