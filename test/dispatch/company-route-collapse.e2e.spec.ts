import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays, tour } from '../support/dispatch-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

describe('Dispatch (company): PUT /order/jobs/route-collapse', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  const day = inDays(10);
  let delivery: string; // order A's delivery on the day, at the first address
  let pickup: string; // order B's pickup on the day, at the same address and specification
  let far: string; // order C's delivery on the day, at another address
  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 6 });
    rival = await dispatchWorld(t, { name: 'Rival Co', assets: 1 });
    const second = await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1: '7 Far Rd', city: 'Shelbyville', latitude: 40.3, longitude: -89.25 } }).expect(201);
    const a = await approvedOrder(t, w, { delivery_date: day });
    const b = await approvedOrder(t, w, { delivery_date: inDays(3), pickup_date: day });
    const c = await approvedOrder(t, w, { delivery_date: day, address_id: second.body.data.id });
    // In a poor order: the far delivery first, then the pickup, then the delivery at the pickup's site.
    await assignOrder(t, w, c.id, { sequence: 1 });
    await assignOrder(t, w, b.id); // B's delivery, another day
    await assignOrder(t, w, b.id, { sequence: 2 }); // B's pickup
    await assignOrder(t, w, a.id, { sequence: 3 });
    delivery = a.deliveryJobId;
    pickup = b.pickupJobId!;
    far = c.deliveryJobId;
  });
  afterAll(async () => t?.close());

  const co = (path: string, body: unknown, token = w.company.token) => t.req('put', `/api/v1/${path}`, { token, body });
  const job = async (id: string) => (await t.req('get', `/api/v1/jobs/${id}`, { token: w.company.token }).expect(200)).body.data;

  it('previews the plan (apply: false) without saving anything', async () => {
    const res = await co('order/jobs/route-collapse', { driver_id: w.driver.id, date: day, apply: false }).expect(200);
    const plan = res.body.data;
    expect(Object.keys(plan).sort()).toEqual(['date', 'distance_after_km', 'distance_before_km', 'driver_id', 'home_lot', 'merged', 'stops']);
    expect(plan).toMatchObject({ driver_id: w.driver.id, date: day, home_lot: { id: w.lotId, lat: 40, lng: -89 } });
    expect(plan.merged).toEqual([{ swap_job_id: delivery, from_job_ids: [delivery, pickup] }]);
    expect(plan.stops.map((s: Row) => [s.sequence, s.job_type])).toHaveLength(2);
    const swap = plan.stops.find((s: Row) => s.job_id === delivery);
    expect(swap.job_type).toBe('swap');
    expect(swap.legs.map((l: Row) => [l.kind, l.id])).toEqual([
      ['lot', w.lotId],
      ['site', w.addressId],
      ['station', w.stationId],
    ]);
    // distance_after_km is exactly home → every leg of every stop → home.
    const km = tour([plan.home_lot, ...plan.stops.flatMap((s: Row) => s.legs), plan.home_lot]);
    expect(plan.distance_after_km).toBeCloseTo(km, 3);
    expect(plan.distance_after_km).toBeLessThan(plan.distance_before_km);
    expect(await job(delivery)).toMatchObject({ type: 'delivery', sequence: 3, merged_job_ids: [] });
    expect((await job(pickup)).merged_into_job_id).toBeNull();
  });

  it('applies it: the delivery becomes a swap, the pickup is merged into it, every sequence saved', async () => {
    const plan = (await co('order/jobs/route-collapse', { driver_id: w.driver.id, date: day }).expect(200)).body.data;
    const swapStop = plan.stops.find((s: Row) => s.job_id === delivery);
    const farStop = plan.stops.find((s: Row) => s.job_id === far);
    expect(await job(delivery)).toMatchObject({ type: 'swap', sequence: swapStop.sequence, merged_job_ids: [pickup], order: expect.objectContaining({ status: 'scheduled' }) });
    expect(await job(pickup)).toMatchObject({ type: 'pickup', merged_into_job_id: delivery, sequence: swapStop.sequence });
    expect((await job(far)).sequence).toBe(farStop.sequence);
    const events = await t.ds.query(`SELECT aggregate_id, payload FROM outbox_events WHERE type = 'job.updated' AND aggregate_id = ANY($1::uuid[])`, [[delivery, pickup]]);
    expect(events.map((e: Row) => e.aggregate_id).sort()).toEqual([delivery, pickup].sort());

    // Again: the merged pickup is left out, nothing more to merge, and the saved order is already optimal
    // (with one lot, both orders of these two stops tie).
    const again = (await co('order/jobs/route-collapse', { driver_id: w.driver.id, date: day }).expect(200)).body.data;
    expect(again.merged).toEqual([]);
    expect(again.stops.map((s: Row) => s.job_id).sort()).toEqual([delivery, far].sort());
    expect(again.distance_before_km).toBeCloseTo(plan.distance_after_km, 3);
    expect(again.distance_after_km).toBeCloseTo(plan.distance_after_km, 3);
  });

  it('answers 422 for a day without jobs, a job no open station takes, another company\'s driver, bad input; 403 to others', async () => {
    const idle = await addDriver(t, w);
    expect((await co('order/jobs/route-collapse', { driver_id: idle.id, date: day }).expect(422)).body.errors).toHaveProperty('date');
    const yard = await approvedOrder(t, w, { delivery_date: inDays(12), pickup_date: inDays(14), waste_type_id: w.otherWasteId });
    await assignOrder(t, w, yard.id);
    await assignOrder(t, w, yard.id);
    const noStation = await co('order/jobs/route-collapse', { driver_id: w.driver.id, date: inDays(14) }).expect(422);
    expect(noStation.body.code).toBe('NO_STATION');
    expect((await co('order/jobs/route-collapse', { driver_id: rival.driver.id, date: day }).expect(422)).body.errors).toEqual({ driver_id: ['not found'] });
    const bad = await co('order/jobs/route-collapse', { driver_id: 'x', date: '2027-02-30', apply: 'yes' }).expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['apply', 'date', 'driver_id']);
    await co('order/jobs/route-collapse', { driver_id: w.driver.id, date: day }, w.driver.token).expect(403);
    await co('order/jobs/route-collapse', { driver_id: w.driver.id, date: day }, w.customer.token).expect(403);
  });
});
