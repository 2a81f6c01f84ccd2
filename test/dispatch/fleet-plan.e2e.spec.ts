import { addDriver, addTruck, approvedOrder, assignOrder, coPost, dispatchWorld, DispatchWorld, inDays, tour } from '../support/dispatch-fixtures';
import type { MemberActor } from '../support/actors';
import { startTestApp, TestApp } from '../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

describe('Dispatch (company): POST /dispatch/plan, the whole fleet\'s day (issue #26)', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  let second: MemberActor;
  let secondTruck: string;
  const day = inDays(10);
  let pinned: string; // order C's delivery, assigned to the world's driver before planning
  let free: string[]; // the day's unassigned jobs
  let rivalJob: string;
  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 12 });
    rival = await dispatchWorld(t, { name: 'Rival Co', assets: 2 });
    second = await addDriver(t, w);
    secondTruck = await addTruck(t, w, w.truckTypeId);
    const far = await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1: '7 Far Rd', city: 'Shelbyville', latitude: 40.3, longitude: -89.25 } }).expect(201);
    const a = await approvedOrder(t, w, { delivery_date: day });
    const b = await approvedOrder(t, w, { delivery_date: day, address_id: far.body.data.id });
    const c = await approvedOrder(t, w, { delivery_date: day, address_id: far.body.data.id });
    const d = await approvedOrder(t, w, { delivery_date: inDays(3), pickup_date: day });
    await assignOrder(t, w, c.id, { sequence: 1 });
    pinned = c.deliveryJobId;
    free = [a.deliveryJobId, b.deliveryJobId, d.pickupJobId!];
    rivalJob = (await approvedOrder(t, rival, { delivery_date: day })).deliveryJobId;
  });
  afterAll(async () => t?.close());

  const plan = (body: unknown, token = w.company.token) => t.req('post', '/api/v1/dispatch/plan', { token, body });
  const job = async (id: string) => (await t.req('get', `/api/v1/jobs/${id}`, { token: w.company.token }).expect(200)).body.data;

  it('previews the plan (the default) without saving anything', async () => {
    const res = await plan({ date: day }).expect(200);
    const p = res.body.data;
    expect(Object.keys(p).sort()).toEqual(['applied', 'date', 'distance_after_km', 'distance_before_km', 'drivers_left_out', 'exact', 'moves', 'plan_id', 'routes', 'unassigned']);
    expect(p).toMatchObject({ date: day, applied: false, exact: true, unassigned: [], drivers_left_out: [] });
    expect(p.plan_id).toMatch(/^[0-9a-f]{32}$/);
    expect(p.routes.map((r: Row) => r.driver_id)).toEqual([w.driver.id, second.id].sort());
    const mine = p.routes.find((r: Row) => r.driver_id === w.driver.id);
    // The pinned job stays with its driver and the truck of the driver's day is its truck; the other driver gets the free truck.
    expect(mine.truck_id).toBe(w.truckId);
    expect(mine.stops.find((s: Row) => s.job_id === pinned)).toMatchObject({ pinned: true });
    expect(p.routes.find((r: Row) => r.driver_id === second.id).truck_id).toBe(secondTruck);
    const planned = p.routes.flatMap((r: Row) => r.stops.map((s: Row) => s.job_id));
    expect(planned.sort()).toEqual([pinned, ...free].sort());
    expect(planned).not.toContain(rivalJob);
    for (const r of p.routes) {
      // km is home → every leg → home; minutes = driving at 40 km/h + 15 per delivery or pickup + 20 per station visit; slack = 600 − minutes.
      const km = r.stops.length ? tour([r.home_lot, ...r.stops.flatMap((s: Row) => s.legs), r.home_lot]) : 0;
      expect(r.km).toBeCloseTo(km, 3);
      const stations = r.stops.flatMap((s: Row) => s.legs).filter((l: Row) => l.kind === 'station').length;
      expect(r.service_minutes).toBe(15 * r.stops.length + 20 * stations);
      expect(r.driving_minutes).toBeCloseTo((km / 40) * 60, 1);
      expect(r.minutes).toBeCloseTo(r.driving_minutes + r.service_minutes, 1);
      expect(r.slack_minutes).toBeCloseTo(600 - r.minutes, 1);
      expect(r.stops.map((s: Row) => s.sequence)).toEqual(r.stops.map((_: Row, k: number) => k + 1));
    }
    expect(p.distance_after_km).toBeCloseTo(p.routes.reduce((s: number, r: Row) => s + r.km, 0), 2);
    // Before: the only assigned job, from the home lot and back.
    const c = await job(pinned);
    expect(p.distance_before_km).toBeCloseTo(tour([mine.home_lot, { lat: 40, lng: -89 }, { lat: c.order.address.latitude, lng: c.order.address.longitude }, mine.home_lot]), 3);
    expect(p.moves).toBe(free.length + (mine.stops.find((s: Row) => s.job_id === pinned).sequence === 1 ? 0 : 1));
    for (const id of free) expect(await job(id)).toMatchObject({ status: 'unassigned', driver_id: null });
    // The same day previews to the same plan.
    expect((await plan({ date: day }).expect(200)).body.data).toEqual(p);
  });

  it('applies exactly the previewed plan: every job assigned with its driver, truck and sequence, one event each', async () => {
    const preview = (await plan({ date: day }).expect(200)).body.data;
    const res = await plan({ date: day, apply: true, plan_id: preview.plan_id }).expect(200);
    expect(res.body.data).toEqual({ ...preview, applied: true });
    for (const r of preview.routes) {
      for (const s of r.stops) expect(await job(s.job_id)).toMatchObject({ status: 'assigned', driver_id: r.driver_id, truck_id: r.truck_id, sequence: s.sequence });
    }
    const events = await t.ds.query(`SELECT aggregate_id FROM outbox_events WHERE type = 'job.assigned' AND aggregate_id = ANY($1::uuid[])`, [free]);
    expect(events.map((e: Row) => e.aggregate_id).sort()).toEqual([...free].sort());
    // The deliveries reserved a container and scheduled their orders, as every assignment does.
    const delivery = await job(free[0]);
    expect(delivery.asset_id).not.toBeNull();
    expect(delivery.order.status).toBe('scheduled');
    // Planning the saved day again: every job is pinned where the plan put it, nothing moves.
    const again = (await plan({ date: day }).expect(200)).body.data;
    expect(again.moves).toBe(0);
    expect(again.distance_before_km).toBeCloseTo(preview.distance_after_km, 3);
    expect(again.routes.map((r: Row) => r.stops.map((s: Row) => s.job_id))).toEqual(preview.routes.map((r: Row) => r.stops.map((s: Row) => s.job_id)));
  });

  it('answers 409 PLAN_STALE and saves nothing when the day changed since the preview', async () => {
    const other = await approvedOrder(t, w, { delivery_date: day });
    const preview = (await plan({ date: day }).expect(200)).body.data;
    expect(preview.routes.flatMap((r: Row) => r.stops.map((s: Row) => s.job_id))).toContain(other.deliveryJobId);
    await t.req('put', `/api/v1/order/jobs/${other.deliveryJobId}`, { token: w.company.token, body: { notes: 'Gate code 4412' } }).expect(200);
    const res = await plan({ date: day, apply: true, plan_id: preview.plan_id }).expect(409);
    expect(res.body.code).toBe('PLAN_STALE');
    expect(await job(other.deliveryJobId)).toMatchObject({ status: 'unassigned', driver_id: null });
    // The preview with the stale id says the same; a fresh preview applies.
    expect((await plan({ date: day, plan_id: preview.plan_id }).expect(409)).body.code).toBe('PLAN_STALE');
    const fresh = (await plan({ date: day }).expect(200)).body.data;
    await plan({ date: day, apply: true, plan_id: fresh.plan_id }).expect(200);
    expect((await job(other.deliveryJobId)).status).toBe('assigned');
  });

  it('two concurrent applies of one preview: the row locks queue them, one saves and the other answers 409 PLAN_STALE', async () => {
    const other = await approvedOrder(t, w, { delivery_date: day });
    const preview = (await plan({ date: day }).expect(200)).body.data;
    const answers = await Promise.all([0, 1].map(() => plan({ date: day, apply: true, plan_id: preview.plan_id })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body.code).toBe('PLAN_STALE');
    const saved = await job(other.deliveryJobId);
    expect(saved.status).toBe('assigned');
    const assigned = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.assigned' AND aggregate_id = $1`, [other.deliveryJobId]);
    expect(assigned[0].n).toBe(1);
  });

  it('plans only the caller\'s company: the rival sees its own job and drivers, none of the world\'s', async () => {
    const p = (await plan({ date: day }, rival.company.token).expect(200)).body.data;
    const ids = JSON.stringify(p);
    expect(p.routes.map((r: Row) => r.driver_id)).toEqual([rival.driver.id]);
    expect(p.routes[0].stops.map((s: Row) => s.job_id)).toEqual([rivalJob]);
    for (const id of [w.driver.id, second.id, w.truckId, secondTruck, pinned, ...free]) expect(ids).not.toContain(id);
  });

  it('honours the container calendar in the preview: two deliveries, one container free → one planned, one no_container; apply saves the preview and pins that container', async () => {
    const cal = await dispatchWorld(t, { name: 'Calendar Co', assets: 1 });
    // The specification does not refuse holds, so both orders are approved; assignment still needs a free container to pin.
    await coPost(t, cal, `asset-specifications/${cal.specId}`, { check_availability: false }, 200, 'put');
    const ids = [(await approvedOrder(t, cal, { delivery_date: day })).deliveryJobId, (await approvedOrder(t, cal, { delivery_date: day })).deliveryJobId].sort();
    const calPlan = (body: Row) => plan(body, cal.company.token);
    const preview = (await calPlan({ date: day }).expect(200)).body.data;
    // The containers go to the jobs in id order: the first gets the one container, the second none.
    expect(preview.routes.flatMap((r: Row) => r.stops.map((s: Row) => s.job_id))).toEqual([ids[0]]);
    expect(preview.unassigned).toEqual([{ job_id: ids[1], reason: 'no_container' }]);
    const res = await calPlan({ date: day, apply: true, plan_id: preview.plan_id }).expect(200);
    expect(res.body.data).toEqual({ ...preview, applied: true });
    const jobOf = async (id: string) => (await t.req('get', `/api/v1/jobs/${id}`, { token: cal.company.token }).expect(200)).body.data;
    expect(await jobOf(ids[0])).toMatchObject({ status: 'assigned', driver_id: cal.driver.id, asset_id: cal.assetIds[0] });
    expect(await jobOf(ids[1])).toMatchObject({ status: 'unassigned', driver_id: null, asset_id: null });
    // The container is now pinned: planning again keeps the second job out for the same reason, nothing moves.
    const again = (await calPlan({ date: day }).expect(200)).body.data;
    expect(again.unassigned).toEqual([{ job_id: ids[1], reason: 'no_container' }]);
    expect(again.moves).toBe(0);
  });

  it('company users only: a customer or a driver is refused, no token 401', async () => {
    await plan({ date: day }, w.customer.token).expect(403);
    await plan({ date: day }, w.driver.token).expect(403);
    await t.req('post', '/api/v1/dispatch/plan', { body: { date: day } }).expect(401);
  });

  it.each([
    [{}, 'date'],
    [{ date: 'tomorrow' }, 'date'],
    [{ date: inDays(-1) }, 'date'],
    [{ date: day, plan_id: 'not-a-plan' }, 'plan_id'],
    [{ date: day, apply: 'yes' }, 'apply'],
    [{ date: day, driver_id: 'x' }, 'driver_id'],
  ])('bad input %j is 422 on %s', async (body, field) => {
    const res = await plan(body).expect(422);
    expect(res.body.errors[field]).toBeDefined();
  });

  it('is in the OpenAPI document as an extension with its request and response schemas', async () => {
    const doc = (await t.req('get', '/api/documentation-json').expect(200)).body;
    const op = doc.paths['/api/v1/dispatch/plan'].post;
    expect(op['x-access-code']).toBe('CO');
    expect(op.summary).toContain('extension, issue #26');
    expect(JSON.stringify(op.requestBody)).toContain('FleetPlanDto');
    expect(JSON.stringify(op.responses['200'])).toContain('FleetPlanResultDto');
    expect(Object.keys(doc.components.schemas.FleetPlanResultDto.properties).sort()).toEqual(['applied', 'date', 'distance_after_km', 'distance_before_km', 'drivers_left_out', 'exact', 'moves', 'plan_id', 'routes', 'unassigned']);
  });
});
