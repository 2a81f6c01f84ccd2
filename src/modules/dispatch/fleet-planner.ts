/**
 * Fleet-wide day planning (issue #26 item 1, `POST /dispatch/plan`): a pure function of a day's jobs, the
 * available drivers with their trucks, the open lots and stations and the company's shift settings. No
 * Nest, no database: `FleetPlanService` loads the day, calls `planFleet` and saves what it returns.
 *
 * 1. Each job is a block of fixed legs, exactly as route collapse makes them (`legsOf`, route-optimiser.ts:
 *    the nearest open station accepting the waste, the nearest open lot). No merging into swaps: route
 *    collapse does that per driver afterwards.
 * 2. A route is a driver's day: from the truck's home lot through the blocks in order and back. Its
 *    minutes are the driving (km ÷ average speed) plus the service minutes of each job's kind plus the
 *    station minutes of each station visit; they never exceed the shift (a route holding only pinned jobs
 *    is kept as it is even when over: those jobs are not the planner's to move).
 * 3. A job may go to a driver whose truck's type carries its specification; a pinned job (assigned or in
 *    progress) stays with its driver and is only re-sequenced; a job in progress opens its driver's route.
 * 4. Objective, lexicographic: as many jobs planned as possible, then the least total km. Ties go to the
 *    current order: a route whose jobs in the day's order (pinned ones in their sequence, then the free
 *    ones by creation) are as short (within TIE_KM) keeps that order, so re-planning a saved day moves nothing.
 * 5. Search: exact on small days (`EXACT_JOBS` jobs and `EXACT_VEHICLES` drivers: Held–Karp per driver
 *    over every subset of jobs, then a dynamic programme over drivers choosing disjoint subsets); beyond,
 *    regret-2 insertion, local search (relocate of runs of 1–3 jobs within and across routes, exchange
 *    across routes, 2-opt within a route, 2-opt* across routes; with jobs left over, ejection chains of
 *    depth 1–2 and swaps with the unplanned) and ruin-and-recreate iterations
 *    (seeded PRNG, threshold acceptance falling with the work done). The search stops on a budget of
 *    work (`budgetFor`: `BUDGET_PER_JOB` per job), never on the clock: the same day gives the same plan.
 */

import { createHash } from 'node:crypto';
import { haversineKm, legsOf, pathKm, prng, RouteError, TIE_KM, type Leg, type Place, type RouteJob, type RouteStation } from './route-optimiser';

export const FLEET_PLANNER_VERSION = 2;
/** Days of at most this many free jobs and drivers are solved exactly. */
export const EXACT_JOBS = 10;
export const EXACT_VEHICLES = 6;
/**
 * Work (moves priced, a route re-priced counting its length) per job the heuristic may spend before it
 * stops: `budgetFor(n)` = n × this, so a day's work grows with its size (150 jobs: 15 million, under a second of CPU
 * on one idle core of the benchmark machine). A count, never a time: the same day gives the same plan.
 */
export const BUDGET_PER_JOB = 100_000;
export const budgetFor = (jobs: number) => Math.max(1, jobs) * BUDGET_PER_JOB;

export type StopKind = RouteJob['type'];

export interface FleetSettings {
  shiftMinutes: number;
  averageSpeedKmh: number;
  serviceMinutes: Record<StopKind, number>;
  stationMinutes: number;
}

export interface FleetVehicle {
  driverId: string;
  truckId: string;
  home: Place;
  /** Asset specifications the truck's type carries. */
  specificationIds: readonly string[];
}

export interface FleetJob extends RouteJob {
  /** The driver the job is assigned to (assigned or in progress): pinned there. Null: free. */
  driverId?: string | null;
  /** In progress: the driver is on it, so it opens their route. */
  underWay?: boolean;
  /** A free delivery or swap: the container the calendar leaves it (pinned when the plan is applied); null: none is free, the job is left out (`no_container`). Absent: no container to pin. */
  assetId?: string | null;
}

export interface FleetDay {
  date: string;
  vehicles: readonly FleetVehicle[];
  /** Free jobs and pinned ones; pinned ones in their driver's current sequence. */
  jobs: readonly FleetJob[];
  lots: readonly Place[];
  stations: readonly RouteStation[];
  settings: FleetSettings;
}

export interface FleetOptions {
  budget?: number;
  seed?: number;
  /** 0 forces the heuristic (tests, benchmark). */
  exactJobs?: number;
}

export type UnplannedReason = 'no_truck_carries_specification' | 'no_station' | 'no_container' | 'shift_full';

export interface FleetStop {
  sequence: number;
  job_id: string;
  job_type: StopKind;
  pinned: boolean;
  legs: Leg[];
}

export interface FleetRoute {
  driver_id: string;
  truck_id: string;
  home_lot: Place;
  stops: FleetStop[];
  km: number;
  driving_minutes: number;
  service_minutes: number;
  minutes: number;
  slack_minutes: number;
}

export interface FleetPlan {
  plan_id: string;
  date: string;
  exact: boolean;
  routes: FleetRoute[];
  unassigned: { job_id: string; reason: UnplannedReason }[];
  distance_before_km: number;
  distance_after_km: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const round1 = (x: number) => Math.round(x * 10) / 10;
const EPS = 1e-9;
/** One job left unplanned weighs more than any distance. */
const UNPLANNED = 1e7;

// ------------------------------------------------------------------ the numeric problem

/** The day as numbers: n jobs, V vehicles; edges between the end of one block and the start of the next. */
export interface FleetProblem {
  n: number;
  V: number;
  between: Float64Array;
  /** fromHome[v*n+j], toHome[v*n+j] */
  fromHome: Float64Array;
  toHome: Float64Array;
  internal: Float64Array;
  /** Service and station minutes of each job. */
  serviceMin: Float64Array;
  /** Minutes per km of driving. */
  minPerKm: number;
  shift: number;
  /** allowed[v*n+j] */
  allowed: Uint8Array;
  /** The vehicle a job is pinned to, else -1. */
  pin: Int32Array;
  /** Per vehicle, its job under way (in progress), which opens its route; else -1. */
  first: Int32Array;
}

/** A solution: a sequence per vehicle (job indexes); jobs in none are unplanned. */
export type Routes = number[][];

const edge = (p: FleetProblem, v: number, a: number, b: number) => (a < 0 ? (b < 0 ? 0 : p.fromHome[v * p.n + b]) : b < 0 ? p.toHome[v * p.n + a] : p.between[a * p.n + b]);

export function routeKm(p: FleetProblem, v: number, seq: readonly number[]): number {
  if (!seq.length) return 0;
  let km = 0;
  let at = -1;
  for (const j of seq) {
    km += edge(p, v, at, j) + p.internal[j];
    at = j;
  }
  return km + edge(p, v, at, -1);
}

export const routeMinutes = (p: FleetProblem, v: number, seq: readonly number[]) => routeKm(p, v, seq) * p.minPerKm + seq.reduce((s, j) => s + p.serviceMin[j], 0);

const allPinned = (p: FleetProblem, seq: readonly number[]) => seq.every((j) => p.pin[j] >= 0);

/** Whether a solution keeps every rule: jobs allowed on their vehicle, pins kept, shifts not exceeded (pinned-only routes aside). */
export function feasible(p: FleetProblem, routes: Routes): boolean {
  const seen = new Set<number>();
  for (let v = 0; v < p.V; v++) {
    for (const j of routes[v]) {
      if (seen.has(j) || !p.allowed[v * p.n + j] || (p.pin[j] >= 0 && p.pin[j] !== v)) return false;
      seen.add(j);
    }
    if (!allPinned(p, routes[v]) && routeMinutes(p, v, routes[v]) > p.shift + EPS) return false;
    if (p.first[v] >= 0 && routes[v][0] !== p.first[v]) return false;
  }
  for (let j = 0; j < p.n; j++) if (p.pin[j] >= 0 && !seen.has(j)) return false;
  return true;
}

// ------------------------------------------------------------------ exact

/**
 * Exact: for each vehicle, Held–Karp over the subsets of the jobs it may take (`best[S]` the shortest
 * tour through S from and back to its home, with the order), then a DP over vehicles choosing disjoint
 * subsets (each containing its pinned jobs, feasible for the shift), maximising the jobs planned, then
 * minimising the km. O(V·(2ⁿ·n² + 3ⁿ)).
 */
export function exactRoutes(p: FleetProblem): Routes {
  const { n, V } = p;
  const size = 1 << n;
  const tours: { km: Float64Array; last: Int8Array; dp: Float64Array; from: Int8Array }[] = [];
  for (let v = 0; v < V; v++) {
    // dp[S*n+j]: shortest from home through S ending at j (j ∈ S).
    const dp = new Float64Array(size * n).fill(Infinity);
    const from = new Int8Array(size * n).fill(-1);
    for (let j = 0; j < n; j++) if (p.allowed[v * n + j] && (p.first[v] < 0 || p.first[v] === j)) dp[(1 << j) * n + j] = p.fromHome[v * n + j] + p.internal[j];
    for (let S = 1; S < size; S++) {
      for (let j = 0; j < n; j++) {
        const cur = dp[S * n + j];
        if (cur === Infinity) continue;
        for (let k = 0; k < n; k++) {
          if (S & (1 << k) || !p.allowed[v * n + k]) continue;
          const T = S | (1 << k);
          const km = cur + p.between[j * n + k] + p.internal[k];
          if (km < dp[T * n + k] - EPS) {
            dp[T * n + k] = km;
            from[T * n + k] = j;
          }
        }
      }
    }
    const km = new Float64Array(size).fill(Infinity);
    const last = new Int8Array(size).fill(-1);
    km[0] = 0;
    for (let S = 1; S < size; S++) {
      for (let j = 0; j < n; j++) {
        const t = dp[S * n + j] + p.toHome[v * n + j];
        if (t < km[S] - EPS) {
          km[S] = t;
          last[S] = j;
        }
      }
    }
    tours.push({ km, last, dp, from });
  }
  const serviceOf = new Float64Array(size);
  const pinnedOf = new Int32Array(size); // all pinned: 1
  for (let S = 1; S < size; S++) {
    const j = 31 - Math.clz32(S);
    serviceOf[S] = serviceOf[S & ~(1 << j)] + p.serviceMin[j];
    pinnedOf[S] = (S & ~(1 << j) ? pinnedOf[S & ~(1 << j)] : 1) & (p.pin[j] >= 0 ? 1 : 0);
  }
  const popcount = (x: number) => {
    let c = 0;
    for (; x; x &= x - 1) c++;
    return c;
  };
  // f[U]: best (unplanned·UNPLANNED + km) covering exactly U with vehicles 0..v; choice[v][U] = subset of vehicle v.
  let f = new Float64Array(size).fill(Infinity);
  f[0] = 0;
  const choice: Int32Array[] = [];
  for (let v = 0; v < V; v++) {
    const pins = p.pin.reduce((m, pv, j) => (pv === v ? m | (1 << j) : m), 0);
    const ok = (S: number) => (S & pins) === pins && tours[v].km[S] < Infinity && (pinnedOf[S] === 1 || tours[v].km[S] * p.minPerKm + serviceOf[S] <= p.shift + EPS);
    const g = new Float64Array(size).fill(Infinity);
    const ch = new Int32Array(size).fill(-1);
    for (let U = 0; U < size; U++) {
      // Every subset S of U for this vehicle, the rest from the previous ones.
      for (let S = U; ; S = (S - 1) & U) {
        if (f[U & ~S] < Infinity && (S === 0 ? pins === 0 : ok(S))) {
          const val = f[U & ~S] + (S ? tours[v].km[S] : 0);
          if (val < g[U] - EPS) {
            g[U] = val;
            ch[U] = S;
          }
        }
        if (S === 0) break;
      }
    }
    f = g;
    choice.push(ch);
  }
  let bestU = -1;
  let bestVal = Infinity;
  for (let U = 0; U < size; U++) {
    if (f[U] === Infinity) continue;
    const val = (n - popcount(U)) * UNPLANNED + f[U];
    if (val < bestVal - EPS) {
      bestVal = val;
      bestU = U;
    }
  }
  const routes: Routes = Array.from({ length: V }, () => []);
  for (let v = V - 1, U = bestU; v >= 0; v--) {
    const S = choice[v][U];
    U &= ~S;
    const seq: number[] = [];
    for (let T = S, j = tours[v].last[S]; T; ) {
      seq.unshift(j);
      const prev = tours[v].from[T * n + j];
      T &= ~(1 << j);
      j = prev;
    }
    routes[v] = seq;
  }
  return routes;
}

// ------------------------------------------------------------------ heuristic

/** Where each job would go when displaced (ejection chains): km delta, route, gap, and (depth 2) the position of the job it displaces there. */
interface Away {
  cost: Float64Array;
  v: Int32Array;
  at: Int32Array;
  i: Int32Array;
}

/** Nowhere to go, for n jobs. */
const awayNone = (n: number): Away => ({ cost: new Float64Array(n).fill(Infinity), v: new Int32Array(n).fill(-1), at: new Int32Array(n).fill(-1), i: new Int32Array(n).fill(-1) });

class Search {
  routes: Routes;
  km: Float64Array;
  svc: Float64Array;
  where: Int32Array;
  pos: Int32Array;
  dirty: Uint8Array;
  work = 0;
  private readonly scratch: number[] = [];

  constructor(
    readonly p: FleetProblem,
    routes: Routes,
    readonly near: readonly Int32Array[],
  ) {
    this.routes = routes.map((r) => [...r]);
    this.km = new Float64Array(p.V);
    this.svc = new Float64Array(p.V);
    this.where = new Int32Array(p.n).fill(-1);
    this.pos = new Int32Array(p.n).fill(-1);
    this.dirty = new Uint8Array(p.V).fill(1);
    for (let v = 0; v < p.V; v++) this.refresh(v);
  }

  refresh(v: number): void {
    const seq = this.routes[v];
    this.km[v] = routeKm(this.p, v, seq);
    this.svc[v] = seq.reduce((s, j) => s + this.p.serviceMin[j], 0);
    seq.forEach((j, k) => {
      this.where[j] = v;
      this.pos[j] = k;
    });
  }

  /** Takes jobs out of their routes (they become unplanned). */
  remove(jobs: ReadonlySet<number>): void {
    for (let v = 0; v < this.p.V; v++) {
      const before = this.routes[v].length;
      this.routes[v] = this.routes[v].filter((j) => !jobs.has(j));
      if (this.routes[v].length !== before) this.applied(v);
    }
    for (const j of jobs) this.where[j] = this.pos[j] = -1;
  }

  /** Replaces the routes (a rejected iteration goes back to the current solution). */
  reset(routes: Routes): void {
    this.work += this.p.n;
    this.routes = routes.map((r) => [...r]);
    this.where.fill(-1);
    this.pos.fill(-1);
    for (let v = 0; v < this.p.V; v++) this.refresh(v);
  }

  total(): number {
    let planned = 0;
    let km = 0;
    for (let v = 0; v < this.p.V; v++) {
      planned += this.routes[v].length;
      km += this.km[v];
    }
    return (this.p.n - planned) * UNPLANNED + km;
  }

  fits(v: number, km: number, svc: number): boolean {
    return km * this.p.minPerKm + svc <= this.p.shift + EPS;
  }

  /** The cheapest feasible insertion of job j into vehicle v: [delta km, position], or null. */
  bestInsertion(j: number, v: number): [number, number] | null {
    const p = this.p;
    if (!p.allowed[v * p.n + j] || (p.pin[j] >= 0 && p.pin[j] !== v)) return null;
    const seq = this.routes[v];
    let best = Infinity;
    let at = -1;
    for (let k = p.first[v] >= 0 ? 1 : 0; k <= seq.length; k++) {
      this.work++;
      const a = k ? seq[k - 1] : -1;
      const b = k < seq.length ? seq[k] : -1;
      const d = edge(p, v, a, j) + p.internal[j] + edge(p, v, j, b) - edge(p, v, a, b);
      if (d < best - EPS) {
        best = d;
        at = k;
      }
    }
    if (at < 0 || (!this.fits(v, this.km[v] + best, this.svc[v] + p.serviceMin[j]) && p.pin[j] < 0)) return null;
    return [best, at];
  }

  /**
   * Regret-2 insertion of the unplanned jobs `pool`: the job whose second-best option (another vehicle)
   * costs most more than its best goes first, ties to the cheaper. Each job's best insertion per vehicle is
   * kept and re-priced only for the vehicle that changed. Returns the jobs that fit nowhere.
   */
  insertAll(pool: number[]): number[] {
    const p = this.p;
    const V = p.V;
    const cost = new Float64Array(pool.length * V);
    const at = new Int32Array(pool.length * V);
    const price = (x: number, v: number) => {
      const ins = this.bestInsertion(pool[x], v);
      cost[x * V + v] = ins ? ins[0] : Infinity;
      at[x * V + v] = ins ? ins[1] : -1;
    };
    for (let x = 0; x < pool.length; x++) for (let v = 0; v < V; v++) price(x, v);
    const left = new Set(pool.map((_, x) => x));
    while (left.size) {
      let pick = -1;
      let pickV = -1;
      let pickRegret = -Infinity;
      let pickCost = Infinity;
      for (const x of left) {
        let b1 = Infinity;
        let b2 = Infinity;
        let bv = -1;
        for (let v = 0; v < V; v++) {
          const c = cost[x * V + v];
          if (c < b1 - EPS) {
            b2 = b1;
            b1 = c;
            bv = v;
          } else if (c < b2) b2 = c;
        }
        if (bv < 0) continue;
        const regret = b2 === Infinity ? 1e12 : b2 - b1;
        if (regret > pickRegret + EPS || (Math.abs(regret - pickRegret) <= EPS && b1 < pickCost - EPS)) {
          pick = x;
          pickV = bv;
          pickRegret = regret;
          pickCost = b1;
        }
      }
      if (pick < 0) break;
      this.routes[pickV].splice(at[pick * V + pickV], 0, pool[pick]);
      this.applied(pickV);
      left.delete(pick);
      for (const x of left) price(x, pickV);
    }
    return [...left].map((x) => pool[x]);
  }

  private kmOf(v: number, seq: readonly number[], len: number): number {
    const p = this.p;
    if (!len) return 0;
    let km = 0;
    let at = -1;
    for (let x = 0; x < len; x++) {
      const j = seq[x];
      km += edge(p, v, at, j) + p.internal[j];
      at = j;
    }
    return km + edge(p, v, at, -1);
  }

  /** Route v may hold seq (allowed jobs and pins are the caller's): its shift, unless only pinned jobs. */
  private okRoute(v: number, seq: readonly number[], km: number): boolean {
    let svc = 0;
    let pinnedOnly = true;
    for (const j of seq) {
      svc += this.p.serviceMin[j];
      if (this.p.pin[j] < 0) pinnedOnly = false;
    }
    return pinnedOnly || this.fits(v, km, svc);
  }

  private movable(j: number, to: number): boolean {
    const p = this.p;
    return p.allowed[to * p.n + j] === 1 && (p.pin[j] < 0 || p.pin[j] === to);
  }

  /** Moves touch at least one route changed since the last full pass (`dirty`). */
  private live(r1: number, r2: number): boolean {
    return this.dirty[r1] === 1 || this.dirty[r2] === 1;
  }

  private applied(...vs: number[]): true {
    for (const v of vs) {
      this.refresh(v);
      this.dirty[v] = 1;
    }
    return true;
  }

  /**
   * Relocate a run of 1–3 jobs (as it is) within or across routes, next to one of its first job's nearest
   * neighbours or at either end of a route; first improvement.
   */
  private relocate(): boolean {
    const p = this.p;
    for (let r1 = 0; r1 < p.V; r1++) {
      const s1 = this.routes[r1];
      for (let len = 1; len <= 3; len++) {
        for (let i = p.first[r1] >= 0 ? 1 : 0; i + len <= s1.length; i++) {
          const f = s1[i];
          const l = s1[i + len - 1];
          const pr = i ? s1[i - 1] : -1;
          const nx = i + len < s1.length ? s1[i + len] : -1;
          let inner = 0;
          let svc = 0;
          for (let x = i; x < i + len; x++) {
            inner += p.internal[s1[x]] + (x > i ? p.between[s1[x - 1] * p.n + s1[x]] : 0);
            svc += p.serviceMin[s1[x]];
          }
          const gain = edge(p, r1, pr, f) + edge(p, r1, l, nx) - edge(p, r1, pr, nx);
          // Insert into r2 at k of its sequence without the run (k: index in that rest).
          const tryAt = (r2: number, k: number): boolean => {
            const s2 = this.routes[r2];
            const same = r2 === r1;
            const restLen = same ? s1.length - len : s2.length;
            if (k < 0 || k > restLen || (same && k === i) || (k === 0 && p.first[r2] >= 0) || !this.live(r1, r2)) return false;
            const at = (x: number) => (same ? (x < i ? s1[x] : s1[x + len]) : s2[x]);
            this.work++;
            const a = k ? at(k - 1) : -1;
            const b = k < restLen ? at(k) : -1;
            const add = edge(p, r2, a, f) + edge(p, r2, l, b) - edge(p, r2, a, b);
            if (same) {
              if (add - gain >= -EPS) return false;
            } else {
              if (add - gain >= -EPS) return false;
              if (!this.fits(r2, this.km[r2] + add + inner, this.svc[r2] + svc)) return false;
            }
            const run = s1.splice(i, len);
            this.routes[r2].splice(k, 0, ...run);
            return same ? this.applied(r1) : this.applied(r1, r2);
          };
          const movable = (r2: number) => {
            if (r2 === r1) return true;
            for (let x = i; x < i + len; x++) if (!this.movable(s1[x], r2)) return false;
            return true;
          };
          for (const g of this.near[f]) {
            const r2 = this.where[g];
            if (r2 < 0 || !movable(r2)) continue;
            let pg = this.pos[g];
            if (r2 === r1) {
              if (pg >= i && pg < i + len) continue;
              if (pg >= i + len) pg -= len;
            }
            if (tryAt(r2, pg) || tryAt(r2, pg + 1)) return true;
          }
          for (let r2 = 0; r2 < p.V; r2++) {
            if (!movable(r2)) continue;
            const restLen = r2 === r1 ? s1.length - len : this.routes[r2].length;
            if (tryAt(r2, 0) || tryAt(r2, restLen)) return true;
          }
        }
      }
    }
    return false;
  }

  /** Exchange one job with one of its nearest neighbours in another route; first improvement. */
  private exchange(): boolean {
    const p = this.p;
    for (let r1 = 0; r1 < p.V; r1++) {
      const s1 = this.routes[r1];
      for (let i = 0; i < s1.length; i++) {
        const a = s1[i];
        if (p.pin[a] >= 0) continue;
        const pa = i ? s1[i - 1] : -1;
        const na = i + 1 < s1.length ? s1[i + 1] : -1;
        for (const b of this.near[a]) {
          const r2 = this.where[b];
          if (r2 < 0 || r2 === r1 || p.pin[b] >= 0 || !this.live(r1, r2) || !this.movable(a, r2) || !this.movable(b, r1)) continue;
          const s2 = this.routes[r2];
          const k = this.pos[b];
          this.work++;
          const pb = k ? s2[k - 1] : -1;
          const nb = k + 1 < s2.length ? s2[k + 1] : -1;
          const d1 = edge(p, r1, pa, b) + p.internal[b] + edge(p, r1, b, na) - edge(p, r1, pa, a) - p.internal[a] - edge(p, r1, a, na);
          const d2 = edge(p, r2, pb, a) + p.internal[a] + edge(p, r2, a, nb) - edge(p, r2, pb, b) - p.internal[b] - edge(p, r2, b, nb);
          if (d1 + d2 >= -EPS) continue;
          if (!this.fits(r1, this.km[r1] + d1, this.svc[r1] - p.serviceMin[a] + p.serviceMin[b])) continue;
          if (!this.fits(r2, this.km[r2] + d2, this.svc[r2] - p.serviceMin[b] + p.serviceMin[a])) continue;
          s1[i] = b;
          s2[k] = a;
          return this.applied(r1, r2);
        }
      }
    }
    return false;
  }

  /** 2-opt within a route: reverse a run of it (costs are asymmetric: priced in full). */
  private twoOpt(): boolean {
    const buf = this.scratch;
    for (let v = 0; v < this.p.V; v++) {
      if (!this.dirty[v]) continue;
      const s = this.routes[v];
      for (let i = this.p.first[v] >= 0 ? 1 : 0; i < s.length - 1; i++) {
        for (let j = i + 1; j < s.length; j++) {
          this.work += s.length;
          buf.length = 0;
          for (let x = 0; x < i; x++) buf.push(s[x]);
          for (let x = j; x >= i; x--) buf.push(s[x]);
          for (let x = j + 1; x < s.length; x++) buf.push(s[x]);
          const km = this.kmOf(v, buf, buf.length);
          if (km >= this.km[v] - EPS) continue;
          this.routes[v] = [...buf];
          return this.applied(v);
        }
      }
    }
    return false;
  }

  /** 2-opt* across routes: exchange the tails of two routes, the new edge a → b to one of a's nearest neighbours. */
  private twoOptStar(): boolean {
    const p = this.p;
    const buf = this.scratch;
    for (let r1 = 0; r1 < p.V; r1++) {
      const s1 = this.routes[r1];
      for (let i = 1; i <= s1.length; i++) {
        const a = s1[i - 1];
        for (const b of this.near[a]) {
          const r2 = this.where[b];
          if (r2 < 0 || r2 === r1 || !this.live(r1, r2)) continue;
          const s2 = this.routes[r2];
          const k = this.pos[b];
          let ok = true;
          for (let x = i; x < s1.length && ok; x++) ok = this.movable(s1[x], r2);
          for (let x = k; x < s2.length && ok; x++) ok = this.movable(s2[x], r1);
          if (!ok) continue;
          this.work += s1.length + s2.length;
          buf.length = 0;
          for (let x = 0; x < i; x++) buf.push(s1[x]);
          for (let x = k; x < s2.length; x++) buf.push(s2[x]);
          const km1 = this.kmOf(r1, buf, buf.length);
          if (!this.okRoute(r1, buf, km1)) continue;
          const n1 = [...buf];
          buf.length = 0;
          for (let x = 0; x < k; x++) buf.push(s2[x]);
          for (let x = i; x < s1.length; x++) buf.push(s1[x]);
          const km2 = this.kmOf(r2, buf, buf.length);
          if (km1 + km2 >= this.km[r1] + this.km[r2] - EPS || !this.okRoute(r2, buf, km2)) continue;
          this.routes[r1] = n1;
          this.routes[r2] = [...buf];
          return this.applied(r1, r2);
        }
      }
    }
    return false;
  }

  /** Local search to a local optimum (or until the budget is spent); unplanned jobs are inserted first. */
  descend(budget: number, pool: number[], ordered = true): number[] {
    let left = pool;
    while (this.work < budget) {
      if (left.length) {
        const before = left.length;
        left = ordered ? this.insertAll(left) : this.insertGreedy(left);
        if (left.length < before) continue;
      }
      if (this.relocate() || this.exchange() || this.twoOpt() || this.twoOptStar()) continue;
      if (left.length) {
        const k = this.ejectInsert(left);
        if (k >= 0) {
          left = left.filter((j) => j !== k);
          continue;
        }
        const swap = this.swapOut(left);
        if (swap) {
          left = [...left.filter((j) => j !== swap[0]), swap[1]];
          continue;
        }
      }
      break;
    }
    this.dirty.fill(0);
    return left;
  }

  /**
   * Ejection chains (at a local optimum with jobs left over): an unplanned job j takes the place of a free
   * job x in x's route, and x goes to its cheapest feasible place in another route (depth 1) or, when no
   * such chain exists, takes the place of a free job y in a third route, y going to its cheapest place in a
   * fourth (depth 2): one more job planned. Of every chain of the least depth found the cheapest in km is
   * applied. Returns j, or -1 when none exists.
   */
  ejectInsert(pool: readonly number[]): number {
    const p = this.p;
    // Depth 1's "away": each planned free job's cheapest place in a route other than its own (those do not change).
    const plain: Away = awayNone(p.n);
    const free: number[] = [];
    for (let v = 0; v < p.V; v++) {
      for (const x of this.routes[v]) {
        if (p.pin[x] >= 0 || x === p.first[v]) continue;
        free.push(x);
        for (let w = 0; w < p.V; w++) {
          if (w === v) continue;
          const ins = this.bestInsertion(x, w);
          if (ins && ins[0] < plain.cost[x] - EPS) [plain.cost[x], plain.v[x], plain.at[x]] = [ins[0], w, ins[1]];
        }
      }
    }
    const chain = (away: Away, next: Away | null): number => {
      let best: [number, number, number, number, number] | null = null;
      for (const j of pool) {
        const c = this.replaceInto(j, -1, away);
        if (c && (!best || c[0] < best[0] - EPS)) best = [c[0], j, c[1], c[2], c[3]];
      }
      if (!best) return -1;
      const [, j, v, i, k] = best;
      const x = this.routes[v][i];
      if (next) {
        // x takes y's place in route away.v[x]; y goes to its plain place first (that route is neither x's nor y's).
        const w = away.v[x];
        const y = this.routes[w][away.i[x]];
        this.routes[next.v[y]].splice(next.at[y], 0, y);
        this.applied(next.v[y]);
        this.replace(w, away.i[x], away.at[x], x);
      } else {
        this.routes[away.v[x]].splice(away.at[x], 0, x);
        this.applied(away.v[x]);
      }
      this.replace(v, i, k, j);
      return j;
    };
    const once = chain(plain, null);
    if (once >= 0) return once;
    // Depth 2: each free x's cheapest place in another route in place of a y there, y going to a route neither x's nor that one.
    const deep: Away = awayNone(p.n);
    for (const x of free) {
      const c = this.replaceInto(x, this.where[x], plain);
      if (c) [deep.cost[x], deep.v[x], deep.i[x], deep.at[x]] = c;
    }
    return chain(deep, plain);
  }

  /**
   * An unplanned job takes the place of a planned free one, which is left out instead, when that shortens
   * the day (as many jobs planned, fewer km: the minutes freed may take another job later). The best such
   * swap is applied: [the job put in, the job left out], or null.
   */
  swapOut(pool: readonly number[]): [number, number] | null {
    const p = this.p;
    const none: Away = awayNone(p.n);
    for (let v = 0; v < p.V; v++) for (const x of this.routes[v]) if (p.pin[x] < 0 && x !== p.first[v]) none.cost[x] = 0;
    let best: [number, number, number, number, number] | null = null;
    for (const j of pool) {
      const c = this.replaceInto(j, -1, none);
      if (c && c[0] < -EPS && (!best || c[0] < best[0] - EPS)) best = [c[0], j, c[1], c[2], c[3]];
    }
    if (!best) return null;
    const [, j, v, i, k] = best;
    const x = this.routes[v][i];
    this.replace(v, i, k, j);
    this.where[x] = this.pos[x] = -1;
    return [j, x];
  }

  /**
   * The cheapest feasible way for job j into a route (not `skip`, and j allowed there) in place of a free job x
   * of it that goes to `away` (never into `skip` either): [km delta, route, x's position, j's gap in the route without x].
   */
  private replaceInto(j: number, skip: number, away: Away): [number, number, number, number] | null {
    const p = this.p;
    let best: [number, number, number, number] | null = null;
    for (let v = 0; v < p.V; v++) {
      if (v === skip || !this.movable(j, v)) continue;
      const s = this.routes[v];
      for (let i = p.first[v] >= 0 ? 1 : 0; i < s.length; i++) {
        const x = s[i];
        if (away.cost[x] === Infinity || (skip >= 0 && away.v[x] === skip)) continue;
        const pa = i ? s[i - 1] : -1;
        const na = i + 1 < s.length ? s[i + 1] : -1;
        const out = edge(p, v, pa, na) - edge(p, v, pa, x) - p.internal[x] - edge(p, v, x, na);
        const svc = this.svc[v] - p.serviceMin[x] + p.serviceMin[j];
        // j's cheapest gap in the route without x (gap i + 1 is gap i once x is out).
        for (let k = p.first[v] >= 0 ? 1 : 0; k <= s.length; k++) {
          if (k === i + 1) continue;
          this.work++;
          const a = k === i ? pa : k ? s[k - 1] : -1;
          const b = k === i ? na : k < s.length ? s[k] : -1;
          const d = out + edge(p, v, a, j) + p.internal[j] + edge(p, v, j, b) - edge(p, v, a, b);
          if ((!best || d + away.cost[x] < best[0] - EPS) && this.fits(v, this.km[v] + d, svc)) best = [d + away.cost[x], v, i, k];
        }
      }
    }
    return best;
  }

  /** Route v with its job at position i taken out and j put in gap k (of the route as it was). */
  private replace(v: number, i: number, k: number, j: number): void {
    const rest = this.routes[v].filter((_, y) => y !== i);
    rest.splice(k > i ? k - 1 : k, 0, j);
    this.routes[v] = rest;
    this.applied(v);
  }

  /** Greedy insertion in the given order, each job at its cheapest feasible place; returns those that fit nowhere. */
  insertGreedy(pool: readonly number[]): number[] {
    const stuck: number[] = [];
    for (const j of pool) {
      let best: [number, number] | null = null;
      let bv = -1;
      for (let v = 0; v < this.p.V; v++) {
        const ins = this.bestInsertion(j, v);
        if (ins && (!best || ins[0] < best[0] - EPS)) [best, bv] = [ins, v];
      }
      if (!best) {
        stuck.push(j);
        continue;
      }
      this.routes[bv].splice(best[1], 0, j);
      this.applied(bv);
    }
    return stuck;
  }
}

/** The k nearest other jobs of each job (by the drive between them either way), for the ruin step. */
function neighboursOf(p: FleetProblem, k: number): Int32Array[] {
  const out: Int32Array[] = [];
  for (let j = 0; j < p.n; j++) {
    const others = Array.from({ length: p.n }, (_, x) => x).filter((x) => x !== j);
    const d = (x: number) => Math.min(p.between[j * p.n + x], p.between[x * p.n + j]);
    out.push(Int32Array.from(others.sort((x, y) => d(x) - d(y) || x - y).slice(0, k)));
  }
  return out;
}

/**
 * The heuristic: regret-2 insertion from the pinned routes and local search; then ruin-and-recreate:
 * remove a seeded job and some of its nearest free neighbours (3–15 % of the free jobs, at least 2),
 * reinsert them greedily in a seeded order, local search on the routes that changed, and accept when the
 * total is within a threshold falling linearly from `START_THRESHOLD` of the current km to 0 over the
 * budget; the best solution seen wins. `budget` counts work (`budgetFor`), so the plan depends on the day only.
 */
export function heuristicRoutes(p: FleetProblem, start: Routes, options: FleetOptions = {}): Routes {
  const budget = options.budget ?? budgetFor(p.n);
  const random = prng(options.seed ?? 1);
  const near = neighboursOf(p, Math.min(NEAR, p.n - 1));
  const s = new Search(p, start, near);
  const unplanned = () => Array.from({ length: p.n }, (_, j) => j).filter((j) => s.where[j] < 0);
  s.descend(Infinity, unplanned());
  let best = s.routes.map((r) => [...r]);
  let bestVal = s.total();
  let cur = best;
  let curVal = bestVal;
  const movable = Array.from({ length: p.n }, (_, j) => j).filter((j) => p.pin[j] < 0);
  if (movable.length < 2) return best;
  const workStart = s.work;
  while (s.work < budget) {
    const progress = (s.work - workStart) / Math.max(1, budget - workStart);
    const threshold = START_THRESHOLD * (1 - progress) * (curVal % UNPLANNED);
    const q = Math.max(2, Math.round(movable.length * (0.03 + 0.12 * random())));
    const seed = movable[Math.floor(random() * movable.length)];
    const removed = new Set<number>([seed]);
    for (let x = 0; x < near[seed].length && removed.size < q; x++) if (p.pin[near[seed][x]] < 0 && random() < 0.8) removed.add(near[seed][x]);
    s.remove(removed);
    const keyed = unplanned().map((j) => [random(), j] as const);
    s.descend(budget, keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, j]) => j), false);
    const val = s.total();
    if (val < bestVal - EPS) {
      best = s.routes.map((r) => [...r]);
      bestVal = val;
    }
    if (val <= curVal + threshold) {
      cur = s.routes.map((r) => [...r]);
      curVal = val;
    } else {
      s.reset(cur);
    }
  }
  return best;
}

/** Nearest neighbours per job in the local search and the ruin step. */
const NEAR = 16;
/** The acceptance threshold at the start of ruin-and-recreate, a share of the current km. */
const START_THRESHOLD = 0.003;

// ------------------------------------------------------------------ the plan

interface Prepared {
  problem: FleetProblem;
  jobs: FleetJob[];
  legs: Leg[][];
  /** Jobs the planner cannot take, with why. */
  excluded: { job: FleetJob; reason: UnplannedReason }[];
  start: Routes;
}

const stationsIn = (legs: readonly Leg[]) => legs.filter((l) => l.kind === 'station').length;

function prepare(day: FleetDay): Prepared {
  const { vehicles, settings } = day;
  const lots = day.lots.length ? day.lots : uniqueById(vehicles.map((v) => v.home));
  const vehicleOf = new Map(vehicles.map((v, i) => [v.driverId, i]));
  const jobs: FleetJob[] = [];
  const legs: Leg[][] = [];
  const excluded: Prepared['excluded'] = [];
  for (const j of day.jobs) {
    const pinned = j.driverId ? vehicleOf.get(j.driverId) : undefined;
    if (j.driverId && pinned === undefined) continue; // another driver's (not available): not this plan's
    if (pinned === undefined && j.assetId === null) {
      excluded.push({ job: j, reason: 'no_container' });
      continue;
    }
    if (pinned === undefined && !vehicles.some((v) => v.specificationIds.includes(j.specificationId))) {
      excluded.push({ job: j, reason: 'no_truck_carries_specification' });
      continue;
    }
    try {
      legs.push(legsOf(j, { homeLot: vehicles[pinned ?? 0].home, lots, stations: day.stations }));
      jobs.push(j);
    } catch (e) {
      if (!(e instanceof RouteError)) throw e;
      excluded.push({ job: j, reason: 'no_station' });
    }
  }
  const n = jobs.length;
  const V = vehicles.length;
  const between = new Float64Array(n * n);
  const fromHome = new Float64Array(V * n);
  const toHome = new Float64Array(V * n);
  const internal = new Float64Array(n);
  const serviceMin = new Float64Array(n);
  const allowed = new Uint8Array(V * n);
  const pin = new Int32Array(n).fill(-1);
  const first = new Int32Array(V).fill(-1);
  for (let a = 0; a < n; a++) {
    const end = legs[a][legs[a].length - 1];
    internal[a] = pathKm(legs[a]);
    serviceMin[a] = settings.serviceMinutes[jobs[a].type] + settings.stationMinutes * stationsIn(legs[a]);
    for (let b = 0; b < n; b++) between[a * n + b] = a === b ? 0 : haversineKm(end, legs[b][0]);
    const pv = jobs[a].driverId ? vehicleOf.get(jobs[a].driverId!)! : -1;
    pin[a] = pv;
    if (pv >= 0 && jobs[a].underWay && first[pv] < 0) first[pv] = a;
    for (let v = 0; v < V; v++) {
      fromHome[v * n + a] = haversineKm(vehicles[v].home, legs[a][0]);
      toHome[v * n + a] = haversineKm(end, vehicles[v].home);
      allowed[v * n + a] = pv === v || (pv < 0 && vehicles[v].specificationIds.includes(jobs[a].specificationId)) ? 1 : 0;
    }
  }
  const problem: FleetProblem = { n, V, between, fromHome, toHome, internal, serviceMin, minPerKm: 60 / settings.averageSpeedKmh, shift: settings.shiftMinutes, allowed, pin, first };
  const start = pinnedRoutes(problem);
  return { problem, jobs, legs, excluded, start };
}

function uniqueById(places: readonly Place[]): Place[] {
  const seen = new Map<string, Place>();
  for (const p of places) if (!seen.has(p.id)) seen.set(p.id, p);
  return [...seen.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The day's order of a route's jobs (their indexes), the job under way first. */
const dayOrder = (p: FleetProblem, v: number, seq: readonly number[]) => [...seq].sort((a, b) => (b === p.first[v] ? 1 : 0) - (a === p.first[v] ? 1 : 0) || a - b);

/** Each vehicle's pinned jobs in the day's order: the current assignment, where the heuristic starts. */
const pinnedRoutes = (p: FleetProblem): Routes => Array.from({ length: p.V }, (_, v) => dayOrder(p, v, Array.from(p.pin).map((pv, j) => (pv === v ? j : -1)).filter((j) => j >= 0)));

/** The numeric problem of a day (tests and the benchmark). */
export const problemOf = (day: FleetDay) => prepare(day).problem;

/** Solves a problem: exact when small enough, else the heuristic from the pinned routes. */
export function solve(p: FleetProblem, options: FleetOptions = {}): { routes: Routes; exact: boolean } {
  const exact = p.n <= (options.exactJobs ?? EXACT_JOBS) && p.V <= EXACT_VEHICLES;
  if (exact) return { routes: exactRoutes(p), exact: true };
  return { routes: heuristicRoutes(p, pinnedRoutes(p), options), exact: false };
}

export function planFleet(day: FleetDay, options: FleetOptions = {}): FleetPlan {
  const { problem: p, jobs, legs, excluded, start } = prepare(day);
  const solved = solve(p, options);
  const { exact } = solved;
  // Ties go to the current order: a route whose jobs in the day's order (pinned ones in their sequence) are as short keeps that order.
  const routes = solved.routes.map((seq, v) => {
    const asIs = dayOrder(p, v, seq);
    return routeKm(p, v, asIs) <= routeKm(p, v, seq) + TIE_KM ? asIs : seq;
  });
  const planned = new Set(routes.flat());
  const mpk = p.minPerKm;
  const out: FleetRoute[] = day.vehicles.map((veh, v) => {
    const seq = routes[v];
    const km = routeKm(p, v, seq);
    const service = seq.reduce((s, j) => s + p.serviceMin[j], 0);
    const minutes = km * mpk + service;
    return {
      driver_id: veh.driverId,
      truck_id: veh.truckId,
      home_lot: { id: veh.home.id, lat: veh.home.lat, lng: veh.home.lng },
      stops: seq.map((j, k) => ({ sequence: k + 1, job_id: jobs[j].id, job_type: jobs[j].type, pinned: p.pin[j] >= 0, legs: legs[j] })),
      km: round3(km),
      driving_minutes: round1(km * mpk),
      service_minutes: round1(service),
      minutes: round1(minutes),
      slack_minutes: round1(p.shift - minutes),
    };
  });
  const unassigned = [
    ...excluded.map((e) => ({ job_id: e.job.id, reason: e.reason })),
    ...jobs.map((j, a) => (planned.has(a) ? null : { job_id: j.id, reason: 'shift_full' as const })).filter((x): x is { job_id: string; reason: 'shift_full' } => !!x),
  ].sort((a, b) => (a.job_id < b.job_id ? -1 : 1));
  const before = start.reduce((s, seq, v) => s + routeKm(p, v, seq), 0);
  const after = routes.reduce((s, seq, v) => s + routeKm(p, v, seq), 0);
  const plan = { date: day.date, exact, routes: out, unassigned, distance_before_km: round3(before), distance_after_km: round3(after) };
  return { plan_id: fleetPlanIdOf(day, options, plan), ...plan };
}

/**
 * The plan id: SHA-256 (128 bits, hex) of the planner's version and settings, the day's inputs (date,
 * drivers with trucks, home lots and specifications; every job with its type, order, specification,
 * waste type, site, destination, driver, sequence and version; lots and stations; the shift settings)
 * and the result.
 */
export function fleetPlanIdOf(day: FleetDay, options: FleetOptions, plan: Omit<FleetPlan, 'plan_id'>): string {
  const place = (p: Place) => [p.id, p.lat, p.lng];
  const byId = <T extends Place>(xs: readonly T[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const digest = [
    FLEET_PLANNER_VERSION,
    [options.exactJobs ?? EXACT_JOBS, EXACT_VEHICLES, options.budget ?? `${BUDGET_PER_JOB}/job`, options.seed ?? 1],
    day.date,
    day.settings,
    day.vehicles.map((v) => [v.driverId, v.truckId, place(v.home), [...v.specificationIds].sort()]),
    day.jobs.map((j) => [j.id, j.type, j.orderId ?? null, j.specificationId, j.wasteTypeId, place(j.site), j.destination ? place(j.destination) : null, j.driverId ?? null, !!j.underWay, j.sequence ?? null, j.version ?? null, j.assetId === undefined ? false : j.assetId]),
    byId(day.lots).map(place),
    byId(day.stations).map((st) => [...place(st), [...st.wasteTypeIds].sort()]),
    plan.routes.map((r) => [r.driver_id, r.stops.map((s) => s.job_id)]),
    plan.unassigned.map((u) => [u.job_id, u.reason]),
    plan.distance_before_km,
    plan.distance_after_km,
  ];
  return createHash('sha256').update(JSON.stringify(digest)).digest('hex').slice(0, 32);
}
