import { clockIn, instantIn } from '../../src/common/dates';
import { dayArrivals, startsSample, type ArrivalSettings, type ArrivalStop } from '../../src/modules/dispatch/arrival-times';
import type { Leg } from '../../src/modules/dispatch/route-optimiser';
import { tour } from '../support/dispatch-fixtures';

const MINUTE = 60_000;
const home = { id: 'lot', lat: 40, lng: -89 };
const leg = (kind: Leg['kind'], id: string, lat: number, lng: number): Leg => ({ kind, id, lat, lng });
const lot = leg('lot', 'lot', 40, -89);
const site = leg('site', 'a', 40.18, -89);
const other = leg('site', 'b', 40.1, -88.9);
const station = leg('station', 's', 40.05, -89.05);
const settings: ArrivalSettings = {
  shiftStart: new Date('2027-01-04T14:00:00Z'),
  averageSpeedKmh: 40,
  serviceMinutes: { delivery: 15, pickup: 10, swap: 25, dump_return: 20, relocate: 30 },
  stationMinutes: 20,
};
const drive = (...points: { lat: number; lng: number }[]) => (tour(points) / 40) * 60 * MINUTE;
const stop = (jobId: string, type: ArrivalStop['type'], legs: Leg[] | null, extra: Partial<ArrivalStop> = {}): ArrivalStop => ({ jobId, type, status: 'assigned', legs, completedAt: null, position: null, arrivedAt: null, ...extra });

/** The pure timing of a day (src/modules/dispatch/arrival-times.ts; docs/dispatch.md, "Arrival times"). */
describe('arrival times of a day', () => {
  const start = settings.shiftStart.getTime();
  const before = new Date(start - 60 * MINUTE);

  it('a dump and return takes its service at both visits; a relocation once; a station its minutes', () => {
    const stops = [stop('dr', 'dump_return', [site, station, site]), stop('rl', 'relocate', [site, other]), stop('d', 'delivery', [lot, other])];
    const times = dayArrivals(home, stops, settings, before);
    const dr = start + drive(home, site);
    const rl = dr + 20 * MINUTE + drive(site, station) + 20 * MINUTE + drive(station, site) + 20 * MINUTE; // back at the site: service again
    const d = rl + 30 * MINUTE + drive(site, other) + drive(other, lot, other); // the relocation's service once, then on to the lot
    expect(times.get('dr')!.plannedAt!.getTime()).toBeCloseTo(dr, -1);
    expect(times.get('rl')!.plannedAt!.getTime()).toBeCloseTo(rl, -1);
    expect(times.get('d')!.plannedAt!.getTime()).toBeCloseTo(d, -1);
    // Before the shift start, nothing started: expected = planned.
    expect(times.get('d')!.expectedAt).toEqual(times.get('d')!.plannedAt);
  });

  it('the stop in progress: from its last point (the legs before the site behind the driver); the next stop after it', () => {
    const now = new Date(start + 90 * MINUTE);
    const where = { lat: 40.09, lng: -89 };
    const stops = [stop('d', 'delivery', [lot, site], { status: 'in_progress', position: where }), stop('p', 'pickup', [other, station, lot])];
    const times = dayArrivals(home, stops, settings, now);
    const d = now.getTime() + drive(where, site);
    expect(times.get('d')!.expectedAt!.getTime()).toBeCloseTo(d, -1);
    expect(times.get('p')!.expectedAt!.getTime()).toBeCloseTo(d + 15 * MINUTE + drive(site, other), -1);
    expect(times.get('d')!.arrivedAt).toBeNull();
    // Within 150 m of the site: arrived now; the next stop after what is left of the service.
    const there = dayArrivals(home, [{ ...stops[0], position: { lat: 40.1795, lng: -89 } }, stops[1]], settings, now);
    expect(there.get('d')!.arrivedAt).toEqual(now);
    expect(there.get('p')!.expectedAt!.getTime()).toBeCloseTo(now.getTime() + 15 * MINUTE + drive(site, other), -1);
  });

  it('a completed stop: the next one starts from its end, now', () => {
    const now = new Date(start + 120 * MINUTE);
    const stops = [stop('p', 'pickup', [other, station, lot], { status: 'completed', completedAt: now }), stop('d', 'delivery', [lot, site])];
    const times = dayArrivals(home, stops, settings, now);
    expect(times.get('p')!.expectedAt).toBeNull(); // kept as stored by the service
    expect(times.get('d')!.expectedAt!.getTime()).toBeCloseTo(now.getTime() + drive(lot, site), -1);
  });

  it('a stop that cannot be routed and the stops after it get no time', () => {
    const times = dayArrivals(home, [stop('x', 'pickup', null), stop('d', 'delivery', [lot, site])], settings, before);
    expect(times.get('x')).toMatchObject({ plannedAt: null, expectedAt: null });
    expect(times.get('d')).toMatchObject({ plannedAt: null, expectedAt: null });
  });

  it('points start a recomputation once per minute of recorded time', () => {
    const at = (s: number) => new Date(Date.UTC(2027, 0, 4, 14, 0, s));
    expect(startsSample(null, at(5))).toBe(true);
    expect(startsSample(at(5), at(59))).toBe(false);
    expect(startsSample(at(59), at(60))).toBe(true);
  });
});

describe('company wall-clock times', () => {
  it('the shift start on a date in a time zone, across daylight saving time', () => {
    expect(instantIn('UTC', '2027-03-15', '07:00').toISOString()).toBe('2027-03-15T07:00:00.000Z');
    expect(instantIn('America/Chicago', '2027-01-15', '07:00').toISOString()).toBe('2027-01-15T13:00:00.000Z');
    expect(instantIn('America/Chicago', '2027-03-15', '07:00').toISOString()).toBe('2027-03-15T12:00:00.000Z');
    expect(instantIn('Europe/Berlin', '2027-10-31', '08:30').toISOString()).toBe('2027-10-31T07:30:00.000Z');
    expect(clockIn('America/Chicago', new Date('2027-03-15T15:40:00Z'))).toBe('10:40');
  });
});
