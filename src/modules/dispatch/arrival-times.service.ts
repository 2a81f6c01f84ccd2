import { Injectable } from '@nestjs/common';
import { Scope } from '../../common/access/scope';
import { clockIn, instantIn } from '../../common/dates';
import type { EventType } from '../../common/outbox/event-catalogue';
import { EventHandler, EventSubscriber, RelayedEvent } from '../../common/outbox/event-subscriber';
import { UnitOfWork } from '../../database/unit-of-work';
import { CompanySettingsService } from '../companies';
import { CustomerAddressesService } from '../customers';
import { TrucksService } from '../fleet';
import { JobsService, type ArrivalWrite, type JobView } from '../jobs';
import { OrderOperations, orderNumber, type OrderForJobs } from '../orders';
import { LotsService, StationsService } from '../sites';
import { dayArrivals, type ArrivalStop } from './arrival-times';
import type { ArrivalToldPayload } from './events';
import { JobFactsRepository } from './job-facts.repository';
import { dayPlaces, homeLotOf, ordersOfJobs, routeJobOf } from './route-collapse.service';
import { legsOf, RouteError, type Leg } from './route-optimiser';

const MINUTE = 60_000;

/**
 * Arrival times (issue #26): recomputes a driver's day (`dayArrivals`, arrival-times.ts) from the jobs,
 * the legs route collapse gives them, the truck's home lot and the company's planning settings, and keeps
 * the result on `job_arrivals` (the jobs module). In the same unit it tells the customer, through events
 * the notification rules turn into notifications, live pushes and mails (notifications.ts):
 * - `job.arrival_on_the_way` once per job, when it is in progress (the driver started it: they set off
 *   toward its site) and has not arrived yet;
 * - `job.arrival_slipped` each time the expected arrival of a job the customer was told of is more than
 *   `arrival_slip_minutes` past what they were last told (then that is what they were last told).
 * Runs in the relay (`RecomputeArrivals`), serialised per driver and day.
 */
@Injectable()
export class ArrivalTimesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly jobs: JobsService,
    private readonly orders: OrderOperations,
    private readonly trucks: TrucksService,
    private readonly lots: LotsService,
    private readonly stations: StationsService,
    private readonly addresses: CustomerAddressesService,
    private readonly settings: CompanySettingsService,
    private readonly events: JobFactsRepository,
  ) {}

  /**
   * The days a job's change concerns: the job's day now (driver and date) and the day its arrival was last
   * computed for (a job moved to another driver or date, aborted or deleted leaves that day), plus `also`.
   */
  async recomputeFor(scope: Scope, jobId: string, also: { driverId: string | null; date?: string } | null = null, now = new Date()): Promise<void> {
    const job = await this.jobs.find(scope, jobId).catch(() => null);
    const days = new Map<string, { driverId: string; date: string }>();
    const add = (driverId: string | null | undefined, date: string | undefined) => {
      if (driverId && date) days.set(`${driverId}|${date}`, { driverId, date });
    };
    if (job && job.status !== 'aborted' && job.status !== 'unassigned') add(job.driverId, job.scheduledDate);
    for (const a of await this.jobs.arrivalsOf(scope, null, [jobId])) add(a.driverId, a.scheduledDate);
    add(also?.driverId, also?.date ?? job?.scheduledDate);
    // A job moved between drivers or dates recomputes two days: the company's settings and truck roster, and each date's lots and stations, are read once for both.
    const reads = new DayReads();
    for (const day of days.values()) await this.recomputeDay(scope, day.driverId, day.date, now, reads);
  }

  /** Recomputes and saves a driver's day, and records what the customers are to be told. */
  async recomputeDay(scope: Scope, driverId: string, date: string, now = new Date(), reads = new DayReads()): Promise<void> {
    await this.uow.transaction(async () => {
      await this.jobs.serialiseArrivals(scope, driverId, date);
      const day = await this.jobs.ofDriverDay(scope, driverId, date, ['assigned', 'in_progress', 'completed']);
      const stored = new Map((await this.jobs.arrivalsOf(scope, { driverId, date }, day.map((j) => j.id))).map((a) => [a.jobId, a]));
      const gone = [...stored.values()].filter((a) => a.driverId === driverId && a.scheduledDate === date && !day.some((j) => j.id === a.jobId)).map((a) => a.jobId);
      const computed = day.length ? await this.compute(scope, day, stored, now, reads) : null;
      if (!computed) {
        // Nothing to time (no usable home lot, or no job left): the day's rows go.
        await this.jobs.saveArrivals(scope, [], [...gone, ...day.filter((j) => stored.has(j.id)).map((j) => j.id)]);
        return;
      }
      await this.jobs.saveArrivals(scope, computed.rows, gone);
      if (computed.told.length) await this.events.recordEvents(...computed.told);
    });
  }

  /** The day's new rows and the customers' notifications; null when the day cannot be timed (no truck with a usable home lot). */
  private async compute(scope: Scope, day: readonly JobView[], stored: ReadonlyMap<string, ArrivalWrite>, now: Date, reads: DayReads) {
    const truckId = day.find((j) => j.truckId)?.truckId;
    if (!truckId) return null;
    const date = day[0].scheduledDate;
    const [settings, orders, fleet, lots, stations] = [
      await (reads.settings ??= this.settings.get(scope)),
      await this.orders.many(scope, ordersOfJobs(day)),
      await (reads.fleet ??= this.trucks.roster(scope)),
      await reads.of(reads.lots, date, () => this.lots.forDay(scope, date)),
      await reads.of(reads.stations, date, () => this.stations.forDay(scope, date)),
    ];
    const home = homeLotOf(fleet.find((t) => t.id === truckId), lots);
    if (!home) return null;
    const destinations = await this.addresses.positions(scope, day.map((j) => j.destinationAddressId).filter((a): a is string => !!a));
    const places = { homeLot: home, ...dayPlaces(lots, stations) };
    const stops: ArrivalStop[] = day
      .filter((j) => !j.mergedIntoJobId)
      .map((j) => {
        let legs: Leg[] | null;
        try {
          legs = orders.has(j.orderId) && orders.has(j.pickupOrderId ?? j.orderId) ? legsOf(routeJobOf(j, orders, destinations), places) : null;
        } catch (e) {
          if (!(e instanceof RouteError)) throw e;
          legs = null;
        }
        // Points are taken only for a job in progress: the job's latest is where the driver is.
        const point = j.status === 'in_progress' && j.lastLat !== null && j.lastLng !== null ? { lat: j.lastLat, lng: j.lastLng } : null;
        return { jobId: j.id, type: j.type, status: j.status as ArrivalStop['status'], legs, completedAt: j.completedAt, position: point, arrivedAt: stored.get(j.id)?.arrivedAt ?? null };
      });
    const times = dayArrivals(
      home,
      stops,
      {
        shiftStart: instantIn(settings.timezone, date, settings.shift_start_time),
        averageSpeedKmh: settings.average_speed_kmh,
        serviceMinutes: {
          delivery: settings.service_minutes_delivery,
          pickup: settings.service_minutes_pickup,
          swap: settings.service_minutes_swap,
          dump_return: settings.service_minutes_dump_return,
          relocate: settings.service_minutes_relocate,
        },
        stationMinutes: settings.station_minutes,
      },
      now,
    );
    const rows: ArrivalWrite[] = [];
    const told: Told[] = [];
    for (const j of day) {
      // A merged pickup arrives with its swap.
      const t = times.get(j.mergedIntoJobId ?? j.id);
      const before = stored.get(j.id);
      const row: ArrivalWrite = {
        jobId: j.id,
        driverId: j.driverId!,
        scheduledDate: j.scheduledDate,
        plannedAt: t?.plannedAt ?? null,
        // A completed stop keeps its last expected time (and arrival).
        expectedAt: j.status === 'completed' ? (before?.expectedAt ?? t?.plannedAt ?? null) : (t?.expectedAt ?? null),
        arrivedAt: t?.arrivedAt ?? before?.arrivedAt ?? null,
        toldAt: before?.toldAt ?? null,
        onTheWayAt: before?.onTheWayAt ?? null,
      };
      rows.push(row);
      const order = orders.get(j.orderId);
      if (j.status !== 'in_progress' || j.mergedIntoJobId || !order || !row.expectedAt || row.arrivedAt) continue;
      const payload = toldPayload(j, order, row.expectedAt, settings.timezone);
      if (!row.onTheWayAt) {
        told.push(toldEvent('job.arrival_on_the_way', scope, j, payload));
        row.onTheWayAt = now;
        row.toldAt = row.expectedAt;
      } else if (row.toldAt && row.expectedAt.getTime() - row.toldAt.getTime() > settings.arrival_slip_minutes * MINUTE) {
        told.push(
          toldEvent('job.arrival_slipped', scope, j, {
            ...payload,
            previously_told_at: row.toldAt.toISOString(),
            previously_told_local: clockIn(settings.timezone, row.toldAt),
            slip_minutes: Math.round((row.expectedAt.getTime() - row.toldAt.getTime()) / MINUTE),
          }),
        );
        row.toldAt = row.expectedAt;
      }
    }
    return { rows, told };
  }
}

const toldPayload = (j: JobView, order: OrderForJobs, expected: Date, timezone: string): ArrivalToldPayload => ({
  order_id: j.orderId,
  order_number: orderNumber(order.number),
  customer_id: order.customerId,
  driver_id: j.driverId!,
  type: j.type,
  expected_at: expected.toISOString(),
  expected_local: clockIn(timezone, expected),
  timezone,
});

type Told = ReturnType<typeof toldEvent>;
function toldEvent<T extends 'job.arrival_on_the_way' | 'job.arrival_slipped'>(type: T, scope: Scope, j: JobView, payload: RelayedEvent<T>['payload']) {
  return { type, aggregateType: 'job', aggregateId: j.id, companyId: scope.companyId, actorId: null, payload } as const;
}

/** The job events after which a driver's day is timed again. */
const ARRIVAL_TRIGGERS = ['job.assigned', 'job.reassigned', 'job.updated', 'job.in_progress', 'job.completed', 'job.aborted', 'job.position_sampled'] as const satisfies readonly EventType[];
type Trigger = (typeof ARRIVAL_TRIGGERS)[number];

/**
 * Recomputes arrival times in the relay (never inline in the request that changed the day): after an
 * assignment, a reassignment (both drivers' days), a job edit (sequence, date, driver, route collapse's
 * merges and sequences), a job started, completed or aborted, and a sampled location point.
 */
@Injectable()
@EventSubscriber({ name: 'arrival-times', events: ARRIVAL_TRIGGERS })
export class RecomputeArrivals implements EventHandler<Trigger> {
  constructor(private readonly arrivals: ArrivalTimesService) {}

  async handle(event: RelayedEvent<Trigger>): Promise<void> {
    if (!event.companyId) return;
    const from = event.type === 'job.reassigned' ? { driverId: event.payload.from_driver_id } : null;
    await this.arrivals.recomputeFor(Scope.company(event.companyId), event.aggregateId, from);
  }
}

/**
 * What the days of one recomputation share (`recomputeFor`): the company's settings and truck roster, and each
 * date's lots and stations, read at most once however many days are recomputed. One recomputation only: a
 * later event reads them again.
 */
class DayReads {
  settings?: ReturnType<CompanySettingsService['get']>;
  fleet?: ReturnType<TrucksService['roster']>;
  readonly lots = new Map<string, ReturnType<LotsService['forDay']>>();
  readonly stations = new Map<string, ReturnType<StationsService['forDay']>>();

  of<T>(kept: Map<string, T>, date: string, read: () => T): T {
    let value = kept.get(date);
    if (value === undefined) kept.set(date, (value = read()));
    return value;
  }
}
