import { SwapCarriesPickup1764700100000 } from '../../migrations/1764700100000-SwapCarriesPickup';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { memberActor } from '../support/actors';
import { tour } from '../support/dispatch-fixtures';
import { assetState, approvedOrder, driverWorld, DriverWorld, orderJobs, uploadPng } from '../support/driver-fixtures';
import { inDays } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * Issue #25, item 1: a swap carries both sides. A yard-waste order's pickup and a C&D order's delivery at
 * one address are merged into a swap by route collapse; from then on the swap is planned, weighed and
 * billed on the container it takes back (the pickup order's waste type, asset and final bill), while the
 * container it brings is the delivery order's. Over HTTP (driverWorld: the lot at 40.00,-89.00, the site at
 * 40.18,-89.00, the C&D-only "North transfer" at 40.30,-89.10, the yard-waste-only "Compost yard" at
 * 39.80,-89.20), then the migration that fixes swaps saved before the swap carried its pickup side.
 */
describe('A swap carries both sides (route collapse → plan → ticket → bill → assets → tonnage)', () => {
  let t: TestApp;
  let w: DriverWorld;
  let mediaId: string;
  /** Order B: yard waste, delivered today; its pickup is merged into the swap. */
  let yard: { id: string; delivery: string; pickup: string };
  /** Order A: C&D (the world's waste type); its delivery becomes the swap. */
  let cd: { id: string; delivery: string };
  let oldAsset: string;
  let newAsset: string;

  const co = (method: 'get' | 'post' | 'put', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.company.token, body });
  const dr = (method: 'get' | 'post', path: string, body?: unknown) => t.req(method, `/api/v1/driver/${path}`, { token: w.driver.token, body });
  const ticket = (jobId: string, stationId: string, gross = 15400, tare = 11900) => dr('post', `jobs/${jobId}/evidence`, { kind: 'ticket', station_id: stationId, ticket_number: `T-${gross}`, gross_kg: gross, tare_kg: tare });
  const order = async (id: string) => (await co('get', `order/${id}`).expect(200)).body.data;
  const collapse = async (apply: boolean) => (await co('put', 'order/jobs/route-collapse', { driver_id: w.driver.id, date: w.today, apply }).expect(200)).body.data;

  const lot = { lat: 40.0, lng: -89.0 };
  const site = { lat: 40.18, lng: -89.0 };
  const compost = { lat: 39.8, lng: -89.2 };
  const cdStation = { lat: 40.3, lng: -89.1 };
  // The swap's block: lot → site → the station of the picked-up waste; the day: home lot → block → home lot.
  const swapDayKm = tour([lot, lot, site, compost, lot]);
  const wrongDayKm = tour([lot, lot, site, cdStation, lot]);

  beforeAll(async () => {
    t = await startTestApp();
    w = await driverWorld(t, 'Swap Co');
    mediaId = await uploadPng(t);
    const assign = (orderId: string, driverId = w.driver.id) => co('post', `driver/assign/${orderId}`, { driver_id: driverId, truck_id: w.truckId, date: w.today }).expect(200);

    // B (yard waste) is delivered today by another driver (the world's driver's day holds only the swap): its container goes on site.
    const other = await memberActor(t, w.company, 'driver');
    const as = (method: 'post', path: string, body?: unknown) => t.req(method, `/api/v1/driver/${path}`, { token: other.token, body });
    await as('post', 'check-in', { lat: 40.0, lng: -89.0 }).expect(201);
    const b = await approvedOrder(t, w, { waste_type_id: w.otherWasteId, pickup_date: inDays(5) });
    yard = { id: b.id, delivery: b.delivery, pickup: b.pickup! };
    await assign(b.id, other.id);
    oldAsset = (await orderJobs(t, w, b.id)).find((j) => j.id === b.delivery)!.asset_id!;
    await as('post', `jobs/${b.delivery}/start`).expect(200);
    await as('post', `jobs/${b.delivery}/evidence`, { kind: 'photo', media_id: mediaId }).expect(201);
    await as('post', `jobs/${b.delivery}/complete`).expect(200);

    // Today the driver has B's pickup and A's (C&D) delivery at the same address.
    const a = await approvedOrder(t, w, {});
    cd = { id: a.id, delivery: a.delivery };
    await assign(b.id); // B's pickup
    await assign(a.id); // A's delivery, with a new container reserved
    newAsset = (await orderJobs(t, w, a.id)).find((j) => j.id === a.delivery)!.asset_id!;
  });
  afterAll(async () => t?.close());

  it('route collapse merges them into a swap that dumps at the compost site, and keeps planning it there once applied', async () => {
    expect(swapDayKm).not.toBeCloseTo(wrongDayKm, 1);
    const preview = await collapse(false);
    expect(preview.merged).toEqual([{ swap_job_id: cd.delivery, from_job_ids: [cd.delivery, yard.pickup] }]);
    expect(preview.stops).toHaveLength(1);
    expect(preview.stops[0].legs.map((l: Row) => [l.kind, l.id])).toEqual([
      ['lot', w.lotId],
      ['site', w.addressId],
      ['station', w.otherStationId],
    ]);
    expect(preview.distance_after_km).toBeCloseTo(swapDayKm, 3);

    const applied = await collapse(true);
    expect(applied.distance_after_km).toBeCloseTo(swapDayKm, 3);
    const swap = (await co('get', `jobs/${cd.delivery}`).expect(200)).body.data;
    // The swap carries both sides: its own order (the container going out) and the pickup's (the one coming back).
    expect(swap).toMatchObject({ type: 'swap', order_id: cd.id, pickup_order_id: yard.id, asset_id: newAsset, merged_job_ids: [yard.pickup] });
    expect((await co('get', `jobs/${yard.pickup}`).expect(200)).body.data).toMatchObject({ type: 'pickup', merged_into_job_id: cd.delivery, pickup_order_id: null });

    // The next plan: the applied swap is still routed to the station of the waste it takes back.
    const again = await collapse(false);
    expect(again.merged).toEqual([]);
    expect(again.stops.map((s: Row) => [s.job_id, s.job_type])).toEqual([[cd.delivery, 'swap']]);
    expect(again.stops[0].legs.map((l: Row) => l.id)).toEqual([w.lotId, w.addressId, w.otherStationId]);
    expect(again.distance_before_km).toBeCloseTo(swapDayKm, 3);
    expect(again.distance_after_km).toBeCloseTo(swapDayKm, 3);
  });

  it('the dispatch context plans the swap through the compost site', async () => {
    const ctx = (await co('get', `dispatch/context?date=${w.today}`).expect(200)).body.data;
    const driver = ctx.drivers.find((d: Row) => d.id === w.driver.id);
    expect(driver.load).toMatchObject({ jobs: 2, stops: 1 });
    expect(driver.load.planned_km).toBeCloseTo(swapDayKm, 3);
    const listed = ctx.jobs.assigned.find((j: Row) => j.id === cd.delivery);
    expect(listed).toMatchObject({ type: 'swap', pickup_order_id: yard.id, order: { id: cd.id, waste_type_id: w.wasteId } });
  });

  it("the driver sees both containers; the ticket is checked against the picked-up waste: compost site accepted, C&D-only station refused", async () => {
    const detail = (await dr('get', `jobs/${cd.delivery}`).expect(200)).body.data;
    expect(detail).toMatchObject({
      type: 'swap',
      order_id: cd.id,
      pickup_order_id: yard.id,
      asset: { id: newAsset },
      on_site_asset: { id: oldAsset },
      waste_type: { id: w.wasteId },
      dump_waste_type: { id: w.otherWasteId, name: 'Yard waste' },
      merged_jobs: [expect.objectContaining({ id: yard.pickup, order_id: yard.id })],
      missing: ['station_ticket'],
    });
    const started = (await dr('post', `jobs/${cd.delivery}/start`).expect(200)).body.data;
    expect(started).toMatchObject({ status: 'in_progress', asset: { id: newAsset, status: 'in_transit' }, on_site_asset: { id: oldAsset, status: 'on_site' } });

    const refused = await ticket(cd.delivery, w.stationId).expect(422);
    expect(refused.body).toMatchObject({ code: 'WASTE_NOT_ACCEPTED', errors: { station_id: [expect.any(String)] } });
    // 3500 kg net at the compost site.
    const accepted = await ticket(cd.delivery, w.otherStationId).expect(201);
    expect(accepted.body.data.ticket).toMatchObject({ station_id: w.otherStationId, net_kg: 3500 });
  });

  it("completion: the new container goes out on A's site, the old one comes back through the compost site; the overage lands on B's final bill", async () => {
    const before = { yard: await order(yard.id), cd: await order(cd.id) };
    const done = (await dr('post', `jobs/${cd.delivery}/complete`).expect(200)).body.data;
    expect(done).toMatchObject({ status: 'completed', removed_asset_id: oldAsset, merged_jobs: [expect.objectContaining({ id: yard.pickup, status: 'completed' })] });

    expect(await assetState(t, w, newAsset)).toMatchObject({ status: 'on_site', location_type: 'customer_address', location_id: w.addressId });
    const old = await assetState(t, w, oldAsset);
    expect(old).toMatchObject({ status: 'available', location_type: 'lot', location_id: w.lotId });
    expect(old.history.slice(-2).map((h) => [h.from, h.to, h.location_type, h.location_id, h.job_id])).toEqual([
      ['on_site', 'at_station', 'station', w.otherStationId, cd.delivery],
      ['at_station', 'available', 'lot', w.lotId, cd.delivery],
    ]);

    // B: completed by the swap, its final bill with the ticket's overage (3500 − 2000 kg at 9000 per tonne).
    const yardAfter = await order(yard.id);
    expect(yardAfter.status).toBe('completed');
    const added = yardAfter.lines.slice(before.yard.lines.length);
    expect(added).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'overage', amount: 13500 })]));
    // A: delivered (its first container is on site), billed nothing more.
    const cdAfter = await order(cd.id);
    expect(cdAfter).toMatchObject({ status: 'delivered', delivered_on: w.today });
    expect(cdAfter.lines).toEqual(before.cd.lines);
    expect(cdAfter.lines.some((l: Row) => l.kind === 'overage')).toBe(false);

    // The tonnage report counts the ticket under the waste it weighed (the rollups follow the events).
    const relay = t.app.get(OutboxRelay);
    while ((await relay.runOnce()).claimed > 0);
    const tonnage = (await co('get', `reports?from=${w.today}&to=${w.today}&report=tonnage`).expect(200)).body.data.rows;
    expect(tonnage).toEqual([[w.otherWasteId, 'Yard waste', 1, 3500]]);
  });

  it('the migration gives swaps saved before it their pickup side (down, then up on the rows it left)', async () => {
    // A swap of one order (a change request's, no merged pickup): B' is delivered, then a swap is added.
    const c = await approvedOrder(t, w, {});
    const plain = (await co('post', 'order/jobs', { order_id: c.id, type: 'swap', date: inDays(4), charge_fee: false }).expect(201)).body.data;
    expect(plain).toMatchObject({ type: 'swap', pickup_order_id: c.id });

    const migration = new SwapCarriesPickup1764700100000();
    const qr = t.ds.createQueryRunner();
    try {
      await migration.down(qr);
      const columns = await qr.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'jobs' AND column_name = 'pickup_order_id'`);
      expect(columns).toEqual([]);
      // What a swap looked like before: its own order only.
      await migration.up(qr);
    } finally {
      await qr.release();
    }
    const rows: Row[] = await t.ds.query(`SELECT id, pickup_order_id FROM jobs WHERE id = ANY($1::uuid[]) OR type = 'swap' ORDER BY id`, [[cd.delivery, plain.id, yard.pickup]]);
    const byId = new Map(rows.map((r) => [r.id, r.pickup_order_id]));
    expect(byId.get(cd.delivery)).toBe(yard.id);
    expect(byId.get(plain.id)).toBe(c.id);
    expect(byId.get(yard.pickup)).toBeNull();
    // A job that is not a swap cannot carry a pickup side.
    await expect(t.ds.query(`UPDATE jobs SET pickup_order_id = order_id WHERE id = $1`, [yard.pickup])).rejects.toThrow(/jobs_pickup_order_check/);
  });
});
