import { checkIn, deliveredOrder } from '../support/delivery-fixtures';
import { approvedOrder, assignOrder, dispatchWorld, type DispatchWorld } from '../support/dispatch-fixtures';
import { inDays, orderBody } from '../support/order-fixtures';
import { holdOf, refusedOn } from '../support/calendar-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The container calendar's last two rules (issue #25, docs/orders-and-pricing.md "Container calendar"):
 * a late pickup (its date passed, not completed) keeps the container held from its start through every
 * later day until the pickup completes, everywhere the calendar counts; and jobs added with
 * `POST /order/jobs` keep the order's hold right (a pickup added for a date ends it then, checked; an
 * extra delivery never shortens it; a relocation leaves it).
 */
describe('container calendar: late pickups and added jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 120_000);
  afterAll(() => t.close());

  const place = (w: DispatchWorld, extra: Record<string, unknown>) => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, extra) });
  const hold = (orderId: string) => holdOf(t, orderId);
  const days = async (w: DispatchWorld, from: number, to: number) =>
    (
      await t.req('get', `/api/v1/company/availability?asset_specification_id=${w.specId}&from=${inDays(from)}&to=${inDays(to)}`, { token: w.company.token }).expect(200)
    ).body.data.days.map((d: Row) => [d.date, d.held, d.free]);
  const addJob = (w: DispatchWorld, body: Record<string, unknown>) => t.req('post', '/api/v1/order/jobs', { token: w.company.token, body });

  it('a pickup whose date has passed keeps its container held on every later day until it completes', async () => {
    const w = await dispatchWorld(t, { name: 'Late Pickup Co', assets: 1, settings: { order_lead_time_days: 0 } });
    await checkIn(t, w);
    // Delivered (the one container on site), then two days on: delivered the day before yesterday, its pickup date yesterday, the pickup not done.
    const late = await deliveredOrder(t, w, { pickup_date: inDays(0) });
    await t.ds.query(`UPDATE orders SET delivery_date = $2, delivered_on = $2, pickup_date = $3 WHERE id = $1`, [late.id, inDays(-2), inDays(-1)]);
    await t.ds.query(`UPDATE jobs SET scheduled_date = CASE WHEN type = 'pickup' THEN $3::date ELSE $2::date END WHERE order_id = $1`, [late.id, inDays(-2), inDays(-1)]);
    await t.ds.query(`UPDATE container_reservations SET starts_on = $2, ends_on = $3 WHERE order_id = $1 AND released_at IS NULL`, [late.id, inDays(-2), inDays(-1)]);

    // Availability: held on its days and on every day after them.
    expect(await days(w, -2, 4)).toEqual([-2, -1, 0, 1, 2, 3, 4].map((d) => [inDays(d), 1, 0]));
    // The customer's first free dates: none; a placement for the last container is refused on its days.
    const free = await t.req('get', `/api/v1/customer/availability?asset_specification_id=${w.specId}&from=${inDays(1)}&limit=3`, { token: w.customer.token }).expect(200);
    expect(free.body.data.dates).toEqual([]);
    refusedOn(await place(w, { delivery_date: inDays(1), pickup_date: inDays(2) }), [inDays(1), inDays(2)], w.specId);
    refusedOn(await t.req('post', `/api/v1/customer/${w.customer.id}/orders`, { token: w.company.token, body: orderBody(w, { delivery_date: inDays(5) }) }), [inDays(5)], w.specId);
    // Dispatch's free assets: none on a later day.
    const context = (await t.req('get', `/api/v1/dispatch/context?date=${inDays(1)}`, { token: w.company.token }).expect(200)).body.data;
    expect(context.free_assets.map((s: Row) => s.available)).not.toContain(1);

    // Taken anyway (the check off): assignment has nothing to pin, the container is not offered.
    await t.req('put', `/api/v1/asset-specifications/${w.specId}`, { token: w.company.token, body: { check_availability: false } }).expect(200);
    const next = await approvedOrder(t, w, { delivery_date: inDays(1), pickup_date: inDays(2) });
    const offered = (await t.req('get', `/api/v1/orders/${next.id}/assets-with-availability`, { token: w.company.token }).expect(200)).body.data;
    expect(offered.assets.map((a: Row) => [a.id, a.status, a.free])).toEqual([[w.assetIds[0], 'on_site', false]]);
    const refused = await t.req('post', `/api/v1/driver/assign/${next.id}`, { token: w.company.token, body: { driver_id: w.driver.id, truck_id: w.truckId } });
    expect([refused.status, refused.body.code]).toEqual([409, 'NO_CONTAINER_AVAILABLE']);
    await t.req('put', `/api/v1/asset-specifications/${w.specId}`, { token: w.company.token, body: { check_availability: null } }).expect(200);

    // The pickup, today: completed, the hold released, the container free again.
    const [pickup] = await assignOrder(t, w, late.id, { date: inDays(0) });
    expect(pickup).toMatchObject({ id: late.pickupJobId, type: 'pickup', scheduled_date: inDays(0) });
    const driver = (method: 'post', path: string, body?: unknown) => t.req(method, `/api/v1/driver/jobs/${pickup.id}/${path}`, { token: w.driver.token, body });
    await driver('post', 'start').expect(200);
    await driver('post', 'evidence', { kind: 'ticket', station_id: w.stationId, ticket_number: 'T-LATE-1', gross_kg: 9900, tare_kg: 8900 }).expect(201);
    await driver('post', 'complete').expect(200);
    expect(await hold(late.id)).toBeUndefined();
    // Only the order taken meanwhile (days 1–2) holds it now.
    expect(await days(w, 0, 3)).toEqual([
      [inDays(0), 0, 1],
      [inDays(1), 1, 0],
      [inDays(2), 1, 0],
      [inDays(3), 0, 1],
    ]);
    const [delivery] = await assignOrder(t, w, next.id);
    expect(delivery.asset_id).toBe(w.assetIds[0]);
  }, 180_000);

  it('POST /order/jobs: a pickup added for a date ends the hold then (409 when that makes a day overfull, nothing saved); an extra delivery never shortens it', async () => {
    const w = await dispatchWorld(t, { name: 'Added Jobs Co', assets: 1 });
    const count = async (orderId: string) => ((await t.ds.query(`SELECT count(*)::int AS n FROM jobs WHERE order_id = $1`, [orderId])) as Row[])[0].n;
    // Open-ended from day 3; an order before it (days 1–2) fits.
    const open = await approvedOrder(t, w, { delivery_date: inDays(3) });
    expect(open.pickupJobId).toBeNull();
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(3), ends_on: null });
    refusedOn(await place(w, { delivery_date: inDays(8), pickup_date: inDays(9) }), [inDays(8), inDays(9)], w.specId);

    // A pickup on day 6: the hold ends then, so days 8–9 are free.
    const pickup = await addJob(w, { order_id: open.id, type: 'pickup', date: inDays(6) });
    expect(pickup.status).toBe(201);
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(6) });
    expect(await days(w, 5, 8)).toEqual([
      [inDays(5), 1, 0],
      [inDays(6), 1, 0],
      [inDays(7), 0, 1],
      [inDays(8), 0, 1],
    ]);
    const after = await approvedOrder(t, w, { delivery_date: inDays(8), pickup_date: inDays(9) });

    // A pickup added on day 9 would keep the container out over the later order's days: refused, naming them; nothing saved.
    const jobs = await count(open.id);
    refusedOn(await addJob(w, { order_id: open.id, type: 'pickup', date: inDays(9) }), [inDays(8), inDays(9)], w.specId);
    expect(await count(open.id)).toBe(jobs);
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(6) });
    // One added on day 5 (brought forward): the hold ends then.
    expect((await addJob(w, { order_id: open.id, type: 'pickup', date: inDays(5) })).status).toBe(201);
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(5) });

    // An extra delivery on day 4 does not shorten the hold (still from day 3); one after the pickup is 422 on the date.
    expect((await addJob(w, { order_id: open.id, type: 'delivery', date: inDays(4) })).status).toBe(201);
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(5) });
    const crossed = await addJob(w, { order_id: open.id, type: 'delivery', date: inDays(7) });
    expect([crossed.status, crossed.body.errors?.date]).toEqual([422, [`must not be after the pickup on ${inDays(5)}`]]);
    // An extra delivery on day 2 brings the container out earlier: checked against the order of days 1–2 (none free), then held.
    const before = await approvedOrder(t, w, { delivery_date: inDays(1), pickup_date: inDays(1) });
    expect((await addJob(w, { order_id: open.id, type: 'delivery', date: inDays(2) })).status).toBe(201);
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(2), ends_on: inDays(5) });
    refusedOn(await addJob(w, { order_id: after.id, type: 'delivery', date: inDays(5) }), [inDays(5)], w.specId);
    expect(await hold(after.id)).toMatchObject({ starts_on: inDays(8), ends_on: inDays(9) });

    // A relocation leaves the hold as it is; a moved pickup (PUT) still moves it.
    const site = (await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1: '9 Other Rd', city: 'Springfield', latitude: 40.2, longitude: -89.1 } }).expect(201)).body.data;
    expect((await addJob(w, { order_id: open.id, type: 'relocate', date: inDays(4), destination_address_id: site.id })).status).toBe(201);
    expect(await hold(open.id)).toMatchObject({ starts_on: inDays(2), ends_on: inDays(5) });
    expect((await t.req('put', `/api/v1/order/jobs/${before.deliveryJobId}`, { token: w.company.token, body: { date: inDays(0) } })).status).toBe(200);
    expect(await hold(before.id)).toMatchObject({ starts_on: inDays(0), ends_on: inDays(1) });
  }, 180_000);
});
