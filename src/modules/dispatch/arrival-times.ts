/**
 * Arrival times of a driver's day (issue #26): a pure function of the day's stops in sequence (each with
 * the legs route collapse gives it, `legsOf`), the truck's home lot, the company's planning settings and
 * the driver's progress. No Nest, no database: `ArrivalTimesService` loads the day and saves the result.
 *
 * - Driving: haversine km between consecutive points at `average_speed_kmh`.
 * - At a stop's site: `service_minutes_<kind>` (a dump and return's second visit, back at the site, takes
 *   them again); at a station: `station_minutes`; at a lot: nothing.
 * - A stop's arrival is the arrival at its first site leg (the customer's address).
 * - Planned: from the home lot at the shift start (company time), every stop in sequence, completed
 *   ones included, whatever happened since (the day's plan).
 * - Expected: from the driver's progress at `now`. Completed stops are done (their times stay as stored);
 *   the stop in progress comes first, then the others in sequence. The driver is at their last point
 *   for the stop in progress (the legs before its site, e.g. a delivery's lot, counted as done), else at
 *   the end of the stop completed last, else at the home lot. The clock starts at `now`; on a day where
 *   nothing is started or completed yet, not before the shift start. A stop whose driver is at its site
 *   (a point within ARRIVED_KM) has arrived: its arrival stays, and only what is left of its service counts.
 */

import { haversineKm, type Leg, type Place } from './route-optimiser';
import type { JobType } from '../jobs';

/**
 * A driver's points start a recomputation of their day at most once per this many seconds of the points'
 * recorded time (the first point of each slot records `job.position_sampled`; docs/dispatch.md, "Arrival times").
 */
export const ARRIVAL_SAMPLE_SECONDS = 60;

/** Whether a point recorded at `at` starts a new sample slot after the job's previous newest point (`previous`). */
export const startsSample = (previous: Date | null, at: Date): boolean => !previous || Math.floor(at.getTime() / (ARRIVAL_SAMPLE_SECONDS * 1000)) !== Math.floor(previous.getTime() / (ARRIVAL_SAMPLE_SECONDS * 1000));

/** A point this close to a stop's site (km) puts the driver there: the stop has arrived. */
export const ARRIVED_KM = 0.15;

export interface ArrivalSettings {
  /** The shift start on the day (company time zone), as an instant. */
  shiftStart: Date;
  averageSpeedKmh: number;
  serviceMinutes: Record<JobType, number>;
  stationMinutes: number;
}

export interface ArrivalStop {
  jobId: string;
  type: JobType;
  status: 'assigned' | 'in_progress' | 'completed';
  /** The stop's legs (`legsOf`); null when it cannot be routed (no station takes its waste): it and the stops after it get no time. */
  legs: Leg[] | null;
  completedAt: Date | null;
  /** The stop in progress: the driver's latest point for it (null: none yet). */
  position: { lat: number; lng: number } | null;
  /** When the driver reached the site (stored by an earlier computation); null: not yet. */
  arrivedAt: Date | null;
}

export interface StopArrival {
  plannedAt: Date | null;
  /** null for a completed stop (its stored time stays) and for stops that cannot be routed. */
  expectedAt: Date | null;
  arrivedAt: Date | null;
}

const MINUTE = 60_000;

/** A walk through legs: where the truck is and when. */
class Walk {
  constructor(
    private at: { lat: number; lng: number },
    private t: number,
    private readonly s: ArrivalSettings,
  ) {}

  get time() {
    return this.t;
  }

  /** Drives to `p`; returns the arrival time. */
  driveTo(p: { lat: number; lng: number }): number {
    this.t += (haversineKm(this.at, p) / this.s.averageSpeedKmh) * 60 * MINUTE;
    this.at = p;
    return this.t;
  }

  wait(ms: number) {
    this.t += Math.max(0, ms);
  }

  /** Puts the truck at `p` at time `t` (no drive). */
  place(p: { lat: number; lng: number }, t: number) {
    this.at = p;
    this.t = t;
  }

  /** The minutes spent at a leg: the stop's service at a site, the station minutes at a station. */
  stay(leg: Leg, type: JobType) {
    this.wait((leg.kind === 'site' ? this.s.serviceMinutes[type] : leg.kind === 'station' ? this.s.stationMinutes : 0) * MINUTE);
  }
}

/** The index of a stop's arrival leg: its first site. */
const siteOf = (legs: readonly Leg[]) => Math.max(0, legs.findIndex((l) => l.kind === 'site'));

/** Drives a whole stop from where the walk is; returns the arrival at its site. */
function driveStop(walk: Walk, stop: ArrivalStop, legs: readonly Leg[], from = 0): number {
  let arrival = walk.time;
  legs.forEach((leg, i) => {
    if (i < from) return;
    const t = walk.driveTo(leg);
    if (i === siteOf(legs)) arrival = t;
    // A relocation's service is at its first site (the container is moved once); a dump and return's at both visits.
    if (leg.kind !== 'site' || i === siteOf(legs) || stop.type === 'dump_return') walk.stay(leg, stop.type);
  });
  return arrival;
}

/**
 * Planned and expected arrivals of a day's stops (in sequence; merged pickups left out: they arrive with
 * their swap), by job id. `now`: the time of the computation.
 */
export function dayArrivals(home: Place, stops: readonly ArrivalStop[], s: ArrivalSettings, now: Date): Map<string, StopArrival> {
  const out = new Map<string, StopArrival>(stops.map((st) => [st.jobId, { plannedAt: null, expectedAt: null, arrivedAt: st.arrivedAt }]));

  // Planned: the whole day from the home lot at the shift start.
  const plan = new Walk(home, s.shiftStart.getTime(), s);
  for (const stop of stops) {
    if (!stop.legs) break;
    out.get(stop.jobId)!.plannedAt = new Date(driveStop(plan, stop, stop.legs));
  }

  // Expected: from where the driver is now.
  const started = stops.some((st) => st.status !== 'assigned');
  const done = stops.filter((st) => st.status === 'completed' && st.legs).sort((a, b) => (a.completedAt?.getTime() ?? 0) - (b.completedAt?.getTime() ?? 0));
  const last = done.at(-1)?.legs;
  const walk = new Walk(last ? last[last.length - 1] : home, started ? now.getTime() : Math.max(now.getTime(), s.shiftStart.getTime()), s);
  const current = stops.find((st) => st.status === 'in_progress');
  const ahead = [...(current ? [current] : []), ...stops.filter((st) => st.status === 'assigned')];
  for (const stop of ahead) {
    if (!stop.legs) break;
    const legs = stop.legs;
    const site = siteOf(legs);
    const arrival = out.get(stop.jobId)!;
    if (stop === current && (stop.arrivedAt || stop.position)) {
      const reached = stop.arrivedAt ?? (haversineKm(stop.position!, legs[site]) <= ARRIVED_KM ? now : null);
      if (reached) {
        // At the site: the arrival stays; what is left of the service, then the rest of the stop.
        arrival.arrivedAt = reached;
        arrival.expectedAt = reached;
        walk.place(legs[site], Math.max(now.getTime(), reached.getTime() + s.serviceMinutes[stop.type] * MINUTE));
        driveStop(walk, stop, legs, site + 1);
        continue;
      }
      // On the way from the last point: the legs before the site are behind the driver.
      walk.place(stop.position!, now.getTime());
      arrival.expectedAt = new Date(driveStop(walk, stop, legs, site));
      continue;
    }
    arrival.expectedAt = new Date(driveStop(walk, stop, legs));
  }
  return out;
}
