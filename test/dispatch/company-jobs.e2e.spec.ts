import { ABSENT_ID } from '../support/fixtures';
import { addDriver, approvedOrder, assignOrder, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

describe('Dispatch (company): the job lists, the tree and job edits', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { assets: 12 });
    rival = await dispatchWorld(t, { name: 'Rival Co', assets: 8 }); // one container per open-ended order it places (the calendar refuses past that)
  });
  afterAll(async () => t?.close());

  const co = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown, token = w.company.token) => t.req(method, `/api/v1/${path}`, { token, body });
  const lines = async (orderId: string) => ((await co('get', `order/${orderId}`).expect(200)).body.data.lines as Row[]).map((l) => l.kind);

  describe('GET /jobs, GET /order/jobs/all, GET /jobs/{driverJob}', () => {
    it('lists the company\'s jobs with filters, sorts and their orders, never another company\'s', async () => {
      const o = await approvedOrder(t, w, { delivery_date: inDays(6), pickup_date: inDays(12) });
      await approvedOrder(t, rival, { delivery_date: inDays(6) });
      const all = (await co('get', `jobs?order_id=${o.id}`).expect(200)).body;
      expect(all.data.map((j: Row) => j.type)).toEqual(['delivery', 'pickup']);
      expect(all.data[0].order).toMatchObject({ id: o.id, number: o.number, address: expect.objectContaining({ line1: '1 Site Rd', latitude: 40.18 }) });
      expect(all.meta).toMatchObject({ page: 1, total: 2 });
      const flat = (await co('get', `order/jobs/all?order_id=${o.id}&type=pickup`).expect(200)).body.data;
      expect(flat.map((j: Row) => j.id)).toEqual([o.pickupJobId]);
      const dated = (await co('get', `jobs?from=${inDays(12)}&to=${inDays(12)}&status=unassigned`).expect(200)).body.data as Row[];
      expect(dated.map((j) => j.id)).toContain(o.pickupJobId);
      expect(dated.every((j) => j.scheduled_date === inDays(12))).toBe(true);
      const desc = (await co('get', 'jobs?sort=-created_at&per_page=100').expect(200)).body.data as Row[];
      expect(desc.map((j) => j.created_at)).toEqual([...desc.map((j) => j.created_at)].sort().reverse());
      const theirs = (await t.req('get', '/api/v1/jobs?per_page=100', { token: rival.company.token }).expect(200)).body.data as Row[];
      expect(theirs.some((j) => j.order_id === o.id)).toBe(false);
      expect((await co('get', 'jobs?sort=driver').expect(422)).body.errors).toHaveProperty('sort');
      await co('get', 'jobs?status=done').expect(422);
      await co('get', 'jobs?from=2027-02-30').expect(422);
      await co('get', 'jobs', undefined, w.driver.token).expect(403);
      await co('get', 'order/jobs/all', undefined, w.customer.token).expect(403);
    });

    it('shows one job with its order and names, history and counts; 404 for another company\'s', async () => {
      const o = await approvedOrder(t, w);
      await assignOrder(t, w, o.id);
      for (const path of [`jobs/${o.deliveryJobId}`, `order/jobs/${o.deliveryJobId}`]) {
        const d = (await co('get', path).expect(200)).body.data;
        expect(d).toMatchObject({ id: o.deliveryJobId, status: 'assigned', evidence_count: 0, issue_count: 0, open_blocking_issue_count: 0, merged_job_ids: [] });
        expect(d.order).toMatchObject({ id: o.id, customer_name: 'A customer', specification_name: '20 yd roll-off', waste_type_name: 'General debris' });
        expect(d.status_history).toEqual([expect.objectContaining({ from: 'unassigned', to: 'assigned', actor_type: 'company', driver_id: w.driver.id })]);
      }
      const theirs = await approvedOrder(t, rival);
      expect((await co('get', `jobs/${theirs.deliveryJobId}`).expect(404)).body.code).toBe('NOT_FOUND');
      await co('get', `order/jobs/${theirs.deliveryJobId}`).expect(404);
      await co('get', `jobs/${ABSENT_ID}`).expect(404);
      await co('get', 'jobs/not-a-uuid').expect(404);
      await co('get', `jobs/${o.deliveryJobId}`, undefined, w.driver.token).expect(403);
    });
  });

  describe('GET /order/jobs (tree)', () => {
    it('groups a range by date, then driver (unassigned first), jobs in sequence', async () => {
      const day = inDays(20);
      const other = await addDriver(t, w);
      const a = await approvedOrder(t, w, { delivery_date: day });
      const b = await approvedOrder(t, w, { delivery_date: day });
      const c = await approvedOrder(t, w, { delivery_date: day });
      const d = await approvedOrder(t, w, { delivery_date: inDays(21) });
      await assignOrder(t, w, a.id, { driver_id: other.id, sequence: 2 });
      await assignOrder(t, w, b.id, { driver_id: other.id, sequence: 1 });
      const tree = (await co('get', `order/jobs?from=${day}&to=${inDays(21)}`).expect(200)).body.data as Row[];
      expect(tree.map((x) => x.date)).toEqual([day, inDays(21)]);
      const [first] = tree;
      expect(first.drivers[0]).toMatchObject({ driver_id: null, driver_name: null });
      expect(first.drivers[0].jobs.map((j: Row) => j.id)).toEqual([c.deliveryJobId]);
      const mine = first.drivers.find((g: Row) => g.driver_id === other.id);
      expect(mine.jobs.map((j: Row) => [j.id, j.sequence])).toEqual([
        [b.deliveryJobId, 1],
        [a.deliveryJobId, 2],
      ]);
      expect(tree[1].drivers[0].jobs.map((j: Row) => j.id)).toEqual([d.deliveryJobId]);
      const single = (await co('get', `order/jobs?date=${day}&driver_id=${other.id}`).expect(200)).body.data as Row[];
      expect(single).toHaveLength(1);
      expect(single[0].drivers.map((g: Row) => g.driver_id)).toEqual([other.id]);
      expect((await co('get', 'order/jobs').expect(200)).body.data).toEqual(expect.any(Array));
      expect((await co('get', `order/jobs?from=${inDays(1)}&to=${inDays(40)}`).expect(422)).body.errors).toHaveProperty('to');
      expect((await co('get', `order/jobs?from=${inDays(5)}&to=${inDays(1)}`).expect(422)).body.errors).toHaveProperty('to');
      expect((await co('get', `order/jobs?date=${day}&from=${day}`).expect(422)).body.errors).toHaveProperty('date');
      const theirs = (await t.req('get', `/api/v1/order/jobs?date=${day}`, { token: rival.company.token }).expect(200)).body.data;
      expect(theirs).toEqual([]);
      await co('get', 'order/jobs', undefined, w.customer.token).expect(403);
    });
  });

  describe('POST /order/jobs', () => {
    it('adds a swap with its fee line, a relocation to another address of the customer, an extra pickup without fee', async () => {
      const o = await approvedOrder(t, w, { delivery_date: inDays(3) });
      const swap = await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(5), notes: 'Side gate' }).expect(201);
      expect(swap.body.data).toMatchObject({ type: 'swap', status: 'unassigned', scheduled_date: inDays(5), notes: 'Side gate', lot_id: w.lotId, order: expect.objectContaining({ id: o.id }) });
      // The world's price book: swap fee 12000 + 8.25 % tax = 12990, as a line on the order.
      expect(swap.body.data.fee_amount).toBe(12990);
      expect(await lines(o.id)).toContain('swap_fee');
      const other = await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1: '9 New Rd', city: 'Springfield', latitude: 40.2, longitude: -89.1 } }).expect(201);
      const move = await co('post', 'order/jobs', { order_id: o.id, type: 'relocate', date: inDays(6), destination_address_id: other.body.data.id }).expect(201);
      expect(move.body.data).toMatchObject({ type: 'relocate', destination_address_id: other.body.data.id, fee_amount: 8660 });
      const pickup = await co('post', 'order/jobs', { order_id: o.id, type: 'pickup', date: inDays(7), charge_fee: false }).expect(201);
      expect(pickup.body.data.fee_amount).toBe(0);
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.created' AND aggregate_id = $1`, [swap.body.data.id]);
      expect(n).toBe(1);
    });

    it('refuses bad input (422), another company\'s order or address (422), a closed order (409)', async () => {
      const o = await approvedOrder(t, w);
      const bad = await co('post', 'order/jobs', { order_id: o.id, type: 'teleport', date: 'tomorrow', extra: true }).expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['date', 'extra', 'type']);
      expect((await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(-1) }).expect(422)).body.errors).toHaveProperty('date');
      expect((await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(2) }).expect(422)).body.errors.date[0]).toMatch(/delivery date/);
      expect((await co('post', 'order/jobs', { order_id: o.id, type: 'relocate', date: inDays(5) }).expect(422)).body.errors).toHaveProperty('destination_address_id');
      expect((await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(5), destination_address_id: w.addressId }).expect(422)).body.errors).toHaveProperty('destination_address_id');
      expect((await co('post', 'order/jobs', { order_id: o.id, type: 'relocate', date: inDays(5), destination_address_id: rival.addressId }).expect(422)).body.errors).toEqual({ destination_address_id: ['not found'] });
      const theirs = await approvedOrder(t, rival);
      expect((await co('post', 'order/jobs', { order_id: theirs.id, type: 'swap', date: inDays(5) }).expect(422)).body.errors).toEqual({ order_id: ['not found'] });
      await t.req('post', `/api/v1/customer/order/${o.id}/cancel`, { token: w.customer.token, body: {} }).expect(200);
      expect((await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(5) }).expect(409)).body.code).toBe('ORDER_STATE');
      await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(5) }, w.driver.token).expect(403);
    });
  });

  describe('PUT /order/jobs/{driverJob}, PUT /order/jobs/bulk', () => {
    it('assigns through a driver, changes date, sequence and notes; a job in progress keeps its driver', async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(10) });
      const res = await co('put', `order/jobs/${o.deliveryJobId}`, { driver_id: w.driver.id, truck_id: w.truckId, notes: 'Ring twice' }).expect(200);
      expect(res.body.data).toMatchObject({ status: 'assigned', driver_id: w.driver.id, notes: 'Ring twice' });
      expect(res.body.data.asset_id).not.toBeNull();
      expect(res.body.data.order.status).toBe('scheduled');
      const moved = await co('put', `order/jobs/${o.pickupJobId}`, { date: inDays(11), sequence: 4, notes: null }).expect(200);
      expect(moved.body.data).toMatchObject({ scheduled_date: inDays(11), sequence: 4, notes: null, status: 'unassigned' });
      expect((await co('put', `order/jobs/${o.pickupJobId}`, { driver_id: w.driver.id }).expect(422)).body.errors).toEqual({ truck_id: ['is required to assign the job'] });
      await t.ds.query(`UPDATE jobs SET status = 'in_progress' WHERE id = $1`, [o.deliveryJobId]);
      const other = await addDriver(t, w);
      expect((await co('put', `order/jobs/${o.deliveryJobId}`, { driver_id: other.id }).expect(409)).body.code).toBe('INVALID_TRANSITION');
      await co('put', `order/jobs/${o.deliveryJobId}`, { sequence: 9 }).expect(200);
      const theirs = await approvedOrder(t, rival);
      await co('put', `order/jobs/${theirs.deliveryJobId}`, { notes: 'x' }).expect(404);
      expect((await co('put', `order/jobs/${o.pickupJobId}`, { driver_id: rival.driver.id, truck_id: w.truckId }).expect(422)).body.errors).toEqual({ driver_id: ['not found'] });
      expect((await co('put', `order/jobs/${o.pickupJobId}`, { sequence: -1, color: 'red' }).expect(422)).body.errors).toHaveProperty('sequence');
      await co('put', `order/jobs/${o.pickupJobId}`, { notes: 'x' }, w.customer.token).expect(403);
    });

    it('updates many jobs all or nothing, naming the failing item', async () => {
      const day = inDays(8);
      const a = await approvedOrder(t, w, { delivery_date: day });
      const b = await approvedOrder(t, w, { delivery_date: day });
      const other = await addDriver(t, w);
      const ok = await co('put', 'order/jobs/bulk', {
        items: [
          { job_id: a.deliveryJobId, driver_id: other.id, truck_id: w.truckId, sequence: 2 },
          { job_id: b.deliveryJobId, driver_id: other.id, truck_id: w.truckId, sequence: 1 },
        ],
      }).expect(200);
      expect((ok.body.data as Row[]).map((j) => [j.id, j.status, j.sequence])).toEqual([
        [a.deliveryJobId, 'assigned', 2],
        [b.deliveryJobId, 'assigned', 1],
      ]);
      const c = await approvedOrder(t, w, { delivery_date: day });
      const failed = await co('put', 'order/jobs/bulk', {
        items: [
          { job_id: c.deliveryJobId, driver_id: other.id, truck_id: w.truckId },
          { job_id: a.deliveryJobId, date: inDays(-2) },
        ],
      }).expect(422);
      expect(failed.body.errors).toEqual({ 'items.1.date': [expect.stringMatching(/past/)] });
      expect((await co('get', `jobs/${c.deliveryJobId}`).expect(200)).body.data).toMatchObject({ status: 'unassigned', asset_id: null });
      expect((await co('put', 'order/jobs/bulk', { items: [{ job_id: a.deliveryJobId }, { job_id: a.deliveryJobId }] }).expect(422)).body.errors).toHaveProperty(['items.1.job_id']);
      const theirs = await approvedOrder(t, rival);
      expect((await co('put', 'order/jobs/bulk', { items: [{ job_id: theirs.deliveryJobId, notes: 'x' }] }).expect(422)).body.errors).toEqual({ 'items.0.job_id': ['not found'] });
      expect((await co('put', 'order/jobs/bulk', { items: [] }).expect(422)).body.errors).toHaveProperty('items');
      await co('put', 'order/jobs/bulk', { items: 'nope' }).expect(422);
      await co('put', 'order/jobs/bulk', { items: [] }, w.driver.token).expect(403);
    });
  });

  describe('DELETE /order/jobs/{driverJob}, POST /order/jobs/{driverJob}/abort', () => {
    it('deletes an unassigned extra job, refuses the order\'s only delivery or pickup and assigned jobs', async () => {
      const o = await approvedOrder(t, w, { pickup_date: inDays(10) });
      expect((await co('delete', `order/jobs/${o.deliveryJobId}`).expect(409)).body.code).toBe('JOB_NOT_DELETABLE');
      expect((await co('delete', `order/jobs/${o.pickupJobId}`).expect(409)).body.code).toBe('JOB_NOT_DELETABLE');
      const extra = (await co('post', 'order/jobs', { order_id: o.id, type: 'pickup', date: inDays(9) }).expect(201)).body.data;
      const del = await co('delete', `order/jobs/${extra.id}`).expect(200);
      expect(del.body).toMatchObject({ data: null, message: 'Job deleted.' });
      await co('get', `jobs/${extra.id}`).expect(404);
      await assignOrder(t, w, o.id);
      const swap = (await co('post', 'order/jobs', { order_id: o.id, type: 'swap', date: inDays(6) }).expect(201)).body.data;
      await co('put', `order/jobs/${swap.id}`, { driver_id: w.driver.id, truck_id: w.truckId }).expect(200);
      expect((await co('delete', `order/jobs/${swap.id}`).expect(409)).body.message).toMatch(/unassigned/);
      const theirs = await approvedOrder(t, rival);
      await co('delete', `order/jobs/${theirs.deliveryJobId}`).expect(404);
      await co('delete', `order/jobs/${o.pickupJobId}`, undefined, w.driver.token).expect(403);
    });

    it('aborts a job (asset released, history), and only once', async () => {
      const o = await approvedOrder(t, w);
      const [job] = await assignOrder(t, w, o.id);
      const res = await co('post', `order/jobs/${job.id}/abort`, { reason: 'Customer not on site' }).expect(200);
      expect(res.body.data).toMatchObject({ status: 'aborted', abort_reason: 'Customer not on site', fee_amount: 0 });
      expect((await co('get', `assets/${job.asset_id}`).expect(200)).body.data.status).toBe('available');
      const detail = (await co('get', `jobs/${job.id}`).expect(200)).body.data;
      expect(detail.status_history.map((h: Row) => h.to)).toEqual(['assigned', 'aborted']);
      expect(await lines(o.id)).not.toContain('wasted_trip_fee');
      // With the wasted-trip fee: 10000 + 8.25 % tax, as a line on the order.
      const o2 = await approvedOrder(t, w);
      const charged = await co('post', `order/jobs/${o2.deliveryJobId}/abort`, { reason: 'Gate locked', wasted_trip_fee: true }).expect(200);
      expect(charged.body.data).toMatchObject({ status: 'aborted', fee_amount: 10825 });
      expect(await lines(o2.id)).toContain('wasted_trip_fee');
      expect((await co('post', `order/jobs/${job.id}/abort`, { reason: 'again' }).expect(409)).body.code).toBe('INVALID_TRANSITION');
      expect((await co('post', `order/jobs/${job.id}/abort`, {}).expect(422)).body.errors).toHaveProperty('reason');
      const theirs = await approvedOrder(t, rival);
      await co('post', `order/jobs/${theirs.deliveryJobId}/abort`, { reason: 'x' }).expect(404);
      await co('post', `order/jobs/${theirs.deliveryJobId}/abort`, { reason: 'x' }, w.customer.token).expect(403);
    });
  });
});
