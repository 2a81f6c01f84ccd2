import { MemberActor, memberActor } from './actors';
import { inDays, orderWorld, OrderWorld, placeOrder } from './order-fixtures';
import { TestApp } from './test-app';

/**
 * Dispatch fixtures, through HTTP only, on top of `orderWorld` (lot at 40.00,-89.00 open every day,
 * 20 yd spec `specId` and 30 yd `otherSpecId`, waste types, price book, customer with an address at
 * 40.18,-89.00, driver):
 * - a truck type carrying the 20 yd spec (`truckTypeId`) and an active truck of it based at the lot (`truckId`);
 * - `assets` available 20 yd assets based at the lot (`assetIds`, codes RO20-001…; default 2);
 * - a station at 40.05,-89.05 accepting the world's waste type, open every day (`stationId`).
 *
 * ```ts
 * const w = await dispatchWorld(t);                        // or dispatchWorld(t, { assets: 1, name: 'Rival' })
 * const o = await approvedOrder(t, w, { pickup_date: inDays(10) }); // {id, deliveryJobId, pickupJobId, ...}
 * await assignOrder(t, w, o.id);                           // driver + truck (+ first free asset), 200 asserted
 * ```
 */
export interface DispatchWorld extends OrderWorld {
  truckTypeId: string;
  truckId: string;
  assetIds: string[];
  stationId: string;
}

/** POST as the world's company (status asserted), returns `data`. */
export async function coPost(t: TestApp, w: OrderWorld, path: string, body: unknown, status = 201, method: 'post' | 'put' | 'patch' = 'post') {
  const res = await t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  if (res.status !== status) throw new Error(`${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function dispatchWorld(t: TestApp, opts: { name?: string; assets?: number; settings?: Record<string, unknown> } = {}): Promise<DispatchWorld> {
  const w = await orderWorld(t, { name: opts.name ?? 'Dispatch Co', settings: opts.settings });
  const truckType = await coPost(t, w, 'truck-types', { name: 'Roll-off hoist', capacity_kg: 15000, asset_specification_ids: [w.specId] });
  const truckId = await addTruck(t, w, truckType.id);
  const assetIds: string[] = [];
  for (let i = 1; i <= (opts.assets ?? 2); i++) assetIds.push(await addAsset(t, w, `RO20-${String(i).padStart(3, '0')}`));
  const station = await coPost(t, w, 'station/create', { name: 'Transfer station', latitude: 40.05, longitude: -89.05, dump_cost_per_tonne_amount: 6500, waste_type_ids: [w.wasteId] });
  return { ...w, truckTypeId: truckType.id, truckId, assetIds, stationId: station.id };
}

let plates = 0;
/** Another active truck of a type (default plate unique), based at the world's lot; returns its id. */
export async function addTruck(t: TestApp, w: OrderWorld, truckTypeId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const truck = await coPost(t, w, 'trucks', { plate: `TST-${process.pid % 1000}-${++plates}`, truck_type_id: truckTypeId, home_lot_id: w.lotId, ...extra });
  return truck.id;
}

/** Another available asset of the world's 20 yd spec (or `specId`), based at the lot; returns its id. */
export async function addAsset(t: TestApp, w: OrderWorld, code: string, specId: string = w.specId): Promise<string> {
  const asset = await coPost(t, w, 'assets', { code, asset_specification_id: specId, home_lot_id: w.lotId });
  return asset.id;
}

/** Another active driver of the world's company. */
export const addDriver = (t: TestApp, w: OrderWorld): Promise<MemberActor> => memberActor(t, w.company, 'driver');

export interface ApprovedOrder {
  id: string;
  number: string;
  deliveryDate: string;
  deliveryJobId: string;
  /** The pickup job when the order has a pickup date. */
  pickupJobId: string | null;
}

/** Places an order as the world's customer (delivery in 3 days unless `extra` says otherwise) and approves it; returns its ids and jobs. */
export async function approvedOrder(t: TestApp, w: OrderWorld, extra: Record<string, unknown> = {}, customer: MemberActor = w.customer): Promise<ApprovedOrder> {
  const placed = await placeOrder(t, w, extra, customer);
  await coPost(t, w, `approve/order/${placed.id}`, undefined, 200, 'patch');
  const full = await t.req('get', `/api/v1/order/${placed.id}/full`, { token: w.company.token });
  if (full.status !== 200) throw new Error(`order full → ${full.status}`);
  const jobs = full.body.data.jobs as { id: string; type: string }[];
  return {
    id: placed.id,
    number: placed.number,
    deliveryDate: placed.delivery_date,
    deliveryJobId: jobs.find((j) => j.type === 'delivery')!.id,
    pickupJobId: jobs.find((j) => j.type === 'pickup')?.id ?? null,
  };
}

/** Assigns the order's next unassigned job to the world's driver and truck (or `body`'s), 200 asserted; returns the assigned jobs. */
export async function assignOrder(t: TestApp, w: DispatchWorld, orderId: string, body: Record<string, unknown> = {}) {
  const data = await coPost(t, w, `driver/assign/${orderId}`, { driver_id: w.driver.id, truck_id: w.truckId, ...body }, 200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return data.jobs as ({ id: string; type: string; status: string; asset_id: string | null; driver_id: string; sequence: number } & Record<string, any>)[];
}

export { inDays };

/**
 * The length in km of a path through the points in order, by haversine (Earth radius 6,371 km): what the
 * tests expect of the route planner's distances, computed independently of it.
 */
export function tour(points: readonly { lat: number; lng: number }[]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const haversine = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
    const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
    return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
  };
  return points.slice(1).reduce((km, p, i) => km + haversine(points[i], p), 0);
}
