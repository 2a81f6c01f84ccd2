import { addAsset, assignOrder, coPost, dispatchWorld, type DispatchWorld } from '../support/dispatch-fixtures';
import { inDays, orderBody, orderWorld, placeOrder, type OrderWorld } from '../support/order-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The container calendar (issue #25 item 2; docs/orders-and-pricing.md "Container calendar"): holds by
 * date, the availability figures against a world known by construction, refusals at placement,
 * approval, change requests and assignment (409 NO_CONTAINER_AVAILABLE naming the dates), a week of
 * bookings that reuses containers, the two availability routes, and the race for the last container.
 */
describe('container calendar', () => {
  let t: TestApp;
  let rival: OrderWorld;
  beforeAll(async () => {
    t = await startTestApp();
    rival = await orderWorld(t, { name: 'Rival Calendar Co' });
  }, 120_000);
  afterAll(() => t.close());

  const checking = (w: OrderWorld, on = true) => coPost(t, w, `asset-specifications/${w.specId}`, { check_availability: on }, 200, 'put');
  const place = (w: OrderWorld, extra: Record<string, unknown>) => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, extra) });
  const availability = (w: OrderWorld, query: string, token = w.company.token) => t.req('get', `/api/v1/company/availability?${query}`, { token });
  const freeDates = (w: OrderWorld, query: string, token = w.customer.token) => t.req('get', `/api/v1/customer/availability?${query}`, { token });
  const refusedOn = (res: { status: number; body: any }, dates: string[], specId: string) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    expect([res.status, res.body.code]).toEqual([409, 'NO_CONTAINER_AVAILABLE']);
    expect(res.body.details).toEqual({ asset_specification_id: specId, dates });
    for (const d of dates.slice(0, 5)) expect(res.body.message).toContain(d);
  };
  const liveHolds = async (orderIds: string[]) =>
    (await t.ds.query(`SELECT order_id, starts_on::text AS starts_on, ends_on::text AS ends_on, asset_id FROM container_reservations WHERE order_id = ANY($1::uuid[]) AND released_at IS NULL`, [orderIds])) as { order_id: string; starts_on: string; ends_on: string | null; asset_id: string | null }[];

  it('answers per day total, held and free exactly as the world was built (all lots, one lot; maintenance left out; released holds gone)', async () => {
    const w = await dispatchWorld(t, { name: 'Figures Co', assets: 3 });
    // A second yard far away (the orders are served from the main one), with one container; one more container in maintenance.
    const north = await coPost(t, w, 'lot/create', { name: 'North yard', latitude: 45.0, longitude: -80.0 });
    await coPost(t, w, 'assets', { code: 'RO20-N01', asset_specification_id: w.specId, home_lot_id: north.id });
    const broken = await addAsset(t, w, 'RO20-M01');
    await coPost(t, w, `assets/${broken}`, { status: 'maintenance' }, 200, 'put');
    await checking(w);

    // Holds by construction: [from, to] in days from today, null = open-ended.
    const built: [number, number | null][] = [
      [2, 2],
      [3, 5],
      [4, 8],
      [6, null],
      [5, 7],
    ];
    const ids: string[] = [];
    for (const [from, to] of built) ids.push((await placeOrder(t, w, { delivery_date: inDays(from), ...(to !== null ? { pickup_date: inDays(to) } : {}) })).id);
    // The last one is cancelled: its hold is released.
    expect((await t.req('post', `/api/v1/customer/order/${ids[4]}/cancel`, { token: w.customer.token, body: { reason: 'changed plans' } })).status).toBe(200);
    const live = built.slice(0, 4);
    const heldOn = (day: number) => live.filter(([from, to]) => from <= day && (to === null || day <= to)).length;

    const all = await availability(w, `asset_specification_id=${w.specId}&from=${inDays(1)}&to=${inDays(10)}`);
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ asset_specification_id: w.specId, lot_id: null, from: inDays(1), to: inDays(10) });
    expect(all.body.data.days).toEqual(Array.from({ length: 10 }, (_, i) => ({ date: inDays(i + 1), total: 4, held: heldOn(i + 1), free: Math.max(0, 4 - heldOn(i + 1)) })));

    const main = await availability(w, `asset_specification_id=${w.specId}&lot_id=${w.lotId}&from=${inDays(1)}&to=${inDays(10)}`);
    expect(main.body.data.days.map((d: { total: number; held: number }) => [d.total, d.held])).toEqual(Array.from({ length: 10 }, (_, i) => [3, heldOn(i + 1)]));
    const far = await availability(w, `asset_specification_id=${w.specId}&lot_id=${north.id}&from=${inDays(1)}&to=${inDays(3)}`);
    expect(far.body.data.days.map((d: { total: number; held: number; free: number }) => [d.total, d.held, d.free])).toEqual([
      [1, 0, 1],
      [1, 0, 1],
      [1, 0, 1],
    ]);
    // The database agrees: one live hold per unfinished order, with its dates.
    const holds = await liveHolds(ids);
    expect(holds.map((h) => [h.starts_on, h.ends_on]).sort()).toEqual(live.map(([f, to]) => [inDays(f), to === null ? null : inDays(to)]).sort());
  }, 120_000);

  it('refuses a placement on the days no container is free, naming them; a container back on day 5 goes out on day 6; a cancelled hold frees its days', async () => {
    const w = await dispatchWorld(t, { name: 'One Box Co', assets: 1 });
    await checking(w);
    expect((await place(w, { delivery_date: inDays(3), pickup_date: inDays(5) })).status).toBe(201);
    refusedOn(await place(w, { delivery_date: inDays(5), pickup_date: inDays(6) }), [inDays(5)], w.specId);
    expect((await place(w, { delivery_date: inDays(6), pickup_date: inDays(7) })).status).toBe(201);
    const open = await place(w, { delivery_date: inDays(10) });
    expect(open.status).toBe(201);
    // Open-ended: held from day 10 on, whatever comes after.
    refusedOn(await place(w, { delivery_date: inDays(12), pickup_date: inDays(13) }), [inDays(12), inDays(13)], w.specId);
    refusedOn(await place(w, { delivery_date: inDays(8) }), [inDays(10), inDays(11)], w.specId);

    // The customer's view on the quote: days 8 and 9 are free (3–7 and 10 on are held).
    const one = await freeDates(w, `asset_specification_id=${w.specId}&from=${inDays(2)}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ asset_specification_id: w.specId, from: inDays(2), to: inDays(91), dates: [inDays(2), inDays(8), inDays(9)] });
    expect((await freeDates(w, `asset_specification_id=${w.specId}&from=${inDays(3)}&days=2`)).body.data.dates).toEqual([inDays(8)]);
    expect((await freeDates(w, `asset_specification_id=${w.specId}&from=${inDays(3)}&days=3&limit=1`)).body.data.dates).toEqual([]);

    const cancel = await t.req('post', `/api/v1/customer/order/${open.body.data.id}/cancel`, { token: w.customer.token, body: { reason: 'no longer needed' } });
    expect(cancel.status).toBe(200);
    expect((await place(w, { delivery_date: inDays(12), pickup_date: inDays(13) })).status).toBe(201);
  }, 120_000);

  it('refuses approval while another order holds the last container on its days, and approves once that one is rejected', async () => {
    const w = await dispatchWorld(t, { name: 'Approval Box Co', assets: 1 });
    // Placed while the specification never refuses (check_availability false): both hold the one container on days 4–5.
    await checking(w, false);
    const first = await placeOrder(t, w, { delivery_date: inDays(3), pickup_date: inDays(5) });
    const second = await placeOrder(t, w, { delivery_date: inDays(4), pickup_date: inDays(6) });
    await checking(w);
    refusedOn(await t.req('patch', `/api/v1/approve/order/${first.id}`, { token: w.company.token }), [inDays(4), inDays(5)], w.specId);
    expect((await t.req('get', `/api/v1/order/${first.id}`, { token: w.company.token })).body.data.status).toBe('pending');
    await coPost(t, w, `reject/order/${second.id}`, { reason: 'no container' }, 200, 'patch');
    expect((await liveHolds([second.id])).length).toBe(0);
    expect((await t.req('patch', `/api/v1/approve/order/${first.id}`, { token: w.company.token })).status).toBe(200);
  }, 120_000);

  it('refuses a change request whose new dates meet another hold (when asked, and at approval when the calendar changed meanwhile), and approves one that does not', async () => {
    const w = await dispatchWorld(t, { name: 'Change Box Co', assets: 1 });
    await checking(w);
    const first = await placeOrder(t, w, { delivery_date: inDays(3), pickup_date: inDays(5) });
    await coPost(t, w, `approve/order/${first.id}`, undefined, 200, 'patch');
    const ask = (body: unknown) => t.req('post', `/api/v1/customer/orders/${first.id}/order-change-requests`, { token: w.customer.token, body });
    // Asked while days 6–9 are free; another order then takes days 8–9 (a pending request holds nothing).
    const late = await ask({ type: 'schedule_pickup', pickup_date: inDays(9) });
    expect(late.status).toBe(201);
    await placeOrder(t, w, { delivery_date: inDays(8), pickup_date: inDays(9) });
    refusedOn(await t.req('patch', `/api/v1/order-change-requests/${late.body.data.id}/approve`, { token: w.company.token }), [inDays(8), inDays(9)], w.specId);
    expect((await liveHolds([first.id]))[0].ends_on).toBe(inDays(5));
    expect((await t.req('patch', `/api/v1/order-change-requests/${late.body.data.id}/reject`, { token: w.company.token, body: { reason: 'the container is booked' } })).status).toBe(200);
    // Asked again now: refused at once, naming the days, and nothing is saved (no pending request, the hold as it was).
    refusedOn(await ask({ type: 'schedule_pickup', pickup_date: inDays(9) }), [inDays(8), inDays(9)], w.specId);
    refusedOn(await t.req('post', `/api/v1/customer/orders/${first.id}/order-change-requests/billing`, { token: w.customer.token, body: { type: 'extend_rental', days: 4 } }), [inDays(8), inDays(9)], w.specId);
    const pending = await t.ds.query(`SELECT count(*)::int AS n FROM order_change_requests WHERE order_id = $1 AND status = 'pending'`, [first.id]);
    expect(pending[0].n).toBe(0);
    expect((await liveHolds([first.id]))[0].ends_on).toBe(inDays(5));
    const fits = await ask({ type: 'schedule_pickup', pickup_date: inDays(7) });
    expect((await t.req('patch', `/api/v1/order-change-requests/${fits.body.data.id}/approve`, { token: w.company.token })).status).toBe(200);
    expect((await liveHolds([first.id]))[0].ends_on).toBe(inDays(7));
  }, 120_000);

  it('plans a week with the containers it uses: 6 bookings of 2 days on 2 containers, all assigned ahead; the 7th is refused', async () => {
    const w = await dispatchWorld(t, { name: 'Week Co', assets: 2 });
    await checking(w);
    const orders: string[] = [];
    for (const from of [2, 2, 4, 4, 6, 6]) {
      const o = await placeOrder(t, w, { delivery_date: inDays(from), pickup_date: inDays(from + 1) });
      await coPost(t, w, `approve/order/${o.id}`, undefined, 200, 'patch');
      orders.push(o.id);
    }
    refusedOn(await place(w, { delivery_date: inDays(3), pickup_date: inDays(4) }), [inDays(3), inDays(4)], w.specId);
    // Every delivery assigned today, days ahead: each pair takes both containers, and each container goes out three times.
    const assets: string[] = [];
    for (const id of orders) {
      const [job] = await assignOrder(t, w, id);
      expect(job).toMatchObject({ type: 'delivery', status: 'assigned' });
      assets.push(job.asset_id!);
    }
    expect(new Set(assets)).toEqual(new Set(w.assetIds));
    for (let i = 0; i < 6; i += 2) expect(assets[i]).not.toBe(assets[i + 1]);
    const holds = await liveHolds(orders);
    expect(holds.every((h) => h.asset_id)).toBe(true);
    // Availability agrees: both held on every day 2–7.
    const days = (await availability(w, `asset_specification_id=${w.specId}&from=${inDays(2)}&to=${inDays(7)}`)).body.data.days;
    expect(days.map((d: { held: number; free: number }) => [d.held, d.free])).toEqual(Array.from({ length: 6 }, () => [2, 0]));
  }, 180_000);

  it('refuses an assignment when no container is free on the order\'s days (NO_CONTAINER_AVAILABLE), and a chosen one held by another order (ASSET_UNAVAILABLE)', async () => {
    // With check_availability false both orders are taken; dispatch finds one container for both.
    const w: DispatchWorld = await dispatchWorld(t, { name: 'Assign Box Co', assets: 1 });
    await checking(w, false);
    const first = await placeOrder(t, w, { delivery_date: inDays(3), pickup_date: inDays(5) });
    const second = await placeOrder(t, w, { delivery_date: inDays(4), pickup_date: inDays(6) });
    for (const o of [first, second]) await coPost(t, w, `approve/order/${o.id}`, undefined, 200, 'patch');
    const [job] = await assignOrder(t, w, first.id);
    expect(job.asset_id).toBe(w.assetIds[0]);
    const body = { driver_id: w.driver.id, truck_id: w.truckId };
    refusedOn(await t.req('post', `/api/v1/driver/assign/${second.id}`, { token: w.company.token, body }), [inDays(4), inDays(5), inDays(6)], w.specId);
    const chosen = await t.req('post', `/api/v1/driver/assign/${second.id}`, { token: w.company.token, body: { ...body, asset_id: w.assetIds[0] } });
    expect([chosen.status, chosen.body.code]).toEqual([409, 'ASSET_UNAVAILABLE']);
    // Its delivery stays unassigned, and nothing is pinned for it.
    expect((await liveHolds([second.id]))[0].asset_id).toBeNull();
  }, 120_000);

  describe('routes', () => {
    let w: DispatchWorld;
    beforeAll(async () => {
      w = await dispatchWorld(t, { name: 'Routes Box Co', assets: 1 });
    }, 120_000);

    it('GET /company/availability: company users only; another company\'s specification or lot is 404; bad input 422', async () => {
      const q = `asset_specification_id=${w.specId}&from=${inDays(1)}&to=${inDays(90)}`;
      const ok = await availability(w, q);
      expect(ok.status).toBe(200);
      expect(ok.body.data.days).toHaveLength(90);
      expect((await availability(w, q, w.customer.token)).status).toBe(403);
      expect((await availability(w, q, w.driver.token)).status).toBe(403);
      expect((await t.req('get', `/api/v1/company/availability?${q}`)).status).toBe(401);
      expect((await availability(w, `asset_specification_id=${rival.specId}&from=${inDays(1)}&to=${inDays(2)}`)).status).toBe(404);
      expect((await availability(w, `asset_specification_id=${w.specId}&lot_id=${rival.lotId}&from=${inDays(1)}&to=${inDays(2)}`)).status).toBe(404);
      for (const [query, field] of [
        [`asset_specification_id=${w.specId}&from=${inDays(1)}&to=${inDays(91)}`, 'to'],
        [`asset_specification_id=${w.specId}&from=${inDays(5)}&to=${inDays(4)}`, 'to'],
        [`asset_specification_id=${w.specId}&from=2027-02-30&to=${inDays(4)}`, 'from'],
        [`asset_specification_id=not-a-uuid&from=${inDays(1)}&to=${inDays(4)}`, 'asset_specification_id'],
        [`from=${inDays(1)}&to=${inDays(4)}`, 'asset_specification_id'],
        [`asset_specification_id=${w.specId}&from=${inDays(1)}&to=${inDays(4)}&lot_id=x`, 'lot_id'],
        [`asset_specification_id=${w.specId}&from=${inDays(1)}&to=${inDays(4)}&colour=red`, 'colour'],
      ]) {
        const res = await availability(w, query);
        expect([query, res.status, res.body.code]).toEqual([query, 422, 'VALIDATION_FAILED']);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
    });

    it('GET /customer/availability: customers only; another company\'s or an inactive specification is 404; bad input 422', async () => {
      const q = `asset_specification_id=${w.specId}&from=${inDays(1)}`;
      const ok = await freeDates(w, q);
      expect(ok.status).toBe(200);
      expect(ok.body.data.dates).toEqual([inDays(1), inDays(2), inDays(3), inDays(4), inDays(5)]);
      expect((await freeDates(w, q, w.company.token)).status).toBe(403);
      expect((await freeDates(w, q, w.driver.token)).status).toBe(403);
      expect((await freeDates(w, `asset_specification_id=${rival.specId}&from=${inDays(1)}`)).status).toBe(404);
      await coPost(t, w, `asset-specifications/${w.otherSpecId}`, { active: false }, 200, 'put');
      expect((await freeDates(w, `asset_specification_id=${w.otherSpecId}&from=${inDays(1)}`)).status).toBe(404);
      for (const query of [`asset_specification_id=${w.specId}`, `asset_specification_id=${w.specId}&from=${inDays(1)}&days=0`, `asset_specification_id=${w.specId}&from=${inDays(1)}&limit=32`, `asset_specification_id=${w.specId}&from=tomorrow`]) {
        const res = await freeDates(w, query);
        expect([query, res.status, res.body.code]).toEqual([query, 422, 'VALIDATION_FAILED']);
      }
    });
  });
});
