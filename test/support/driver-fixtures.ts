import { Scope } from '../../src/common/access/scope';
import { todayIn } from '../../src/common/dates';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { AssetsService } from '../../src/modules/catalogue';
import { JobsService, type JobChanges } from '../../src/modules/jobs';
import { OrderOperations } from '../../src/modules/orders';
import { inDays, orderWorld, OrderWorld, placeOrder } from './order-fixtures';
import { freshIp, TestApp } from './test-app';

/**
 * A company ready for the driver's day (dispatch, driver side), through HTTP: `orderWorld` (time zone
 * UTC) plus a station accepting the world's waste type, a second station accepting only the other
 * waste type, a truck type carrying the 20-yard specification, a truck, eight 20-yard assets at the lot
 * (each with a QR code), and the driver checked in with the truck.
 *
 * `assignJob` puts a job into `assigned` the way assignment does (asset reserved for a delivery or
 * swap, order scheduled), through the services: a test-only stand-in for `POST /driver/assign/{order}`.
 */
export interface DriverWorld extends OrderWorld {
  stationId: string;
  /** Accepts only the other waste type. */
  otherStationId: string;
  truckTypeId: string;
  truckId: string;
  assetIds: string[];
  /** QR payload per asset id. */
  qr: Map<string, string>;
  today: string;
}

/** A 1×1 PNG (detected by content by the media module). */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export async function driverWorld(t: TestApp, name = 'Driver Co'): Promise<DriverWorld> {
  const w = await orderWorld(t, { name });
  const co = async (path: string, body: unknown, status = 201) => {
    const res = await t.req('post', `/api/v1/${path}`, { token: w.company.token, body });
    if (res.status !== status) throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const station = await co('station/create', { name: 'North transfer', latitude: 40.3, longitude: -89.1, dump_cost_per_tonne_amount: 6500, waste_type_ids: [w.wasteId] });
  const other = await co('station/create', { name: 'Compost yard', latitude: 39.8, longitude: -89.2, dump_cost_per_tonne_amount: 3000, waste_type_ids: [w.otherWasteId] });
  const truckType = await co('truck-types', { name: 'Roll-off hoist', capacity_kg: 15000, asset_specification_ids: [w.specId] });
  const truck = await co('trucks', { plate: `IL-${name.slice(0, 3).toUpperCase()}-1`, name: 'Hoist 1', truck_type_id: truckType.id, home_lot_id: w.lotId });
  const assetIds: string[] = [];
  const qr = new Map<string, string>();
  for (let i = 1; i <= 8; i++) {
    const asset = await co('assets', { code: `RO20-00${i}`, asset_specification_id: w.specId, home_lot_id: w.lotId });
    assetIds.push(asset.id);
    qr.set(asset.id, (await co('qr-codes', { asset_id: asset.id })).payload);
  }
  const checkIn = await t.req('post', '/api/v1/driver/check-in', { token: w.driver.token, body: { lat: 40.0, lng: -89.0, truck_id: truck.id } });
  if (checkIn.status !== 201) throw new Error(`check-in → ${checkIn.status} ${JSON.stringify(checkIn.body)}`);
  return { ...w, stationId: station.id, otherStationId: other.id, truckTypeId: truckType.id, truckId: truck.id, assetIds, qr, today: todayIn('UTC') };
}

/** Places an order as the world's customer, approves it, and returns its id and jobs (delivery, and pickup when a pickup date is given). */
export async function approvedOrder(t: TestApp, w: OrderWorld, extra: Record<string, unknown> = { pickup_date: inDays(13) }) {
  const order = await placeOrder(t, w, extra);
  const approved = await t.req('patch', `/api/v1/approve/order/${order.id}`, { token: w.company.token });
  if (approved.status !== 200) throw new Error(`approve → ${approved.status} ${JSON.stringify(approved.body)}`);
  const jobs = await orderJobs(t, w, order.id);
  return { id: order.id as string, number: order.number as string, delivery: jobs.find((j) => j.type === 'delivery')!.id, pickup: jobs.find((j) => j.type === 'pickup')?.id ?? null };
}

/** The order's jobs as the company reads them (GET /order/{order}/full). */
export async function orderJobs(t: TestApp, w: OrderWorld, orderId: string): Promise<{ id: string; type: string; status: string; asset_id: string | null }[]> {
  const full = await t.req('get', `/api/v1/order/${orderId}/full`, { token: w.company.token });
  if (full.status !== 200) throw new Error(`full → ${full.status} ${JSON.stringify(full.body)}`);
  return full.body.data.jobs;
}

/**
 * Test-only assignment (what `POST /driver/assign/{order}` does, through the services): the job gets
 * the driver, the truck and today's date (or `date`); a delivery or swap reserves an asset (the given
 * one, or the first free one); the order is scheduled when still approved. Returns the reserved asset.
 */
export async function assignJob(t: TestApp, w: DriverWorld, jobId: string, o: { driverId?: string; truckId?: string; assetId?: string; date?: string; set?: JobChanges } = {}): Promise<string | null> {
  const jobsService = t.app.get(JobsService);
  const assets = t.app.get(AssetsService);
  const orders = t.app.get(OrderOperations);
  const companyId = w.company.companyId;
  return t.app.get(UnitOfWork).transaction(async () => {
    const job = await jobsService.lock(Scope.company(companyId), jobId);
    const order = await orders.lock(Scope.company(companyId), job.orderId);
    const assetId =
      job.type === 'delivery' || job.type === 'swap'
        ? await assets.reserve({ companyId, orderId: order.id, specificationId: order.assetSpecificationId, lotId: job.lotId ?? order.lotId, assetId: o.assetId ?? null, jobId, from: order.deliveryDate, to: order.pickupDate })
        : null;
    await jobsService.move(job, 'assigned', 'system', { driverId: o.driverId ?? w.driver.id, truckId: o.truckId ?? w.truckId, scheduledDate: o.date ?? w.today, ...(assetId ? { assetId } : {}), ...o.set });
    if (job.type === 'delivery') await orders.scheduled(Scope.company(companyId), job.orderId, 'system');
    return assetId;
  });
}

/** Sets columns of a job directly (test-only: what route collapse does when it merges a pickup into a swap). */
export async function changeJob(t: TestApp, companyId: string, jobId: string, set: JobChanges): Promise<void> {
  const jobsService = t.app.get(JobsService);
  await t.app.get(UnitOfWork).transaction(async () => jobsService.change(await jobsService.lock(Scope.company(companyId), jobId), set));
}

/** Uploads a PNG (POST /upload-media) and returns its id. */
export async function uploadPng(t: TestApp): Promise<string> {
  const upload = await t.http.post('/api/v1/upload-media').set('X-Forwarded-For', freshIp()).attach('file', PNG, 'dot.png');
  if (upload.status !== 201) throw new Error(`upload-media → ${upload.status} ${JSON.stringify(upload.body)}`);
  return upload.body.data.id;
}

/** The asset's status and place (GET /assets/{asset}) and its history by jobs (AssetsService.history). */
export async function assetState(t: TestApp, w: OrderWorld, assetId: string) {
  const res = await t.req('get', `/api/v1/assets/${assetId}`, { token: w.company.token });
  if (res.status !== 200) throw new Error(`asset → ${res.status} ${JSON.stringify(res.body)}`);
  const history = await t.app.get(AssetsService).history(Scope.company(w.company.companyId), assetId);
  return { status: res.body.data.status as string, location_type: res.body.data.location_type as string | null, location_id: res.body.data.location_id as string | null, history };
}
