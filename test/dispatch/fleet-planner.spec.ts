import { budgetFor, feasible, heuristicRoutes, planFleet, problemOf, routeKm, routeMinutes, type FleetDay, type FleetProblem } from '../../src/modules/dispatch/fleet-planner';
import { containersFor, vehiclesOf } from '../../src/modules/dispatch/fleet-plan.service';
import { prng } from '../../src/modules/dispatch/route-optimiser';

/** mulberry32: seeded days. */
const rng = prng;

const TYPES = ['delivery', 'pickup', 'swap', 'dump_return', 'relocate'] as const;

/** A seeded day around Springfield: `jobs` jobs, `drivers` drivers, some pinned, one truck type carrying only s0, a shift that binds. */
function dayOf(seed: number, jobs: number, drivers: number, o: { shift?: number; pinShare?: number; spread?: number; underWay?: boolean } = {}): FleetDay {
  const r = rng(seed);
  const spread = o.spread ?? 0.3;
  const at = (id: string) => ({ id, lat: 39.8 + (r() - 0.5) * spread, lng: -89.65 + (r() - 0.5) * spread * 1.3 });
  const lots = [at('lot-0'), at('lot-1')];
  const stations = [0, 1, 2].map((k) => ({ ...at(`st-${k}`), wasteTypeIds: k === 2 ? ['w1'] : ['w0', 'w1'] }));
  const vehicles = Array.from({ length: drivers }, (_, k) => ({ driverId: `d-${k}`, truckId: `t-${k}`, home: lots[k % 2], specificationIds: k % 3 === 2 ? ['s0'] : ['s0', 's1'] }));
  const seq = new Map<string, number>();
  return {
    date: '2027-03-15',
    vehicles,
    lots,
    stations,
    settings: { shiftMinutes: o.shift ?? 600, averageSpeedKmh: 40, serviceMinutes: { delivery: 15, pickup: 15, swap: 25, dump_return: 20, relocate: 20 }, stationMinutes: 20 },
    jobs: Array.from({ length: jobs }, (_, k) => {
      const type = TYPES[Math.floor(r() * TYPES.length)];
      const pinned = r() < (o.pinShare ?? 0.2) ? vehicles[Math.floor(r() * drivers)].driverId : null;
      const s = pinned ? (seq.get(pinned) ?? 0) + 1 : null;
      if (pinned) seq.set(pinned, s!);
      // With underWay, each driver's last pinned job is in progress (it must open the route, wherever its sequence).
      return { id: `job-${k}`, type, specificationId: r() < 0.7 ? 's0' : 's1', wasteTypeId: r() < 0.5 ? 'w0' : 'w1', orderId: `o-${k}`, site: at(`site-${k}`), destination: type === 'relocate' ? at(`dest-${k}`) : null, driverId: pinned, sequence: s, version: 'v1' };
    }).map((j, k, all) => ({ ...j, underWay: !!o.underWay && !!j.driverId && !all.slice(k + 1).some((x) => x.driverId === j.driverId) })),
  };
}

/** Every permutation of xs. */
function* permutations(xs: number[]): Generator<number[]> {
  if (xs.length <= 1) {
    yield xs;
    return;
  }
  for (let i = 0; i < xs.length; i++) for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) yield [xs[i], ...rest];
}

/**
 * Exhaustive search, independent of the planner's DP: every assignment of every job to a vehicle or to
 * nobody, each vehicle's jobs in every order (the best order per vehicle and set, found by trying all);
 * the most jobs planned, then the least km, under the same rules (allowed, pins, shift).
 */
function exhaustive(p: FleetProblem): { planned: number; km: number } {
  const bestOf: Map<number, number>[] = [];
  for (let v = 0; v < p.V; v++) {
    const m = new Map<number, number>();
    for (let S = 0; S < 1 << p.n; S++) {
      const jobs = Array.from({ length: p.n }, (_, j) => j).filter((j) => S & (1 << j));
      if (jobs.some((j) => !p.allowed[v * p.n + j])) continue;
      const pinnedOnly = jobs.every((j) => p.pin[j] >= 0);
      let best = Infinity;
      for (const seq of permutations(jobs)) {
        if (p.first[v] >= 0 && seq[0] !== p.first[v]) continue;
        const km = routeKm(p, v, seq);
        if (km < best && (pinnedOnly || routeMinutes(p, v, seq) <= p.shift + 1e-9)) best = km;
      }
      if (best < Infinity) m.set(S, best);
    }
    bestOf.push(m);
  }
  let best = { planned: -1, km: Infinity };
  const owner = new Array<number>(p.n).fill(-1);
  const visit = (j: number) => {
    if (j === p.n) {
      let km = 0;
      for (let v = 0; v < p.V; v++) {
        let S = 0;
        owner.forEach((o, x) => (o === v ? (S |= 1 << x) : 0));
        const r = bestOf[v].get(S);
        if (r === undefined) return;
        km += r;
      }
      const planned = owner.filter((o) => o >= 0).length;
      if (planned > best.planned || (planned === best.planned && km < best.km)) best = { planned, km };
      return;
    }
    for (let v = p.pin[j] >= 0 ? p.pin[j] : -1; v < (p.pin[j] >= 0 ? p.pin[j] + 1 : p.V); v++) {
      owner[j] = v;
      visit(j + 1);
    }
  };
  visit(0);
  return best;
}

const plannedOf = (plan: ReturnType<typeof planFleet>) => plan.routes.reduce((s, r) => s + r.stops.length, 0);

describe('fleet planner (POST /dispatch/plan, issue #26): the pure search', () => {
  it('is optimal on tiny days (≤ 8 jobs, ≤ 3 drivers): the exact plan equals exhaustive search over all assignments × sequences', () => {
    let checked = 0;
    let shiftBound = 0;
    for (let seed = 1; seed <= 36; seed++) {
      const jobs = 1 + (seed % 8);
      const drivers = 1 + (seed % 3);
      // A short shift on a third of the days, so the limit decides which jobs fit.
      const day = dayOf(seed, jobs, drivers, { shift: seed % 3 === 0 ? 150 : 600, pinShare: 0.3, underWay: seed % 2 === 0 });
      const plan = planFleet(day);
      expect(plan.exact).toBe(true);
      const p = problemOf(day);
      const truth = exhaustive(p);
      expect(plannedOf(plan)).toBe(truth.planned);
      expect(plan.distance_after_km).toBeCloseTo(truth.km, 3);
      if (truth.planned < p.n) shiftBound++;
      checked++;
    }
    expect(checked).toBe(36);
    expect(shiftBound).toBeGreaterThan(0);
  });

  it('the heuristic finds the same optimum on most tiny days', () => {
    let same = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const day = dayOf(seed, 8, 3);
      const exact = planFleet(day);
      const heuristic = planFleet(day, { exactJobs: 0, budget: 200_000 });
      expect(heuristic.exact).toBe(false);
      expect(plannedOf(heuristic)).toBeLessThanOrEqual(plannedOf(exact));
      if (plannedOf(heuristic) === plannedOf(exact) && Math.abs(heuristic.distance_after_km - exact.distance_after_km) < 1e-3) same++;
    }
    expect(same).toBeGreaterThanOrEqual(18);
  });

  it.each([
    [11, 40, 4],
    [12, 60, 5],
    [13, 90, 8],
  ])('never exceeds a shift, never moves a pinned job, gives only carried specifications (seed %i, %i jobs, %i drivers)', (seed, jobs, drivers) => {
    const day = dayOf(seed, jobs, drivers, { pinShare: 0.25, shift: 420, underWay: true });
    const plan = planFleet(day, { budget: budgetFor(jobs) / 4 });
    const jobById = new Map(day.jobs.map((j) => [j.id, j]));
    const seen = new Set<string>();
    for (const r of plan.routes) {
      const veh = day.vehicles.find((v) => v.driverId === r.driver_id)!;
      for (const s of r.stops) {
        const j = jobById.get(s.job_id)!;
        seen.add(j.id);
        if (j.driverId) expect(r.driver_id).toBe(j.driverId);
        else expect(veh.specificationIds).toContain(j.specificationId);
        expect(s.pinned).toBe(!!j.driverId);
      }
      const under = day.jobs.find((j) => j.underWay && j.driverId === r.driver_id);
      if (under) expect(r.stops[0].job_id).toBe(under.id);
      if (r.stops.some((s) => !s.pinned)) expect(r.minutes).toBeLessThanOrEqual(day.settings.shiftMinutes);
      expect(r.slack_minutes).toBeCloseTo(day.settings.shiftMinutes - r.minutes, 5);
    }
    // The same check on the planner's own numbers: allowed vehicles, pins, the job under way first, shifts.
    const p = problemOf(day);
    const index = new Map(day.jobs.filter((j) => !plan.unassigned.some((u) => u.job_id === j.id && u.reason !== 'shift_full')).map((j, k) => [j.id, k]));
    expect(feasible(p, plan.routes.map((r) => r.stops.map((s) => index.get(s.job_id)!)))).toBe(true);
    // Every pinned job is on its driver's route, every job is planned or reported once.
    for (const j of day.jobs.filter((x) => x.driverId)) expect(seen.has(j.id)).toBe(true);
    expect(seen.size + plan.unassigned.length).toBe(day.jobs.length);
    expect(plan.unassigned.every((u) => !seen.has(u.job_id))).toBe(true);
    expect(plan.unassigned.some((u) => u.reason === 'shift_full')).toBe(true);
  });

  it('is deterministic: the same day gives the same plan and plan id; a job edited gives another id', () => {
    const day = dayOf(21, 70, 6);
    const a = planFleet(day);
    const b = planFleet(dayOf(21, 70, 6));
    expect(a.exact).toBe(false);
    expect(b).toEqual(a);
    expect(a.plan_id).toMatch(/^[0-9a-f]{32}$/);
    const edited = { ...day, jobs: day.jobs.map((j, k) => (k === 3 ? { ...j, version: 'v2' } : j)) };
    expect(planFleet(edited).plan_id).not.toBe(a.plan_id);
  });

  it('reports why jobs are left out: no truck carries the specification, no open station accepts the waste', () => {
    const day = dayOf(31, 6, 2);
    const jobs = [...day.jobs, { ...day.jobs[0], id: 'job-s9', specificationId: 's9', driverId: null }, { ...day.jobs[1], id: 'job-w9', type: 'pickup' as const, wasteTypeId: 'w9', driverId: null }];
    const plan = planFleet({ ...day, jobs });
    expect(plan.unassigned).toEqual(expect.arrayContaining([{ job_id: 'job-s9', reason: 'no_truck_carries_specification' }, { job_id: 'job-w9', reason: 'no_station' }]));
  });

  it('leaves out a free delivery or swap the container calendar has no container for (no_container); the container is in the plan id', () => {
    const day = dayOf(31, 6, 2, { pinShare: 0 });
    const withAsset = (assetId: string | null) => planFleet({ ...day, jobs: day.jobs.map((j, k) => (k === 0 ? { ...j, assetId } : j)) });
    const none = withAsset(null);
    expect(none.unassigned).toContainEqual({ job_id: 'job-0', reason: 'no_container' });
    expect(none.routes.flatMap((r) => r.stops.map((x) => x.job_id))).not.toContain('job-0');
    const one = withAsset('asset-1');
    expect(one.routes.flatMap((r) => r.stops.map((x) => x.job_id))).toContain('job-0');
    expect(withAsset('asset-2').plan_id).not.toBe(one.plan_id);
  });

  /** Two jobs (0: j, 1: x), two vehicles, no driving between jobs; km from/to each vehicle's home given per job. */
  const tiny = (home: number[][], service: number[], shift: number, allowed: number[][]): FleetProblem => ({
    n: 2,
    V: home.length,
    between: new Float64Array(4),
    fromHome: Float64Array.from(home.flat()),
    toHome: Float64Array.from(home.flat()),
    internal: new Float64Array(2),
    serviceMin: Float64Array.from(service),
    minPerKm: 1,
    shift,
    allowed: Uint8Array.from(allowed.flat()),
    pin: Int32Array.from([-1, -1]),
    first: Int32Array.from(home.map(() => -1)),
  });

  it('ejects: an unplanned job fits only where a planned one is, which moves to another route (one more job planned)', () => {
    // Vehicle 0 (1 km from both) may take j and x but not both in its shift; vehicle 1 (20 km from x) may take only x.
    const p = tiny([[1, 1], [1000, 20]], [100, 100], 180, [[1, 1], [0, 1]]);
    // From x on vehicle 0: j fits nowhere, and moving x alone only adds km (local search keeps it).
    expect(heuristicRoutes(p, [[1], []], { budget: 1 })).toEqual([[0], [1]]);
  });

  it('swaps: an unplanned job shorter than a planned one takes its place when nothing else can (as many jobs, fewer km)', () => {
    const p = tiny([[1, 10]], [100, 100], 150, [[1, 1]]);
    expect(heuristicRoutes(p, [[1]], { budget: 1 })).toEqual([[0]]);
  });

  it('km before is the current assignment: pinned jobs in their sequence', () => {
    const day = dayOf(41, 6, 2, { pinShare: 1 });
    const plan = planFleet(day);
    const p = problemOf(day);
    const before = day.vehicles.reduce((s, _, v) => s + routeKm(p, v, day.jobs.map((j, k) => (p.pin[k] === v ? k : -1)).filter((k) => k >= 0)), 0);
    expect(plan.distance_before_km).toBeCloseTo(before, 3);
    expect(plan.distance_after_km).toBeLessThanOrEqual(plan.distance_before_km + 1e-9);
    expect(plan.unassigned).toEqual([]);
  });
});

describe('fleet plan: the containers of the day (containersFor)', () => {
  it('gives as many jobs a container as possible, one each, in id order; null when none is left, absent without a hold', () => {
    // A tries x first; B can only have x: the matching moves A to y. C has nothing free; D's order has no hold.
    const got = containersFor([
      { id: 'b', free: ['x'] },
      { id: 'a', free: ['x', 'y'] },
      { id: 'c', free: ['x', 'y'] },
      { id: 'd', free: undefined },
    ]);
    expect([...got.entries()]).toEqual([
      ['a', 'y'],
      ['b', 'x'],
      ['c', null],
    ]);
  });
});

describe('fleet plan: the drivers planned and their trucks (vehiclesOf)', () => {
  const lots = [{ id: 'lot-a', name: 'A', latitude: 40, longitude: -89, day: { open: true } }] as never[];
  const truck = (id: string, plate: string, specs: string[], o: { status?: string; homeLotId?: string | null } = {}) =>
    ({ id, plate, name: null, status: o.status ?? 'active', truckTypeId: 'tt', truckTypeName: 'T', specificationIds: specs, homeLotId: o.homeLotId === undefined ? 'lot-a' : o.homeLotId, lat: null, lng: null });
  const job = (id: string, driverId: string, truckId: string, sequence: number) => ({ id, driverId, truckId, sequence, createdAt: new Date(0) }) as never;

  it('day truck from the first job, else the check-in truck, else a free truck carrying the most specifications; left out with why', () => {
    const fleet = [truck('t-1', 'AAA', ['s0']), truck('t-2', 'BBB', ['s0', 's1']), truck('t-3', 'CCC', ['s0']), truck('t-4', 'DDD', ['s0', 's1'], { status: 'maintenance' }), truck('t-5', 'EEE', ['s0'], { homeLotId: null })];
    const roster = ['d-1', 'd-2', 'd-3', 'd-4', 'd-5', 'd-6', 'd-7'].map((id) => ({ id }));
    const states = new Map([
      ['d-2', { status: 'checked_in', truck_id: 't-3' }],
      ['d-3', { status: 'checked_out', truck_id: null }],
      ['d-4', { status: 'on_break', truck_id: 't-4' }], // in maintenance: not taken
    ]);
    const jobs = [job('j-2', 'd-1', 't-5', 2), job('j-1', 'd-1', 't-1', 1)];
    const { vehicles, leftOut } = vehiclesOf(roster, states, new Set(['d-5']), jobs, fleet as never, lots);
    expect(vehicles.map((v) => [v.driverId, v.truckId])).toEqual([
      ['d-1', 't-1'], // its first job's truck (sequence 1), not t-5
      ['d-2', 't-3'], // checked in with it
      ['d-4', 't-2'], // free: the one carrying two specifications first
    ]);
    expect(leftOut).toEqual([
      { driver_id: 'd-3', reason: 'checked_out' },
      { driver_id: 'd-5', reason: 'on_leave' },
      { driver_id: 'd-6', reason: 'no_truck' },
      { driver_id: 'd-7', reason: 'no_truck' },
    ]);
    // A truck kept by a job whose home lot is unusable leaves its driver out.
    const lone = vehiclesOf([{ id: 'd-9' }], new Map(), new Set(), [job('j-9', 'd-9', 't-5', 1)], fleet as never, lots);
    expect(lone).toEqual({ vehicles: [], leftOut: [{ driver_id: 'd-9', reason: 'no_home_lot' }] });
  });
});
