import { ABSENT_ID } from '../support/fixtures';
import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

describe('Dispatch (company): context, drivers, assignable orders, assets', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  const today = inDays(0);
  let assigned: { orderId: string; jobId: string; assetId: string };
  let open: { orderId: string; jobId: string };
  let away: { id: string };

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 4 });
    rival = await dispatchWorld(t, { name: 'Rival Co', assets: 2 }); // one container per open-ended order it places (the calendar refuses past that)
    // The world's time zone is UTC, so "today" is inDays(0). The driver checks in with the truck; one job is
    // assigned and moved to today, another order's delivery is moved to today unassigned.
    await t.req('post', '/api/v1/driver/check-in', { token: w.driver.token, body: { lat: 40.0, lng: -89.0, truck_id: w.truckId } }).expect(201);
    const a = await approvedOrder(t, w);
    const [job] = await assignOrder(t, w, a.id);
    await co('put', `order/jobs/${job.id}`, { date: today }).expect(200);
    assigned = { orderId: a.id, jobId: job.id, assetId: job.asset_id! };
    const b = await approvedOrder(t, w);
    await co('put', `order/jobs/${b.deliveryJobId}`, { date: today }).expect(200);
    open = { orderId: b.id, jobId: b.deliveryJobId };
    const driverAway = await addDriver(t, w);
    await approvedLeave(driverAway, today);
    away = driverAway;
    await approvedOrder(t, rival);
  });
  afterAll(async () => t?.close());

  const co = (method: 'get' | 'put', path: string, body?: unknown, token = w.company.token) => t.req(method, `/api/v1/${path}`, { token, body });
  /** The driver asks for leave on `date` and the company approves it (the leaves module, over HTTP); returns the leave's id. */
  const approvedLeave = async (driver: { token: string }, date: string): Promise<string> => {
    const asked = await t.req('post', '/api/v1/driver/leave-requests', { token: driver.token, body: { type: 'annual', dates: [date], reason: 'Day off.' } }).expect(201);
    const approved = await t.req('post', `/api/v1/leave-requests/${asked.body.data.id}/approve-dates`, { token: w.company.token, body: { dates: [date] } }).expect(200);
    return approved.body.data.dates[0].leave_id;
  };

  it('GET /dispatch/context: drivers with attendance, leave and load; trucks; the day\'s jobs; lots; open stations; free assets', async () => {
    const ctx = (await co('get', 'dispatch/context').expect(200)).body.data;
    expect(ctx.date).toBe(today);
    const driver = ctx.drivers.find((d: Row) => d.id === w.driver.id);
    expect(driver).toMatchObject({ name: 'A driver', on_leave: false, truck_id: w.truckId, attendance: expect.objectContaining({ status: 'checked_in', truck_id: w.truckId }) });
    // Home lot (40.00,-89.00) → site (40.18,-89.00) → home lot: 2 × 20.015 km.
    expect(driver.load).toMatchObject({ jobs: 1, stops: 1 });
    expect(driver.load.planned_km).toBeCloseTo(40.03, 1);
    expect(ctx.drivers.find((d: Row) => d.id === away.id)).toMatchObject({ on_leave: true, attendance: null, load: { jobs: 0, stops: 0, planned_km: null } });
    expect(ctx.trucks).toEqual([expect.objectContaining({ id: w.truckId, truck_type_id: w.truckTypeId, truck_type_name: 'Roll-off hoist', asset_specification_ids: [w.specId], home_lot_id: w.lotId, status: 'active' })]);
    expect(ctx.jobs.unassigned.map((j: Row) => j.id)).toEqual([open.jobId]);
    expect(ctx.jobs.assigned.map((j: Row) => j.id)).toEqual([assigned.jobId]);
    expect(ctx.jobs.assigned[0].order).toMatchObject({ id: assigned.orderId });
    expect(ctx.lots).toEqual([expect.objectContaining({ id: w.lotId, open: true, closed_reason: null })]);
    expect(ctx.stations).toEqual([expect.objectContaining({ id: w.stationId, open: true, waste_type_ids: [w.wasteId] })]);
    expect(ctx.free_assets).toEqual([{ asset_specification_id: w.specId, available: 3, by_home_lot: [{ home_lot_id: w.lotId, available: 3 }] }]);
    // Another day: nothing scheduled, nobody checked in.
    const later = (await co('get', `dispatch/context?date=${inDays(30)}`).expect(200)).body.data;
    expect(later.jobs).toEqual({ unassigned: [], assigned: [] });
    expect(later.drivers.every((d: Row) => d.attendance === null)).toBe(true);
    // Another company sees none of it.
    const theirs = (await t.req('get', '/api/v1/dispatch/context', { token: rival.company.token }).expect(200)).body.data;
    expect(theirs.drivers.map((d: Row) => d.id)).toEqual([rival.driver.id]);
    expect(theirs.jobs.assigned).toEqual([]);
    await co('get', 'dispatch/context?date=2027-13-01').expect(422);
    await co('get', 'dispatch/context', undefined, w.driver.token).expect(403);
    await co('get', 'dispatch/context', undefined, w.customer.token).expect(403);
  });

  it('GET /available/drivers: active drivers not on leave, with their load', async () => {
    const list = (await co('get', 'available/drivers').expect(200)).body.data as Row[];
    expect(list.map((d) => d.id)).toContain(w.driver.id);
    expect(list.map((d) => d.id)).not.toContain(away.id);
    expect(list.find((d) => d.id === w.driver.id)!.load.jobs).toBe(1);
    const tomorrow = (await co('get', `available/drivers?date=${inDays(1)}`).expect(200)).body.data as Row[];
    expect(tomorrow.map((d) => d.id)).toContain(away.id);
    await co('get', 'available/drivers?date=today').expect(422);
    await co('get', 'available/drivers', undefined, w.driver.token).expect(403);
  });

  it('GET /drivers-orders-dates and GET /drivers-with-orders', async () => {
    const later = await approvedOrder(t, w, { delivery_date: inDays(6) });
    await assignOrder(t, w, later.id);
    const dates = (await co('get', 'drivers-orders-dates').expect(200)).body.data as Row[];
    expect(dates).toEqual([{ driver_id: w.driver.id, driver_name: 'A driver', dates: [today, inDays(6)] }]);
    expect((await co('get', `drivers-orders-dates?from=${inDays(1)}`).expect(200)).body.data[0].dates).toEqual([inDays(6)]);
    expect((await co('get', `drivers-orders-dates?from=${inDays(2)}&to=${inDays(1)}`).expect(422)).body.errors).toHaveProperty('to');
    const withOrders = (await co('get', 'drivers-with-orders').expect(200)).body.data as Row[];
    expect(withOrders).toEqual([expect.objectContaining({ driver_id: w.driver.id, driver_name: 'A driver', jobs: [expect.objectContaining({ id: assigned.jobId, order: expect.objectContaining({ id: assigned.orderId }) })] })]);
    expect((await co('get', `drivers-with-orders?date=${inDays(30)}`).expect(200)).body.data).toEqual([]);
    expect((await t.req('get', '/api/v1/drivers-orders-dates', { token: rival.company.token }).expect(200)).body.data).toEqual([]);
    await co('get', 'drivers-with-orders', undefined, w.customer.token).expect(403);
    await co('get', 'drivers-orders-dates', undefined, w.driver.token).expect(403);
  });

  it('GET /orders/assignable: orders with unassigned jobs, filtered and paginated', async () => {
    const page = (await co('get', 'orders/assignable?per_page=100').expect(200)).body;
    const ids = (page.data as Row[]).map((o) => o.id);
    expect(ids).toContain(open.orderId);
    expect(ids).not.toContain(assigned.orderId);
    const row = (page.data as Row[]).find((o) => o.id === open.orderId)!;
    expect(row).toMatchObject({ status: 'approved', customer_name: 'A customer', specification_name: '20 yd roll-off', waste_type_name: 'General debris', unassigned_jobs: [{ id: open.jobId, type: 'delivery', scheduled_date: today }] });
    expect((await co('get', `orders/assignable?date=${today}`).expect(200)).body.data.map((o: Row) => o.id)).toEqual([open.orderId]);
    expect((await co('get', `orders/assignable?asset_specification_id=${w.otherSpecId}`).expect(200)).body.data).toEqual([]);
    expect((await co('get', `orders/assignable?q=${row.number}`).expect(200)).body.data.map((o: Row) => o.id)).toEqual([open.orderId]);
    expect((await co('get', 'orders/assignable?sort=-number&per_page=1').expect(200)).body.meta).toMatchObject({ per_page: 1 });
    expect((await co('get', 'orders/assignable?sort=total').expect(422)).body.errors).toHaveProperty('sort');
    await co('get', 'orders/assignable?asset_specification_id=nope').expect(422);
    const theirs = (await t.req('get', '/api/v1/orders/assignable', { token: rival.company.token }).expect(200)).body.data as Row[];
    expect(theirs.map((o) => o.id)).not.toContain(open.orderId);
    await co('get', 'orders/assignable', undefined, w.driver.token).expect(403);
  });

  it('GET /orders/{orderId}/assets-with-availability: each asset with status and whether it is free', async () => {
    const forOpen = (await co('get', `orders/${open.orderId}/assets-with-availability`).expect(200)).body.data;
    expect(forOpen).toMatchObject({ order_id: open.orderId, asset_specification_id: w.specId, job_id: open.jobId, date: today });
    expect(forOpen.assets).toHaveLength(4);
    const taken = forOpen.assets.find((a: Row) => a.id === assigned.assetId);
    expect(taken).toMatchObject({ status: 'reserved', free: false, reserved_for_this_order: false, at_job_lot: true });
    // Free for this order: exactly the available ones (another order's reservation is not).
    expect(forOpen.assets.filter((a: Row) => a.free).map((a: Row) => a.id)).toEqual(forOpen.assets.filter((a: Row) => a.status === 'available').map((a: Row) => a.id));
    const forAssigned = (await co('get', `orders/${assigned.orderId}/assets-with-availability?date=${inDays(2)}`).expect(200)).body.data;
    expect(forAssigned).toMatchObject({ job_id: null, date: inDays(2) });
    expect(forAssigned.assets.find((a: Row) => a.id === assigned.assetId)).toMatchObject({ free: true, reserved_for_this_order: true });
    const theirs = await approvedOrder(t, rival);
    expect((await co('get', `orders/${theirs.id}/assets-with-availability`).expect(404)).body.code).toBe('NOT_FOUND');
    await co('get', `orders/${ABSENT_ID}/assets-with-availability`).expect(404);
    await co('get', `orders/${open.orderId}/assets-with-availability?date=soon`).expect(422);
    await co('get', `orders/${open.orderId}/assets-with-availability`, undefined, w.customer.token).expect(403);
  });
});
