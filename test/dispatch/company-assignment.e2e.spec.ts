import { ABSENT_ID } from '../support/fixtures';
import { addAsset, addDriver, addTruck, approvedOrder, assignOrder, coPost, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

describe('Dispatch (company): assigning and reassigning drivers', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 24 }); // one container per open-ended order it places (the calendar refuses past that)
    rival = await dispatchWorld(t, { name: 'Rival Co', assets: 6 }); // one container per open-ended order it places (the calendar refuses past that)
  });
  afterAll(async () => t?.close());

  const co = (method: 'get' | 'post' | 'put', path: string, body?: unknown, token = w.company.token) => t.req(method, `/api/v1/${path}`, { token, body });
  const orderRow = async (id: string) => (await co('get', `order/${id}`).expect(200)).body.data;
  const assetRow = async (id: string) => (await co('get', `assets/${id}`).expect(200)).body.data;
  /** The driver asks for leave on `date` and the company approves it (the leaves module, over HTTP); returns the leave's id. */
  const approvedLeave = async (driver: { token: string }, date: string): Promise<string> => {
    const asked = await t.req('post', '/api/v1/driver/leave-requests', { token: driver.token, body: { type: 'annual', dates: [date], reason: 'Day off.' } }).expect(201);
    const approved = await t.req('post', `/api/v1/leave-requests/${asked.body.data.id}/approve-dates`, { token: w.company.token, body: { dates: [date] } }).expect(200);
    return approved.body.data.dates[0].leave_id;
  };

  describe('POST /driver/assign/{order}', () => {
    it('assigns the delivery first (asset reserved, order scheduled, history and event), then the pickup', async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(10) });
      const res = await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(200);
      const [job] = res.body.data.jobs as Row[];
      expect(job).toMatchObject({ id: o.deliveryJobId, type: 'delivery', status: 'assigned', driver_id: w.driver.id, truck_id: w.truckId, sequence: 1, scheduled_date: o.deliveryDate });
      expect(job.driver_name).toBe('A driver');
      expect(job.order).toMatchObject({ id: o.id, number: o.number, status: 'scheduled' });
      expect(w.assetIds).toContain(job.asset_id);
      expect((await assetRow(job.asset_id)).status).toBe('reserved');
      expect((await orderRow(o.id)).status).toBe('scheduled');
      const detail = (await co('get', `jobs/${job.id}`).expect(200)).body.data;
      expect(detail.status_history.map((h: Row) => [h.from, h.to])).toEqual([['unassigned', 'assigned']]);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.assigned' AND aggregate_id = $1`, [job.id]);
      expect(n).toBe(1);

      // The next call takes the pickup (no asset reserved for it); the order stays scheduled.
      const second = (await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(200)).body.data.jobs[0];
      expect(second).toMatchObject({ id: o.pickupJobId, type: 'pickup', status: 'assigned', asset_id: null });
      const third = await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(409);
      expect(third.body.code).toBe('NOTHING_TO_ASSIGN');
    });

    it('reserves the chosen asset, and answers 409 ASSET_UNAVAILABLE for one that is not free', async () => {
      const a = await approvedOrder(t, w);
      const b = await approvedOrder(t, w);
      const chosen = w.assetIds[2];
      const [job] = await assignOrder(t, w, a.id, { asset_id: chosen, sequence: 7 });
      expect(job).toMatchObject({ asset_id: chosen, sequence: 7 });
      const taken = await co('post', `driver/assign/${b.id}`, { driver_id: w.driver.id, truck_id: w.truckId, asset_id: chosen }).expect(409);
      expect(taken.body.code).toBe('ASSET_UNAVAILABLE');
      // Another company's asset is not found (422), never reserved.
      const foreign = await co('post', `driver/assign/${b.id}`, { driver_id: w.driver.id, truck_id: w.truckId, asset_id: rival.assetIds[0] }).expect(422);
      expect(foreign.body.errors).toEqual({ asset_id: ['not found'] });
      expect((await t.req('get', `/api/v1/assets/${rival.assetIds[0]}`, { token: rival.company.token }).expect(200)).body.data.status).toBe('available');
    });

    it('moves the job to another date (lot open, not in the past) and appends it to the driver\'s day', async () => {
      const o = await approvedOrder(t, w);
      const [job] = await assignOrder(t, w, o.id, { date: inDays(5) });
      expect(job.scheduled_date).toBe(inDays(5));
      const past = await approvedOrder(t, w);
      const res = await co('post', `driver/assign/${past.id}`, { driver_id: w.driver.id, truck_id: w.truckId, date: inDays(-1) }).expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['date']);
    });

    it('refuses an inactive driver or another company\'s (422 naming driver_id), a driver on leave (422 DRIVER_ON_LEAVE)', async () => {
      const o = await approvedOrder(t, w);
      const other = await addDriver(t, w);
      await co('post', `driver/${other.id}/deactivate`).expect(200);
      const inactive = await co('post', `driver/assign/${o.id}`, { driver_id: other.id, truck_id: w.truckId }).expect(422);
      expect(inactive.body.errors).toEqual({ driver_id: ['is inactive'] });
      const foreign = await co('post', `driver/assign/${o.id}`, { driver_id: rival.driver.id, truck_id: w.truckId }).expect(422);
      expect(foreign.body.errors).toEqual({ driver_id: ['not found'] });
      const away = await addDriver(t, w);
      await approvedLeave(away, inDays(3));
      const leave = await co('post', `driver/assign/${o.id}`, { driver_id: away.id, truck_id: w.truckId }).expect(422);
      expect(leave.body.code).toBe('DRIVER_ON_LEAVE');
      expect(leave.body.errors).toEqual({ driver_id: [`is on leave on ${inDays(3)}`] });
      // Nothing was kept: the delivery is still unassigned and no asset reserved.
      expect((await co('get', `jobs/${o.deliveryJobId}`).expect(200)).body.data).toMatchObject({ status: 'unassigned', asset_id: null });
    });

    it('refuses a truck that does not carry the specification, is in maintenance or is another company\'s (422 with the reason)', async () => {
      const o = await approvedOrder(t, w);
      const tipper = await coPost(t, w, 'truck-types', { name: 'Tipper', capacity_kg: 8000, asset_specification_ids: [w.otherSpecId] });
      const wrongType = await addTruck(t, w, tipper.id);
      const r1 = await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: wrongType }).expect(422);
      expect(r1.body.errors.truck_id[0]).toMatch(/Tipper.*does not carry/);
      const resting = await addTruck(t, w, w.truckTypeId, { status: 'maintenance' });
      const r2 = await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: resting }).expect(422);
      expect(r2.body.errors).toEqual({ truck_id: ['is in maintenance'] });
      const r3 = await co('post', `driver/assign/${o.id}`, { driver_id: w.driver.id, truck_id: rival.truckId }).expect(422);
      expect(r3.body.errors).toEqual({ truck_id: ['not found'] });
    });

    it('answers 404 for another company\'s order, 403 to customers and drivers, 422 for bad bodies', async () => {
      const mine = await approvedOrder(t, w);
      const theirs = await approvedOrder(t, rival);
      const body = { driver_id: w.driver.id, truck_id: w.truckId };
      expect((await co('post', `driver/assign/${theirs.id}`, body).expect(404)).body.code).toBe('NOT_FOUND');
      await co('post', `driver/assign/${ABSENT_ID}`, body).expect(404);
      await co('post', `driver/assign/${mine.id}`, body, w.customer.token).expect(403);
      await co('post', `driver/assign/${mine.id}`, body, w.driver.token).expect(403);
      const bad = await co('post', `driver/assign/${mine.id}`, { driver_id: 'nope', truck_id: w.truckId, sequence: 0, extra: 1 }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['driver_id', 'extra', 'sequence']);
      await co('post', `driver/assign/${mine.id}`, { truck_id: w.truckId }).expect(422);
    });

    it('answers 409 ORDER_STATE for a pending order', async () => {
      const pending = await placeOrder(t, w);
      expect((await co('post', `driver/assign/${pending.id}`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(409)).body.code).toBe('ORDER_STATE');
    });
  });

  describe('POST /order/jobs/{driverJob}/assign (extension, issue #25)', () => {
    it('assigns a pickup on its own (no asset reserved, the order stays approved), then the delivery (asset reserved, order scheduled)', async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(10) });
      const res = await co('post', `order/jobs/${o.pickupJobId}/assign`, { driver_id: w.driver.id, truck_id: w.truckId, sequence: 3 }).expect(200);
      const [pickup] = res.body.data.jobs as Row[];
      expect(pickup).toMatchObject({ id: o.pickupJobId, type: 'pickup', status: 'assigned', driver_id: w.driver.id, truck_id: w.truckId, sequence: 3, asset_id: null, scheduled_date: inDays(10) });
      expect((await orderRow(o.id)).status).toBe('approved');
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.assigned' AND aggregate_id = $1`, [o.pickupJobId]);
      expect(n).toBe(1);

      const [delivery] = (await co('post', `order/jobs/${o.deliveryJobId}/assign`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(200)).body.data.jobs as Row[];
      expect(delivery).toMatchObject({ id: o.deliveryJobId, type: 'delivery', status: 'assigned' });
      expect(w.assetIds).toContain(delivery.asset_id);
      expect((await assetRow(delivery.asset_id)).status).toBe('reserved');
      expect((await orderRow(o.id)).status).toBe('scheduled');
      // Assigned already: 409, with the routes that move it.
      const again = await co('post', `order/jobs/${o.pickupJobId}/assign`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(409);
      expect(again.body.code).toBe('INVALID_TRANSITION');
    });

    it('follows the assignment rules: leave, truck, date (422), a cancelled order (409 ORDER_STATE)', async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(12) });
      const other = await addDriver(t, w);
      await approvedLeave(other, inDays(12));
      const leave = await co('post', `order/jobs/${o.pickupJobId}/assign`, { driver_id: other.id, truck_id: w.truckId }).expect(422);
      expect(leave.body.code).toBe('DRIVER_ON_LEAVE');
      expect(Object.keys(leave.body.errors)).toEqual(['driver_id']);
      const foreignTruck = await co('post', `order/jobs/${o.pickupJobId}/assign`, { driver_id: w.driver.id, truck_id: rival.truckId }).expect(422);
      expect(foreignTruck.body.errors).toEqual({ truck_id: ['not found'] });
      const past = await co('post', `order/jobs/${o.pickupJobId}/assign`, { driver_id: w.driver.id, truck_id: w.truckId, date: inDays(-1) }).expect(422);
      expect(Object.keys(past.body.errors)).toEqual(['date']);
      // A cancelled order's jobs are not assignable.
      const cancelled = await approvedOrder(t, w);
      await t.req('post', `/api/v1/customer/order/${cancelled.id}/cancel`, { token: w.customer.token, body: {} }).expect(200);
      expect((await co('post', `order/jobs/${cancelled.deliveryJobId}/assign`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(409)).body.code).toBe('ORDER_STATE');
    });

    it("answers 404 for another company's job or an absent one, 403 to customers and drivers, 422 for bad bodies", async () => {
      const mine = await approvedOrder(t, w);
      const theirs = await approvedOrder(t, rival);
      const body = { driver_id: w.driver.id, truck_id: w.truckId };
      expect((await co('post', `order/jobs/${theirs.deliveryJobId}/assign`, body).expect(404)).body.code).toBe('NOT_FOUND');
      await co('post', `order/jobs/${ABSENT_ID}/assign`, body).expect(404);
      await co('post', `order/jobs/not-a-uuid/assign`, body).expect(404);
      await co('post', `order/jobs/${mine.deliveryJobId}/assign`, body, w.customer.token).expect(403);
      await co('post', `order/jobs/${mine.deliveryJobId}/assign`, body, w.driver.token).expect(403);
      const bad = await co('post', `order/jobs/${mine.deliveryJobId}/assign`, { driver_id: 'nope', truck_id: w.truckId, sequence: 0, extra: 1 }).expect(422);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(bad.body.errors).sort()).toEqual(['driver_id', 'extra', 'sequence']);
      // Nothing was assigned by the refused calls; the rival's job is untouched.
      const theirJob = (await t.req('get', `/api/v1/jobs/${theirs.deliveryJobId}`, { token: rival.company.token }).expect(200)).body.data;
      expect(theirJob.status).toBe('unassigned');
    });
  });

  describe('POST /driver/reassign/{order} and POST /multi/reassign', () => {
    it("moves the order's assigned jobs to another driver and truck, keeping the asset", async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(10) });
      const [delivery] = await assignOrder(t, w, o.id);
      await assignOrder(t, w, o.id);
      const other = await addDriver(t, w);
      const truck2 = await addTruck(t, w, w.truckTypeId);
      const res = await co('post', `driver/reassign/${o.id}`, { driver_id: other.id, truck_id: truck2 }).expect(200);
      const jobs = res.body.data.jobs as Row[];
      expect(jobs.map((j) => [j.type, j.driver_id, j.truck_id, j.status])).toEqual([
        ['delivery', other.id, truck2, 'assigned'],
        ['pickup', other.id, truck2, 'assigned'],
      ]);
      expect(jobs[0].asset_id).toBe(delivery.asset_id);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.reassigned' AND aggregate_id = $1`, [delivery.id]);
      expect(n).toBe(1);
    });

    it('moves only the listed jobs (assigning an unassigned one) and checks they are the order\'s', async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(10) });
      await assignOrder(t, w, o.id);
      const other = await addDriver(t, w);
      const res = await co('post', `driver/reassign/${o.id}`, { driver_id: other.id, truck_id: w.truckId, job_ids: [o.pickupJobId] }).expect(200);
      expect(res.body.data.jobs).toEqual([expect.objectContaining({ id: o.pickupJobId, status: 'assigned', driver_id: other.id })]);
      const elsewhere = await approvedOrder(t, w);
      const bad = await co('post', `driver/reassign/${o.id}`, { driver_id: other.id, job_ids: [elsewhere.deliveryJobId, ABSENT_ID] }).expect(422);
      expect(bad.body.errors).toEqual({ 'job_ids.0': ['is not a job of this order'], 'job_ids.1': ['not found'] });
      const none = await approvedOrder(t, w);
      expect((await co('post', `driver/reassign/${none.id}`, { driver_id: other.id }).expect(409)).body.code).toBe('NOTHING_TO_REASSIGN');
      const theirs = await approvedOrder(t, rival);
      await co('post', `driver/reassign/${theirs.id}`, { driver_id: other.id }).expect(404);
      await co('post', `driver/reassign/${o.id}`, { driver_id: other.id }, w.driver.token).expect(403);
    });

    it("moves a driver's assigned jobs of a day to another driver, all or nothing", async () => {
      const from = await addDriver(t, w);
      const to = await addDriver(t, w);
      const date = inDays(4);
      const a = await approvedOrder(t, w, { delivery_date: date });
      const b = await approvedOrder(t, w, { delivery_date: date });
      await assignOrder(t, w, a.id, { driver_id: from.id });
      await assignOrder(t, w, b.id, { driver_id: from.id });
      // The target is on leave that day: nothing moves.
      const leaveId = await approvedLeave(to, date);
      expect((await co('post', 'multi/reassign', { from_driver_id: from.id, date, driver_id: to.id }).expect(422)).body.code).toBe('DRIVER_ON_LEAVE');
      const still = (await co('get', `jobs?driver_id=${from.id}`).expect(200)).body.data as Row[];
      expect(still.map((j) => j.id).sort()).toEqual([a.deliveryJobId, b.deliveryJobId].sort());
      await co('post', `leaves/${leaveId}/cancel`, {}).expect(200);
      const res = await co('post', 'multi/reassign', { from_driver_id: from.id, date, driver_id: to.id }).expect(200);
      expect((res.body.data.jobs as Row[]).map((j) => [j.id, j.driver_id, j.sequence])).toEqual([
        [a.deliveryJobId, to.id, 1],
        [b.deliveryJobId, to.id, 2],
      ]);
      expect((await co('get', `jobs?driver_id=${from.id}`).expect(200)).body.data).toEqual([]);
    });

    it('moves listed jobs; refuses bad combinations and another company\'s ids (422)', async () => {
      const to = await addDriver(t, w);
      const a = await approvedOrder(t, w);
      const res = await co('post', 'multi/reassign', { job_ids: [a.deliveryJobId], driver_id: to.id, truck_id: w.truckId }).expect(200);
      expect(res.body.data.jobs[0]).toMatchObject({ status: 'assigned', driver_id: to.id });
      expect((await co('post', 'multi/reassign', { driver_id: to.id }).expect(422)).body.errors).toHaveProperty('job_ids');
      expect((await co('post', 'multi/reassign', { from_driver_id: to.id, driver_id: to.id }).expect(422)).body.errors).toHaveProperty('date');
      expect((await co('post', 'multi/reassign', { from_driver_id: to.id, date: inDays(1), job_ids: [a.deliveryJobId], driver_id: to.id }).expect(422)).body.errors).toHaveProperty('job_ids');
      const theirs = await approvedOrder(t, rival);
      expect((await co('post', 'multi/reassign', { job_ids: [theirs.deliveryJobId], driver_id: to.id, truck_id: w.truckId }).expect(422)).body.errors).toEqual({ 'job_ids.0': ['not found'] });
      expect((await co('post', 'multi/reassign', { from_driver_id: rival.driver.id, date: inDays(3), driver_id: to.id }).expect(422)).body.errors).toEqual({ from_driver_id: ['not found'] });
      expect((await co('post', 'multi/reassign', { job_ids: [a.deliveryJobId], driver_id: rival.driver.id }).expect(422)).body.errors).toEqual({ driver_id: ['not found'] });
      await co('post', 'multi/reassign', { job_ids: [a.deliveryJobId], driver_id: to.id }, w.customer.token).expect(403);
      // The asset of the first assignment is still the job's (reassignment keeps it).
      expect((await co('get', `jobs/${a.deliveryJobId}`).expect(200)).body.data.asset_id).not.toBeNull();
      void addAsset;
    });
  });
});
