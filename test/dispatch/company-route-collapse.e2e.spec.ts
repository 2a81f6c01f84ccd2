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
    w = await dispatchWorld(t, { assets: 12 });
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
    expect(Object.keys(plan).sort()).toEqual(['date', 'distance_after_km', 'distance_before_km', 'driver_id', 'home_lot', 'merged', 'moves', 'plan_id', 'stops']);
    expect(plan.plan_id).toMatch(/^[0-9a-f]{32}$/);
    // Saving it changes two jobs: the delivery becomes a swap and the pickup is merged into it. With one lot both
    // orders of the two stops are as short, so the current one stays: the far delivery keeps its sequence.
    expect(plan.moves).toBe(2);
    expect(plan.stops.map((s: Row) => s.job_id)).toEqual([far, delivery]);
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

  describe('plan ids (issue #25)', () => {
    const later = inDays(11);
    let driver: { id: string };
    let ids: string[]; // the day's three deliveries, in the poor order they were assigned in
    const preview = async (extra: Record<string, unknown> = {}) => (await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, apply: false, ...extra }).expect(200)).body.data;
    const updates = async () => Number((await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.updated' AND aggregate_id = ANY($1::uuid[])`, [ids]))[0].n);
    const sequences = async () => Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await job(id)).sequence])));
    /** Puts the first job last, so that the day is no longer in its best order. */
    const spoil = async () => {
      await co(`order/jobs/${ids[0]}`, { sequence: 50 }).expect(200);
      ids = [...ids.slice(1), ids[0]];
    };

    beforeAll(async () => {
      driver = await addDriver(t, w);
      const address = async (line1: string, latitude: number, longitude: number) =>
        (await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1, city: 'Springfield', latitude, longitude } }).expect(201)).body.data.id;
      // Along a line east of the lot, assigned far, near, middle.
      const sites = [await address('30 East Rd', 40, -88.7), await address('10 East Rd', 40, -88.9), await address('20 East Rd', 40, -88.8)];
      // A second yard out east: the far and middle containers come from it (they are based there, and the
      // container calendar pins them on these deliveries), so the order of the stops matters (from one lot,
      // deliveries tie in every order).
      const east = (await t.req('post', '/api/v1/lot/create', { token: w.company.token, body: { name: 'East yard', latitude: 40, longitude: -88.75 } }).expect(201)).body.data.id;
      const eastBoxes: (string | undefined)[] = [];
      for (const code of ['RO20-E01', 'RO20-E02']) eastBoxes.push((await t.req('post', '/api/v1/assets', { token: w.company.token, body: { code, asset_specification_id: w.specId, home_lot_id: east } }).expect(201)).body.data.id);
      const containers = [eastBoxes[0], undefined, eastBoxes[1]];
      ids = [];
      for (const [k, address_id] of sites.entries()) {
        const o = await approvedOrder(t, w, { delivery_date: later, address_id });
        await assignOrder(t, w, o.id, { driver_id: driver.id, sequence: k + 1, ...(containers[k] ? { asset_id: containers[k] } : {}) });
        ids.push(o.deliveryJobId);
      }
    });

    it('a preview has a plan id, the same while nothing changes; apply with it saves exactly that plan', async () => {
      const first = await preview();
      expect(await preview()).toEqual(first);
      expect(first.moves).toBeGreaterThan(0);
      const before = await updates();
      const saved = (await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id: first.plan_id }).expect(200)).body.data;
      expect(saved).toEqual(first);
      expect(await sequences()).toEqual(Object.fromEntries(first.stops.map((s: Row) => [s.job_id, s.sequence])));
      expect((await updates()) - before).toBe(first.moves);

      // Planning the saved day again changes nothing: the same sequence, no moves, and a plan id that stays while nothing changes.
      const again = await preview();
      expect(again.stops.map((s: Row) => s.job_id)).toEqual(first.stops.map((s: Row) => s.job_id));
      expect(again).toMatchObject({ moves: 0, merged: [], distance_before_km: first.distance_after_km, distance_after_km: first.distance_after_km });
      expect(again.plan_id).not.toBe(first.plan_id); // the sequences were saved: the day changed
      expect((await preview()).plan_id).toBe(again.plan_id);
      // Applying a plan of no moves saves nothing, so its id stays valid.
      expect((await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id: again.plan_id }).expect(200)).body.data).toEqual(again);
      expect(await updates()).toBe(before + first.moves);
      expect((await preview()).plan_id).toBe(again.plan_id);
      // The first plan was applied: its id is stale now.
      const stale = await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id: first.plan_id }).expect(409);
      expect(stale.body).toMatchObject({ success: false, code: 'PLAN_STALE' });
      expect(stale.body.message).toContain(first.plan_id);
    });

    it('apply with a plan id after a job of the day changed answers 409 PLAN_STALE and saves nothing', async () => {
      await spoil();
      const plan = await preview();
      expect(plan.moves).toBeGreaterThan(0);
      // Another edit of one of the day's jobs (its notes only) after the preview.
      await co(`order/jobs/${ids[1]}`, { notes: 'Gate code 4321' }).expect(200);
      const [seqs, events] = [await sequences(), await updates()];
      const res = await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id: plan.plan_id }).expect(409);
      expect(res.body).toMatchObject({ success: false, code: 'PLAN_STALE' });
      expect(await sequences()).toEqual(seqs);
      expect(await updates()).toBe(events);
      // A preview naming a stale plan says so too; a fresh preview's id saves.
      expect((await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, apply: false, plan_id: plan.plan_id }).expect(409)).body.code).toBe('PLAN_STALE');
      const fresh = await preview();
      expect(fresh.plan_id).not.toBe(plan.plan_id);
      expect(fresh.stops).toEqual(plan.stops);
      await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id: fresh.plan_id }).expect(200);
      expect((await preview()).moves).toBe(0);
    });

    it('two concurrent applies of one plan id: exactly one saves, the other answers 409 PLAN_STALE', async () => {
      await spoil();
      const plan = await preview();
      expect(plan.moves).toBeGreaterThan(0);
      const events = await updates();
      const res = await Promise.all([1, 2].map(() => co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id: plan.plan_id })));
      expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(res.find((r) => r.status === 409)!.body.code).toBe('PLAN_STALE');
      expect(res.find((r) => r.status === 200)!.body.data).toEqual(plan);
      expect((await updates()) - events).toBe(plan.moves);
      expect(await sequences()).toEqual(Object.fromEntries(plan.stops.map((s: Row) => [s.job_id, s.sequence])));
    });

    it('refuses a malformed plan id (422); without one the seed\'s body still applies the plan of the day as it stands', async () => {
      for (const plan_id of ['x', 'ABCDEF0123456789ABCDEF0123456789', 42, null]) {
        const bad = await co('order/jobs/route-collapse', { driver_id: driver.id, date: later, plan_id }).expect(422);
        expect(Object.keys(bad.body.errors)).toEqual(['plan_id']);
      }
      await spoil();
      const plan = await preview();
      expect((await co('order/jobs/route-collapse', { driver_id: driver.id, date: later }).expect(200)).body.data).toEqual(plan);
      expect((await preview()).moves).toBe(0);
    });
  });
});
