/**
 * Route optimisation of a driver's day (issue #11, `PUT /order/jobs/route-collapse`): a pure function of
 * the day's jobs, the candidate lots and stations and the truck's home lot. No Nest, no database: the
 * dispatch service loads the data, calls `planRoute`, and saves the sequence it returns.
 *
 * 1. Merge: a pickup and a delivery of the same specification at the same site (same address id) become
 *    one swap (the delivery's job id; both ids in `from_job_ids`). Pairs are made in the day's current
 *    order: the first delivery with the first pickup of the same (specification, site), and so on; never
 *    a delivery and a pickup of one order.
 * 2. Each job is a block of fixed legs: delivery lot → site; pickup site → station → lot; swap lot →
 *    site → station; dump_return site → station → site; relocate site → new site. A leg's station is the
 *    station nearest to the site that accepts the job's waste type (a swap's: the picked-up
 *    container's); a lot before a site is the lot nearest to that site among those the container can be
 *    loaded at (`loadLots`, from the container calendar, when one is open), a lot after a station the lot
 *    nearest to that station. Without candidate lots, the home lot serves.
 * 3. The day is a tour from the home lot and back: each block's legs in order, the truck driving empty
 *    from the end of one block to the start of the next. The order of blocks minimises the total
 *    haversine distance (Earth radius 6,371 km): exactly (Held–Karp dynamic programming over subsets)
 *    up to EXACT_LIMIT blocks (so every day of up to 10 jobs); beyond, an iterated local search: the
 *    nearest-neighbour and cheapest-insertion constructions, each taken to a local optimum by 2-opt and
 *    or-opt (runs of 1–3 blocks, both directions) and then perturbed DEFAULT_KICKS times by double-bridge
 *    kicks from a seeded PRNG, each kick followed by local search and kept when not longer; the shorter
 *    of the two wins. The kicks stop early only on very large days, once the local search has priced
 *    DEFAULT_BUDGET moves: a count, not a clock. The costs are asymmetric (a block ends elsewhere than
 *    it starts), so a reversed run is priced with its own edges reversed.
 * 4. Ties go to the current sequence: among orders equally short (within TIE_KM) the exact search returns
 *    the one nearest the jobs' current order (lexicographically, by current position), and the heuristic
 *    keeps the current order when what it found is not shorter. Re-planning a day saved from an optimal
 *    plan therefore changes nothing.
 *
 * Deterministic: the same day and options always give the same plan, on any machine under any load.
 * The plan carries `plan_id` (`planIdOf`: the inputs, the settings and the result digested) and `moves`
 * (`planChanges`: the jobs saving it would change), so the service can save exactly a previewed plan or
 * refuse when its day changed.
 *
 * Distances are computed unrounded and reported in km with 3 decimals. `distance_before_km` is the tour
 * of the jobs as they stand (unmerged, in their current sequence); `distance_after_km` the tour of the
 * returned stops, leg by leg.
 */

import { createHash } from 'node:crypto';

export const EARTH_RADIUS_KM = 6371;
/** Days of up to this many blocks are solved exactly. */
export const EXACT_LIMIT = 12;

export type RouteJobType = 'delivery' | 'pickup' | 'swap' | 'dump_return' | 'relocate';

export interface Place {
  id: string;
  lat: number;
  lng: number;
}

export interface RouteJob {
  id: string;
  type: RouteJobType;
  specificationId: string;
  wasteTypeId: string;
  /**
   * The job's order, when known: a delivery and a pickup of the same order are never merged (that pickup
   * takes back the very container the delivery brings).
   */
  orderId?: string;
  /** `false`: the job is never merged into a swap (it is under way already). Default true. */
  mergeable?: boolean;
  /** The order's address (its customer address id as `id`: jobs at one address share it). */
  site: Place;
  /**
   * A delivery's or swap's container: the lots it can be loaded at that day (the container calendar: the
   * pinned asset's home lot, else those with a free one). Omitted, empty or none open: any lot.
   */
  loadLots?: readonly string[] | null;
  /** A relocation's new address. */
  destination?: Place | null;
  /**
   * The job's stored sequence (null: none); `moves` and `planChanges` compare the plan with it. Omitted:
   * the job's place in the day's list (1, 2, …).
   */
  sequence?: number | null;
  /**
   * The job's stored state as the caller read it (the service passes its `updated_at`): part of the plan
   * id, so that any change of the job makes a plan of its day stale.
   */
  version?: string;
}

export interface RouteStation extends Place {
  /** Waste types the station accepts. */
  wasteTypeIds: readonly string[];
}

export interface RouteDay {
  driverId: string;
  date: string;
  homeLot: Place;
  /** The driver's unfinished jobs of the day, in their current sequence. */
  jobs: readonly RouteJob[];
  /** Active lots open that day. */
  lots: readonly Place[];
  /** Stations open that day. */
  stations: readonly RouteStation[];
}

export interface Leg {
  kind: 'lot' | 'site' | 'station';
  id: string;
  lat: number;
  lng: number;
}

export interface PlannedStop {
  sequence: number;
  job_id: string;
  job_type: RouteJobType;
  legs: Leg[];
}

export interface RoutePlan {
  /** A digest of the day's inputs, the optimiser's settings and the result (see `planIdOf`). */
  plan_id: string;
  driver_id: string;
  date: string;
  home_lot: Place;
  merged: { swap_job_id: string; from_job_ids: string[] }[];
  distance_before_km: number;
  distance_after_km: number;
  /** The jobs the plan changes (`planChanges`): 0 when the day already is the plan. */
  moves: number;
  stops: PlannedStop[];
}

/** What saving a plan changes on one job: its type and side coming back (a delivery that becomes a swap), its merge, its sequence. */
export interface JobChange {
  job_id: string;
  /** The changed fields, as `job.updated` names them. */
  fields: ('type' | 'pickup_order_id' | 'merged_into_job_id' | 'sequence')[];
  /** The job's sequence in the plan (a merged pickup takes its swap's). */
  sequence: number;
  /** Set on a merged delivery (the swap): the order of the pickup merged into it, the container it takes back. */
  pickup_order_id?: string;
  /** Set when the job is merged into this swap. */
  merged_into_job_id?: string;
}

/** A job the day cannot route: no station accepts its waste type (the service answers 422 naming it). */
export class RouteError extends Error {
  constructor(
    readonly code: 'NO_STATION',
    readonly jobId: string,
    message: string,
  ) {
    super(message);
    this.name = 'RouteError';
  }
}

export interface PlanOptions extends HeuristicOptions {
  /** Blocks up to which the order is exact (default EXACT_LIMIT); 0 forces the heuristic (tests, benchmark). */
  exactLimit?: number;
}

/**
 * Bumped with every change of `planRoute` that can give another plan for the same day: plan ids made by
 * an older version (another instance during a deployment) are then stale rather than silently different.
 */
export const OPTIMISER_VERSION = 2;

// ------------------------------------------------------------------ geometry

const rad = (deg: number) => (deg * Math.PI) / 180;

export function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The length of a path through the points, in order. */
export function pathKm(points: readonly { lat: number; lng: number }[]): number {
  let km = 0;
  for (let i = 1; i < points.length; i++) km += haversineKm(points[i - 1], points[i]);
  return km;
}

const round3 = (km: number) => Math.round(km * 1000) / 1000;

function nearest<T extends Place>(from: { lat: number; lng: number }, candidates: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestKm = Infinity;
  for (const c of candidates) {
    const km = haversineKm(from, c);
    if (km < bestKm || (km === bestKm && best && c.id < best.id)) {
      best = c;
      bestKm = km;
    }
  }
  return best;
}

// ------------------------------------------------------------------ merge and legs

interface Block {
  job: RouteJob;
  legs: Leg[];
  /** The fixed length of the block's own legs. */
  internalKm: number;
}

/**
 * Step 1: pickups and deliveries of one specification at one site become swaps: each delivery, in the
 * day's order, takes the first pickup still unpaired of the same (specification, site) and another
 * order. The swap keeps the delivery's id and fields, with the pickup's waste type (the container it
 * takes to the station); both ids go to `from_job_ids`.
 */
export function mergeSwaps(jobs: readonly RouteJob[]): { jobs: RouteJob[]; merged: RoutePlan['merged'] } {
  const key = (j: RouteJob) => `${j.specificationId}|${j.site.id}`;
  const pickups = new Map<string, RouteJob[]>();
  for (const j of jobs) if (j.type === 'pickup' && j.mergeable !== false) pickups.set(key(j), [...(pickups.get(key(j)) ?? []), j]);
  const absorbed = new Set<string>();
  const swapOf = new Map<string, RouteJob>();
  const merged: RoutePlan['merged'] = [];
  for (const j of jobs) {
    if (j.type !== 'delivery' || j.mergeable === false) continue;
    const waiting = pickups.get(key(j)) ?? [];
    const at = waiting.findIndex((p) => p.orderId === undefined || p.orderId !== j.orderId);
    if (at < 0) continue;
    const [pickup] = waiting.splice(at, 1);
    absorbed.add(pickup.id);
    // The swap drops the delivery's empty container and takes the picked-up one to a station for its waste.
    swapOf.set(j.id, { ...j, type: 'swap', wasteTypeId: pickup.wasteTypeId });
    merged.push({ swap_job_id: j.id, from_job_ids: [j.id, pickup.id] });
  }
  return { jobs: jobs.filter((j) => !absorbed.has(j.id)).map((j) => swapOf.get(j.id) ?? j), merged };
}

const leg = (kind: Leg['kind'], p: Place): Leg => ({ kind, id: p.id, lat: p.lat, lng: p.lng });

/** Step 2: a job's fixed legs. */
export function legsOf(job: RouteJob, day: Pick<RouteDay, 'homeLot' | 'lots' | 'stations'>): Leg[] {
  const lots = day.lots.length ? day.lots : [day.homeLot];
  const station = () => {
    const s = nearest(
      job.site,
      day.stations.filter((st) => st.wasteTypeIds.includes(job.wasteTypeId)),
    );
    if (!s) throw new RouteError('NO_STATION', job.id, `No station open that day accepts the waste of job ${job.id}.`);
    return s;
  };
  const site = leg('site', job.site);
  // The lot a container is loaded at: one the calendar offers it at, when one of them is open.
  const loading = () => {
    const offered = job.loadLots?.length ? lots.filter((l) => job.loadLots!.includes(l.id)) : [];
    return leg('lot', nearest(job.site, offered.length ? offered : lots)!);
  };
  switch (job.type) {
    case 'delivery':
      return [loading(), site];
    case 'pickup': {
      const s = station();
      return [site, leg('station', s), leg('lot', nearest(s, lots)!)];
    }
    case 'swap':
      return [loading(), site, leg('station', station())];
    case 'dump_return':
      return [site, leg('station', station()), site];
    case 'relocate':
      return [site, leg('site', job.destination ?? job.site)];
  }
}

function blockOf(job: RouteJob, day: RouteDay): Block {
  const legs = legsOf(job, day);
  return { job, legs, internalKm: pathKm(legs) };
}

/** The tour's length: home → the blocks' legs in `order` → home. */
function tourKm(blocks: readonly Block[], order: readonly number[], home: Place): number {
  let km = 0;
  let at: { lat: number; lng: number } = home;
  for (const i of order) {
    const b = blocks[i];
    km += haversineKm(at, b.legs[0]) + b.internalKm;
    at = b.legs[b.legs.length - 1];
  }
  return km + haversineKm(at, home);
}

// ------------------------------------------------------------------ ordering

export interface Costs {
  n: number;
  /** home → start of i */
  fromHome: Float64Array;
  /** end of i → home */
  toHome: Float64Array;
  /** end of i → start of j, row-major */
  between: Float64Array;
}

function costsOf(blocks: readonly Block[], home: Place): Costs {
  const n = blocks.length;
  const fromHome = new Float64Array(n);
  const toHome = new Float64Array(n);
  const between = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const end = blocks[i].legs[blocks[i].legs.length - 1];
    fromHome[i] = haversineKm(home, blocks[i].legs[0]);
    toHome[i] = haversineKm(end, home);
    for (let j = 0; j < n; j++) between[i * n + j] = i === j ? 0 : haversineKm(end, blocks[j].legs[0]);
  }
  return { n, fromHome, toHome, between };
}

/**
 * Two orders whose lengths differ by at most this much (km, over the whole tour: a micrometre) are
 * equally short, and the one nearer the current sequence wins. Far below any real difference, far above
 * the rounding of sums of doubles (about 1e-13 km on a day of 1,000 km).
 */
export const TIE_KM = 1e-9;

/**
 * Held–Karp: the exact optimum over all orders, O(n² 2ⁿ). Among equally short orders (within TIE_KM)
 * the one nearest the current sequence wins: block indexes are the current order, and the order is
 * rebuilt from the first stop on, each time taking the lowest index that still completes an optimal
 * tour, so the lexicographically smallest optimal order is returned (the current one when it is optimal).
 *
 * `rest[S·n + i]`: the shortest drive from the end of block i through every block of S (i ∉ S) and home.
 */
export function exactOrder(c: Costs): number[] {
  const { n } = c;
  if (n === 0) return [];
  const full = (1 << n) - 1;
  const rest = new Float64Array((1 << n) * n).fill(Infinity);
  for (let i = 0; i < n; i++) rest[i] = c.toHome[i];
  for (let set = 1; set <= full; set++) {
    for (let i = 0; i < n; i++) {
      if (set & (1 << i)) continue;
      let km = Infinity;
      for (let j = 0; j < n; j++) {
        if (!(set & (1 << j))) continue;
        const via = c.between[i * n + j] + rest[(set & ~(1 << j)) * n + j];
        if (via < km) km = via;
      }
      rest[set * n + i] = km;
    }
  }
  let bestKm = Infinity;
  for (let j = 0; j < n; j++) bestKm = Math.min(bestKm, c.fromHome[j] + rest[(full & ~(1 << j)) * n + j]);
  // The slack left for ties is spent along the way, so the whole tour stays within TIE_KM of the optimum.
  let slack = TIE_KM;
  let target = bestKm;
  const order: number[] = [];
  for (let set = full, at = -1; set; ) {
    // The lowest index within the slack; the shortest one (which always exists) should rounding leave none.
    let pick = -1;
    let pickKm = Infinity;
    let shortest = -1;
    let shortestKm = Infinity;
    for (let j = 0; j < n && pick < 0; j++) {
      if (!(set & (1 << j))) continue;
      const km = (at < 0 ? c.fromHome[j] : c.between[at * n + j]) + rest[(set & ~(1 << j)) * n + j];
      if (km <= target + slack) [pick, pickKm] = [j, km];
      else if (km < shortestKm) [shortest, shortestKm] = [j, km];
    }
    if (pick < 0) [pick, pickKm] = [shortest, shortestKm];
    slack = Math.max(0, slack - Math.max(0, pickKm - target));
    set &= ~(1 << pick);
    target = rest[set * n + pick];
    order.push(pick);
    at = pick;
  }
  return order;
}

function nearestNeighbour(c: Costs): number[] {
  const left = new Set(Array.from({ length: c.n }, (_, i) => i));
  const order: number[] = [];
  let at = -1;
  while (left.size) {
    let pick = -1;
    let pickKm = Infinity;
    for (const j of left) {
      const km = at < 0 ? c.fromHome[j] : c.between[at * c.n + j];
      if (km < pickKm) {
        pick = j;
        pickKm = km;
      }
    }
    order.push(pick);
    left.delete(pick);
    at = pick;
  }
  return order;
}

function cheapestInsertion(c: Costs): number[] {
  const order: number[] = [];
  const left = new Set(Array.from({ length: c.n }, (_, i) => i));
  while (left.size) {
    let pick = -1;
    let at = 0;
    let pickKm = Infinity;
    for (const j of left) {
      for (let k = 0; k <= order.length; k++) {
        const before = k === 0 ? c.fromHome[j] : c.between[order[k - 1] * c.n + j];
        const after = k === order.length ? c.toHome[j] : c.between[j * c.n + order[k]];
        const removed = order.length === 0 ? 0 : k === 0 ? c.fromHome[order[0]] : k === order.length ? c.toHome[order[k - 1]] : c.between[order[k - 1] * c.n + order[k]];
        const km = before + after - removed;
        if (km < pickKm) {
          pick = j;
          at = k;
          pickKm = km;
        }
      }
    }
    order.splice(at, 0, pick);
    left.delete(pick);
  }
  return order;
}

const EPS = 1e-9;

/** Iterated local search: double-bridge perturbations from each of the two constructions (see HeuristicOptions). */
export const DEFAULT_KICKS = 40;
/** Candidate neighbours per block in the local search (all of them on days of up to this many blocks). */
export const NEIGHBOURS = 10;
/**
 * The perturbations stop once the local search has priced this many moves (over both starts): a guard
 * for very large days that depends on the day only, never on the clock, so the same day always gives
 * the same plan, however busy the machine (days of 100 jobs finish their kicks well before it).
 */
export const DEFAULT_BUDGET = 2_000_000;

export interface HeuristicOptions {
  /** Double-bridge perturbations of the iterated local search, per start (default DEFAULT_KICKS). */
  kicks?: number;
  /** Seed of the perturbations' PRNG (default 1): the same day always gives the same order. */
  seed?: number;
  /** Moves the local search may price before the perturbations stop (default DEFAULT_BUDGET); the constructions and their first local search always run. */
  budget?: number;
}

/** mulberry32: a small deterministic PRNG (also the fleet planner's, its tests' and the benchmarks'). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The day as an asymmetric TSP over m = n + 1 nodes: the blocks 0..n-1 and the home lot n. `d[a*m+b]`
 * is the empty drive from the end of a to the start of b. A tour holds the m nodes with the home lot fixed
 * at position 0; its edges are t[x] → t[x+1] and t[m-1] → t[0]. `succ`/`pred` list, for each node, the
 * `k` nodes nearest after / before it (by d), the candidate new edges of the local search.
 */
interface Atsp {
  m: number;
  d: Float64Array;
  k: number;
  succ: Int32Array;
  pred: Int32Array;
}

function atspOf(c: Costs): Atsp {
  const { n } = c;
  const m = n + 1;
  const d = new Float64Array(m * m);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) d[a * m + b] = c.between[a * n + b];
    d[a * m + n] = c.toHome[a];
    d[n * m + a] = c.fromHome[a];
  }
  const k = Math.min(NEIGHBOURS, m - 1);
  const succ = new Int32Array(m * k);
  const pred = new Int32Array(m * k);
  const others = (v: number) => Array.from({ length: m }, (_, x) => x).filter((x) => x !== v);
  for (let v = 0; v < m; v++) {
    succ.set(others(v).sort((x, y) => d[v * m + x] - d[v * m + y] || x - y).slice(0, k), v * k);
    pred.set(others(v).sort((x, y) => d[x * m + v] - d[y * m + v] || x - y).slice(0, k), v * k);
  }
  return { m, d, k, succ, pred };
}

function tourCost({ m, d }: Atsp, t: Int32Array): number {
  let km = 0;
  for (let x = 0; x < m; x++) km += d[t[x] * m + t[x + 1 === m ? 0 : x + 1]];
  return km;
}

/** Scratch arrays of the local search, allocated once per call of the heuristic. */
interface Work {
  pos: Int32Array;
  fwd: Float64Array;
  rev: Float64Array;
  tmp: Int32Array;
  /** Nodes whose surroundings changed since they were last searched from (don't-look bits), a FIFO ring. */
  queued: Uint8Array;
  queue: Int32Array;
  /** The nodes an applied move touched. */
  touched: number[];
  /** Moves priced so far (the budget's measure). */
  priced: number;
}

function workOf(m: number): Work {
  return {
    pos: new Int32Array(m),
    fwd: new Float64Array(m),
    rev: new Float64Array(m),
    tmp: new Int32Array(m),
    queued: new Uint8Array(m),
    queue: new Int32Array(m),
    touched: [],
    priced: 0,
  };
}

/**
 * Local search to a local optimum, in place, first improvement, from the nodes in `seeds` (every node
 * when null): each queued node is searched from (runs starting at or just before it), and the nodes
 * around an applied move are queued again (don't-look bits). Moves, tried where a new edge goes to one
 * of the `k` nearest candidates:
 * - 2-opt: reverse the run t[i..j]; with asymmetric costs the run's own edges change direction too,
 *   read in O(1) from prefix sums of the tour's edges driven forwards (`fwd`) and backwards (`rev`);
 * - or-opt: move the run t[i..j] of 1–3 blocks between t[x] and t[x+1], as it is or reversed.
 */
function localSearch(g: Atsp, t: Int32Array, w: Work, seeds: readonly number[] | null): void {
  const { m, d, k, succ, pred } = g;
  const { pos, fwd, rev, tmp, queued, queue, touched } = w;
  const after = (x: number) => (x + 1 === m ? 0 : x + 1);
  const refresh = () => {
    // fwd[x]: the edges t[0]→t[1] … t[x-1]→t[x]; rev[x]: the same edges driven backwards.
    fwd[0] = 0;
    rev[0] = 0;
    pos[t[0]] = 0;
    for (let x = 1; x < m; x++) {
      pos[t[x]] = x;
      fwd[x] = fwd[x - 1] + d[t[x - 1] * m + t[x]];
      rev[x] = rev[x - 1] + d[t[x] * m + t[x - 1]];
    }
  };

  /** 2-opt: reverse t[i..j] if that is shorter. */
  const reverse = (i: number, j: number): boolean => {
    if (j <= i) return false;
    w.priced++;
    const a = t[i - 1];
    const b = t[i];
    const c = t[j];
    const e = t[after(j)];
    const delta = d[a * m + c] + d[b * m + e] - d[a * m + b] - d[c * m + e] + (rev[j] - rev[i]) - (fwd[j] - fwd[i]);
    if (delta >= -EPS) return false;
    touched.push(a, e);
    for (let x = i, y = j; x < y; x++, y--) {
      const s = t[x];
      t[x] = t[y];
      t[y] = s;
    }
    for (let x = i; x <= j; x++) touched.push(t[x]);
    return true;
  };

  /** Or-opt: move t[i..j] after t[x] (as it is or reversed) if that is shorter. */
  const move = (i: number, j: number, x: number, gain: number, turn: number): boolean => {
    if (x >= i - 1 && x <= j) return false;
    w.priced++;
    const s = t[i];
    const e = t[j];
    const a = t[x];
    const b = t[after(x)];
    const ab = d[a * m + b];
    const asIs = d[a * m + s] + d[e * m + b] - ab - gain;
    const reversed = j > i ? d[a * m + e] + d[s * m + b] - ab - gain + turn : Infinity;
    if (asIs >= -EPS && reversed >= -EPS) return false;
    const flip = reversed < asIs;
    touched.push(t[i - 1], t[after(j)], a, b);
    let o = 0;
    for (let y = 0; y < m; y++) {
      if (y >= i && y <= j) continue;
      tmp[o++] = t[y];
      if (y === x) for (let z = 0; z <= j - i; z++) tmp[o++] = t[flip ? j - z : i + z];
    }
    for (let y = i; y <= j; y++) touched.push(t[y]);
    t.set(tmp);
    return true;
  };

  /** Every node is a candidate (small days): each move once, without the lists. */
  const full = k === m - 1;

  /** The first improving move of a run starting at position i, applied. */
  const improveAt = (i: number): boolean => {
    const a = t[i - 1];
    const b = t[i];
    if (full) {
      for (let j = i + 1; j < m; j++) if (reverse(i, j)) return true;
      for (let len = 1; len <= 3 && i + len - 1 < m; len++) {
        const j = i + len - 1;
        const q = t[after(j)];
        const gain = d[a * m + b] + d[t[j] * m + q] - d[a * m + q];
        const turn = rev[j] - rev[i] - (fwd[j] - fwd[i]);
        for (let x = 0; x < m; x++) if (move(i, j, x, gain, turn)) return true;
      }
      return false;
    }
    for (let z = 0; z < k; z++) {
      // new edge a → c (c = t[j]) or b → e (e = t[j+1]).
      if (reverse(i, pos[succ[a * k + z]])) return true;
      const pe = pos[succ[b * k + z]];
      if (reverse(i, pe === 0 ? m - 1 : pe - 1)) return true;
    }
    for (let len = 1; len <= 3 && i + len - 1 < m; len++) {
      const j = i + len - 1;
      const e = t[j];
      const p = t[i - 1];
      const q = t[after(j)];
      const gain = d[p * m + b] + d[e * m + q] - d[p * m + q];
      const turn = rev[j] - rev[i] - (fwd[j] - fwd[i]);
      for (let z = 0; z < k; z++) {
        // new edges x → b and e → x+1 (as it is), x → e and b → x+1 (reversed).
        if (move(i, j, pos[pred[b * k + z]], gain, turn)) return true;
        const pb = pos[succ[e * k + z]];
        if (move(i, j, pb === 0 ? m - 1 : pb - 1, gain, turn)) return true;
        if (len > 1) {
          if (move(i, j, pos[pred[e * k + z]], gain, turn)) return true;
          const ps = pos[succ[b * k + z]];
          if (move(i, j, ps === 0 ? m - 1 : ps - 1, gain, turn)) return true;
        }
      }
    }
    return false;
  };

  let head = 0;
  let size = 0;
  const enqueue = (v: number) => {
    if (queued[v]) return;
    queued[v] = 1;
    queue[(head + size++) % m] = v;
  };
  if (seeds) for (const v of seeds) enqueue(v);
  else for (let x = 0; x < m; x++) enqueue(t[x]);
  refresh();
  while (size) {
    const v = queue[head];
    head = (head + 1) % m;
    size--;
    queued[v] = 0;
    const at = pos[v];
    for (let i = Math.max(1, at - 2); i <= Math.min(m - 1, at + 1); i++) {
      touched.length = 0;
      if (!improveAt(i)) continue;
      refresh();
      for (const u of touched) enqueue(u);
      enqueue(v);
      break;
    }
  }
}

/**
 * Double bridge: A B C D → A C B D (the home lot in A), the cut points drawn from the PRNG. Returns the
 * nodes on both sides of the three new edges (where the local search starts).
 */
function doubleBridge(t: Int32Array, out: Int32Array, random: () => number): number[] {
  const m = t.length;
  // 1 ≤ p1 < p2 < p3 ≤ m: B = t[p1..p2) and C = t[p2..p3) are not empty.
  const cuts = new Set<number>();
  while (cuts.size < 3) cuts.add(1 + Math.floor(random() * m));
  const [p1, p2, p3] = [...cuts].sort((x, y) => x - y);
  let o = 0;
  for (let x = 0; x < p1; x++) out[o++] = t[x];
  for (let x = p2; x < p3; x++) out[o++] = t[x];
  for (let x = p1; x < p2; x++) out[o++] = t[x];
  for (let x = p3; x < m; x++) out[o++] = t[x];
  const seeds: number[] = [];
  for (const q of [p1, p1 + p3 - p2, p3]) seeds.push(out[q - 1], out[q % m]);
  return seeds;
}

/**
 * Step 3 beyond the exact limit: the nearest-neighbour and cheapest-insertion constructions, each taken
 * to a local optimum and then improved by an iterated local search (a double-bridge kick from the PRNG,
 * local search from the kick's edges, kept when not longer); the shorter tour wins, unless the current
 * order (the blocks' indexes) is as short (within TIE_KM): then it stays. Deterministic: the same costs and
 * options give the same order (the kicks stop on the budget of priced moves, never on the clock).
 */
export function heuristicOrder(c: Costs, options: HeuristicOptions = {}): number[] {
  const { n } = c;
  if (n <= 1) return n ? [0] : [];
  const kicks = options.kicks ?? DEFAULT_KICKS;
  const budget = options.budget ?? DEFAULT_BUDGET;
  const random = prng(options.seed ?? 1);
  const g = atspOf(c);
  const m = g.m;
  const w = workOf(m);
  let best = new Int32Array(m);
  let bestKm = Infinity;
  const current = new Int32Array(m);
  const trial = new Int32Array(m);
  for (const start of [nearestNeighbour(c), cheapestInsertion(c)]) {
    current.set([n, ...start]);
    localSearch(g, current, w, null);
    let currentKm = tourCost(g, current);
    for (let kick = 0; kick < kicks && w.priced < budget; kick++) {
      localSearch(g, trial, w, doubleBridge(current, trial, random));
      const km = tourCost(g, trial);
      if (km <= currentKm + EPS) {
        current.set(trial);
        currentKm = km;
      }
    }
    if (currentKm < bestKm - EPS) {
      best = Int32Array.from(current);
      bestKm = currentKm;
    }
  }
  const asIs = Int32Array.from({ length: m }, (_, x) => (x === 0 ? n : x - 1));
  return Array.from((tourCost(g, asIs) <= bestKm + TIE_KM ? asIs : best).subarray(1));
}

// ------------------------------------------------------------------ the plan

export function planRoute(day: RouteDay, options: PlanOptions = {}): RoutePlan {
  const before = day.jobs.map((j) => blockOf(j, day));
  const { jobs, merged } = mergeSwaps(day.jobs);
  const blocks = jobs.map((j) => blockOf(j, day));
  const costs = costsOf(blocks, day.homeLot);
  const order = blocks.length <= (options.exactLimit ?? EXACT_LIMIT) ? exactOrder(costs) : heuristicOrder(costs, options);
  const stops = order.map((i, k) => ({ sequence: k + 1, job_id: blocks[i].job.id, job_type: blocks[i].job.type, legs: blocks[i].legs }));
  const plan = {
    driver_id: day.driverId,
    date: day.date,
    home_lot: { id: day.homeLot.id, lat: day.homeLot.lat, lng: day.homeLot.lng },
    merged,
    distance_before_km: round3(pathKm([day.homeLot, ...before.flatMap((b) => b.legs), day.homeLot])),
    distance_after_km: round3(pathKm([day.homeLot, ...stops.flatMap((s) => s.legs), day.homeLot])),
    moves: planChanges(day.jobs, { merged, stops }).length,
    stops,
  };
  return { plan_id: planIdOf(day, options, plan), ...plan };
}

/**
 * What saving `plan` changes on the day's `jobs` (in their order): each merged delivery becomes a swap
 * (unless it is one) taking back its pickup's order (`pickup_order_id`), each merged pickup is merged
 * into its swap and takes its sequence, and every job whose sequence differs from its stored one
 * (`RouteJob.sequence`) gets the plan's. Jobs left as they are are not listed.
 */
export function planChanges(jobs: readonly Pick<RouteJob, 'id' | 'type' | 'sequence' | 'orderId'>[], plan: Pick<RoutePlan, 'merged' | 'stops'>): JobChange[] {
  const sequenceOf = new Map(plan.stops.map((s) => [s.job_id, s.sequence]));
  const orderOf = new Map(jobs.map((j) => [j.id, j.orderId]));
  // A merged delivery's side coming back: the order of the (first) pickup merged into it.
  const swaps = new Map(plan.merged.map((m) => [m.swap_job_id, orderOf.get(m.from_job_ids.find((id) => id !== m.swap_job_id)!)]));
  const mergedInto = new Map(plan.merged.flatMap((m) => m.from_job_ids.filter((id) => id !== m.swap_job_id).map((id) => [id, m.swap_job_id] as const)));
  const changes: JobChange[] = [];
  jobs.forEach((j, k) => {
    const into = mergedInto.get(j.id);
    const sequence = sequenceOf.get(into ?? j.id)!;
    const fields: JobChange['fields'] = [];
    const pickupOrderId = swaps.get(j.id);
    if (swaps.has(j.id)) fields.push(...(j.type !== 'swap' ? (['type'] as const) : []), 'pickup_order_id');
    if (into) fields.push('merged_into_job_id');
    if (sequence !== (j.sequence === undefined ? k + 1 : j.sequence)) fields.push('sequence');
    if (fields.length) changes.push({ job_id: j.id, fields, sequence, ...(pickupOrderId ? { pickup_order_id: pickupOrderId } : {}), ...(into ? { merged_into_job_id: into } : {}) });
  });
  return changes;
}

/**
 * The plan id: SHA-256 (first 128 bits, hex) of the optimiser's version and settings, the day's inputs
 * (driver, date, home lot; every job with its type, order, specification, waste type, site, destination,
 * whether it may merge, stored sequence and version; the lots and stations open that day with their
 * positions and waste types) and the result (merges, stops with their legs, distances). Equal ids: the
 * same day planned the same way; any change of an input or of the result gives another id.
 */
export function planIdOf(day: RouteDay, options: PlanOptions, plan: Omit<RoutePlan, 'plan_id' | 'moves'>): string {
  const place = (p: Place) => [p.id, p.lat, p.lng];
  const byId = <T extends Place>(xs: readonly T[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const budget = options.budget ?? DEFAULT_BUDGET;
  const digest = [
    OPTIMISER_VERSION,
    [options.exactLimit ?? EXACT_LIMIT, options.kicks ?? DEFAULT_KICKS, options.seed ?? 1, Number.isFinite(budget) ? budget : 'unbounded', TIE_KM],
    day.driverId,
    day.date,
    place(day.homeLot),
    day.jobs.map((j, k) => [
      j.id,
      j.type,
      j.orderId ?? null,
      j.specificationId,
      j.wasteTypeId,
      j.mergeable !== false,
      place(j.site),
      j.destination ? place(j.destination) : null,
      j.sequence === undefined ? k + 1 : j.sequence,
      j.version ?? null,
      j.loadLots?.length ? [...j.loadLots].sort() : null,
    ]),
    byId(day.lots).map(place),
    byId(day.stations).map((st) => [...place(st), [...st.wasteTypeIds].sort()]),
    plan.merged.map((m) => [m.swap_job_id, m.from_job_ids]),
    plan.stops.map((st) => [st.sequence, st.job_id, st.job_type, st.legs.map((l) => [l.kind, ...place(l)])]),
    plan.distance_before_km,
    plan.distance_after_km,
  ];
  return createHash('sha256').update(JSON.stringify(digest)).digest('hex').slice(0, 32);
}

/**
 * For tests and the benchmark: the unrounded length of the whole tour (home → every leg → home) in the
 * exact order and in the heuristic's, for a day's blocks after merging.
 */
export function orderCosts(day: RouteDay, options: HeuristicOptions = {}): { exact: () => number; heuristic: () => number; blocks: number } {
  const blocks = mergeSwaps(day.jobs).jobs.map((j) => blockOf(j, day));
  const c = costsOf(blocks, day.homeLot);
  const total = (order: number[]) => tourKm(blocks, order, day.homeLot);
  return { exact: () => total(exactOrder(c)), heuristic: () => total(heuristicOrder(c, options)), blocks: blocks.length };
}
