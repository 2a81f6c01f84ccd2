import { approvedOrder, assignOrder, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/**
 * A driver's whole day through HTTP only (issue #11's acceptance story): two approved orders are
 * assigned (→ scheduled); the driver checks in, delivers the first with a photo (asset on site, order
 * delivered), takes a break (job actions refused meanwhile), meets a blocking issue on the second
 * delivery that the company resolves, picks the first container up, weighs it at a station over the
 * allowance (final bill with the overage, order completed, container back at the lot), and checks
 * out; the worked minutes leave the break out.
 *
 * The server runs in this process, so the test moves its clock (only `Date`: timers, I/O and the
 * database are untouched) through the day instead of waiting: the company's time zone is UTC and the
 * day starts at 06:00 of the real date, so every step stays on the same work date.
 */
describe('A driver\'s day over HTTP', () => {
  let t: TestApp;
  let w: DispatchWorld;
  const today = new Date().toISOString().slice(0, 10);
  const at = (hhmm: string) => jest.setSystemTime(new Date(`${today}T${hhmm}:00.000Z`));

  beforeAll(async () => {
    jest.useFakeTimers({
      now: new Date(`${today}T05:00:00.000Z`),
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    t = await startTestApp();
    // Same-day service: orders may be delivered (and picked up) today.
    w = await dispatchWorld(t, { name: 'Day Hauling', assets: 2, settings: { order_lead_time_days: 0 } });
  });
  afterAll(async () => {
    await t?.close();
    jest.useRealTimers();
  });

  const as = (token: string) => (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token, body });

  it('assigns, checks in, delivers, is blocked and unblocked, weighs a pickup with overage, completes the order and checks out', async () => {
    const company = as(w.company.token);
    const driver = as(w.driver.token);
    const customer = as(w.customer.token);
    const orderOf = async (id: string) => (await company('get', `order/${id}`).expect(200)).body.data as Row;
    const assetOf = async (id: string) => (await company('get', `assets/${id}`).expect(200)).body.data as Row;

    // 1. Two approved orders for today: A is delivered and picked up today, B only delivered.
    const a = await approvedOrder(t, w, { delivery_date: today, pickup_date: today });
    const b = await approvedOrder(t, w, { delivery_date: today });
    expect(a.pickupJobId).toBeTruthy();
    const totalBefore = (await orderOf(a.id)).total_amount as number;

    // 2. The company assigns both deliveries: each reserves an asset and schedules its order.
    const [aDelivery] = await assignOrder(t, w, a.id);
    const [bDelivery] = await assignOrder(t, w, b.id);
    expect(aDelivery).toMatchObject({ id: a.deliveryJobId, type: 'delivery', status: 'assigned', driver_id: w.driver.id });
    expect(bDelivery).toMatchObject({ id: b.deliveryJobId, type: 'delivery', status: 'assigned' });
    const assetA = aDelivery.asset_id as string;
    expect(assetA).toBeTruthy();
    expect(bDelivery.asset_id).not.toBe(assetA);
    expect((await orderOf(a.id)).status).toBe('scheduled');
    expect((await orderOf(b.id)).status).toBe('scheduled');
    expect((await assetOf(assetA)).status).toBe('reserved');

    // The driver's day lists both, in sequence; job actions need a check-in first (DR-IN).
    const day = (await driver('get', 'driver/jobs').expect(200)).body.data as Row[];
    expect(day.map((j) => j.id)).toEqual([a.deliveryJobId, b.deliveryJobId]);
    await driver('post', `driver/jobs/${a.deliveryJobId}/start`).expect(403);

    // 3. 06:00: check-in with the truck.
    at('06:00');
    await driver('post', 'driver/check-in', { lat: 40.0, lng: -89.0, truck_id: w.truckId }).expect(201);
    expect((await driver('get', 'driver/status/check-in').expect(200)).body.data).toMatchObject({ status: 'checked_in' });

    // 4. 06:30: the first delivery. No photo, no completion; with one, the asset is on site and A delivered.
    at('06:30');
    await driver('post', `driver/jobs/${a.deliveryJobId}/start`).expect(200);
    expect((await assetOf(assetA)).status).toBe('in_transit');
    at('07:10');
    const noPhoto = await driver('post', `driver/jobs/${a.deliveryJobId}/complete`).expect(409);
    expect(noPhoto.body.code).toBe('EVIDENCE_REQUIRED');
    await driver('post', `driver/jobs/${a.deliveryJobId}/evidence`, { kind: 'photo', url: 'https://files.example.test/a-drop.jpg', note: 'Driveway, left side', lat: 40.18, lng: -89.0 }).expect(201);
    await driver('post', `driver/jobs/${a.deliveryJobId}/complete`).expect(200);
    const deliveredA = await orderOf(a.id);
    expect(deliveredA).toMatchObject({ status: 'delivered', delivered_on: today });
    expect(await assetOf(assetA)).toMatchObject({ status: 'on_site', location_type: 'customer_address' });

    // 5. 08:00–08:30: a break; no job action meanwhile.
    at('08:00');
    await driver('post', 'driver/start-break').expect(200);
    const onBreak = await driver('post', `driver/jobs/${b.deliveryJobId}/start`).expect(409);
    expect(onBreak.body.code).toBe('ON_BREAK');
    at('08:30');
    await driver('post', 'driver/end-break').expect(200);

    // 6. B's delivery meets a blocking issue: completion waits for the company to resolve it.
    at('09:00');
    await driver('post', `driver/jobs/${b.deliveryJobId}/start`).expect(200);
    const issue = (await driver('post', `driver/jobs/${b.deliveryJobId}/issues`, { type: 'no_access', blocking: true, description: 'Gate locked.' }).expect(201)).body.data as Row;
    await driver('post', `driver/jobs/${b.deliveryJobId}/evidence`, { kind: 'photo', url: 'https://files.example.test/b-gate.jpg' }).expect(201);
    const blocked = await driver('post', `driver/jobs/${b.deliveryJobId}/complete`).expect(409);
    expect(blocked.body.code).toBe('JOB_BLOCKED');
    const open = (await company('get', 'order/jobs/issues?status=open').expect(200)).body.data as Row[];
    expect(open.map((i) => i.id)).toEqual([issue.id]);
    at('09:40');
    const resolved = (await company('patch', `order/jobs/issues/${issue.id}`, { note: 'Customer opened the gate.' }).expect(200)).body.data as Row;
    expect(resolved).toMatchObject({ status: 'resolved', resolution_note: 'Customer opened the gate.' });
    await driver('post', `driver/jobs/${b.deliveryJobId}/complete`).expect(200);
    expect((await orderOf(b.id)).status).toBe('delivered');

    // 7. A's pickup, assigned in the afternoon: weighed at the station 500 kg over the 2,000 kg allowance.
    at('12:00');
    const [aPickup] = await assignOrder(t, w, a.id);
    expect(aPickup).toMatchObject({ id: a.pickupJobId, type: 'pickup', status: 'assigned' });
    await driver('post', `driver/jobs/${a.pickupJobId}/start`).expect(200);
    const noTicket = await driver('post', `driver/jobs/${a.pickupJobId}/complete`).expect(409);
    expect(noTicket.body.code).toBe('TICKET_REQUIRED');
    at('13:15');
    await driver('post', `driver/jobs/${a.pickupJobId}/evidence`, { kind: 'ticket', station_id: w.stationId, ticket_number: 'T-4512', gross_kg: 11400, tare_kg: 8900 }).expect(201);
    await driver('post', `driver/jobs/${a.pickupJobId}/complete`).expect(200);

    // The final bill: overage 500 kg × 90.00 per tonne = 4,500, taxed 8.25 % (371) → 4,871 more; A completed.
    const completed = (await company('get', `order/${a.id}/full`).expect(200)).body.data as Row;
    expect(completed.status).toBe('completed');
    const finals = (completed.all_lines as Row[]).filter((l) => l.source === 'final');
    expect(finals).toEqual([
      expect.objectContaining({ kind: 'overage', amount: 4500 }),
      expect.objectContaining({ kind: 'tax', amount: 371 }),
    ]);
    expect(completed.total_amount).toBe(totalBefore + 4871);
    // The container went to the station, then back to the lot, available.
    expect(await assetOf(assetA)).toMatchObject({ status: 'available', location_type: 'lot', location_id: w.lotId });
    const jobs = (await company('get', `orders/${a.id}/jobs`).expect(200)).body.data as Row[];
    expect(jobs.map((j) => [j.type, j.status])).toEqual([
      ['delivery', 'completed'],
      ['pickup', 'completed'],
    ]);
    // The customer sees the same jobs, with no location (nothing in progress).
    const seen = (await customer('get', `orders/${a.id}/jobs`).expect(200)).body.data as Row[];
    expect(seen.map((j) => j.status)).toEqual(['completed', 'completed']);

    // 8. 14:30: check-out. 06:00 → 14:30 is 510 minutes, less the 30-minute break: 480 worked.
    at('14:30');
    await driver('post', 'driver/check-out', { lat: 40.0, lng: -89.0 }).expect(200);
    const details = (await company('get', `attendances/${w.driver.id}/details?from=${today}&to=${today}`).expect(200)).body.data as Row;
    const [dayRow] = details.attendances as Row[];
    expect(dayRow).toMatchObject({ work_date: today, status: 'checked_out', worked_minutes: 480, break_minutes: 30 });

    // The driver's history holds the three finished jobs, newest first.
    const history = (await driver('get', 'driver/history/jobs/get').expect(200)).body.data as Row[];
    expect(history.map((j) => j.id)).toEqual([a.pickupJobId, b.deliveryJobId, a.deliveryJobId]);
  });
});
