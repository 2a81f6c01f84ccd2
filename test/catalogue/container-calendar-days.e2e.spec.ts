import { addAsset, approvedOrder, assignOrder, coPost, dispatchWorld, type DispatchWorld } from '../support/dispatch-fixtures';
import { inDays, orderBody, orderWorld, placeOrder, type OrderWorld } from '../support/order-fixtures';
import { holdOf, refusedOn } from '../support/calendar-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The container calendar over days (issue #25, docs/orders-and-pricing.md "Container calendar"): refusal by
 * default once a company records containers of a specification (`check_availability` null = automatic,
 * true/false overrides), the phone order refused as the customer's placement, holds that follow a delivery
 * or pickup moved by dispatch, and dispatch's reads (assets with availability, the context's free assets,
 * route collapse's loading lot) going by the calendar rather than the asset's status.
 */
describe('container calendar over days', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 120_000);
  afterAll(() => t.close());

  const place = (w: OrderWorld, extra: Record<string, unknown>) => t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, extra) });
  const spec = async (w: OrderWorld, id = w.specId) => (await t.req('get', `/api/v1/asset-specifications/${id}`, { token: w.company.token }).expect(200)).body.data;
  const setCheck = (w: OrderWorld, value: unknown, id = w.specId) => t.req('put', `/api/v1/asset-specifications/${id}`, { token: w.company.token, body: { check_availability: value } });
  const hold = (orderId: string) => holdOf(t, orderId);
  const putJob = (w: OrderWorld, jobId: string, body: unknown) => t.req('put', `/api/v1/order/jobs/${jobId}`, { token: w.company.token, body });

  it('refuses by default once a container of the specification is recorded; true and false override; the phone order is refused the same way', async () => {
    const w = await orderWorld(t, { name: 'Default Refusal Co' });
    // No container recorded: automatic (null), nothing to count, every order taken.
    expect((await spec(w)).check_availability).toBeNull();
    for (let i = 0; i < 3; i++) expect((await place(w, { delivery_date: inDays(3), pickup_date: inDays(4) })).status).toBe(201);
    // One container recorded: three holds on days 3–4 against one container, so a fourth is refused on those days.
    await coPost(t, w, 'assets', { code: 'RO20-D01', asset_specification_id: w.specId, home_lot_id: w.lotId });
    refusedOn(await place(w, { delivery_date: inDays(4), pickup_date: inDays(5) }), [inDays(4)], w.specId);
    expect((await place(w, { delivery_date: inDays(5), pickup_date: inDays(6) })).status).toBe(201);
    // The office's phone order for the customer: the same refusal, the same details, nothing saved.
    const phone = await t.req('post', `/api/v1/customer/${w.customer.id}/orders`, { token: w.company.token, body: orderBody(w, { delivery_date: inDays(4), pickup_date: inDays(5) }) });
    refusedOn(phone, [inDays(4), inDays(5)], w.specId);
    expect(phone.body.message).toContain(inDays(4));
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM orders WHERE company_id = $1`, [w.company.companyId]);
    expect(n).toBe(4);
    // false: never refused (held anyway); null again: automatic.
    expect((await setCheck(w, false)).body.data.check_availability).toBe(false);
    expect((await place(w, { delivery_date: inDays(4), pickup_date: inDays(4) })).status).toBe(201);
    const auto = await setCheck(w, null);
    expect([auto.status, auto.body.data?.check_availability, auto.body.code, auto.body.errors]).toEqual([200, null, undefined, undefined]);
    refusedOn(await place(w, { delivery_date: inDays(6), pickup_date: inDays(7) }), [inDays(6)], w.specId);
    // true on a specification with no container: none is free, so every order is refused.
    expect((await setCheck(w, true, w.otherSpecId)).status).toBe(200);
    refusedOn(await place(w, { asset_specification_id: w.otherSpecId, delivery_date: inDays(8), pickup_date: inDays(8) }), [inDays(8)], w.otherSpecId);
    const bad = await setCheck(w, 'sometimes');
    expect([bad.status, bad.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(bad.body.errors).toHaveProperty('check_availability');
  }, 180_000);

  it('a moved delivery or pickup moves the hold (checked, 409 when none is free; 422 when the ends cross); the order keeps its dates; assignment pins over the moved days', async () => {
    const w = await dispatchWorld(t, { name: 'Moved Jobs Co', assets: 1 });
    const a = await approvedOrder(t, w, { delivery_date: inDays(3), pickup_date: inDays(5) });
    const b = await approvedOrder(t, w, { delivery_date: inDays(8), pickup_date: inDays(9) });
    expect(await hold(a.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(5) });

    // A's pickup a day later: the container is out until day 6; the order's pickup date (its bill) stays.
    expect((await putJob(w, a.pickupJobId!, { date: inDays(6) })).status).toBe(200);
    expect(await hold(a.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(6) });
    expect((await t.req('get', `/api/v1/order/${a.id}`, { token: w.company.token })).body.data.pickup_date).toBe(inDays(5));
    // Onto B's days: refused, naming them; nothing moves.
    refusedOn(await putJob(w, a.pickupJobId!, { date: inDays(8) }), [inDays(8)], w.specId);
    expect(await hold(a.id)).toMatchObject({ ends_on: inDays(6) });
    refusedOn(await putJob(w, b.deliveryJobId, { date: inDays(6) }), [inDays(6)], w.specId);
    // The ends may not cross.
    const crossed = await putJob(w, a.deliveryJobId, { date: inDays(7) });
    expect([crossed.status, Object.keys(crossed.body.errors ?? {})]).toEqual([422, ['date']]);
    // A bulk applies its items in order: B's delivery to day 9 first frees day 8 for A's pickup.
    const bulk = await t.req('put', '/api/v1/order/jobs/bulk', {
      token: w.company.token,
      body: { items: [{ job_id: b.deliveryJobId, date: inDays(9) }, { job_id: a.pickupJobId, date: inDays(8) }] },
    });
    expect(bulk.status).toBe(200);
    expect(await hold(a.id)).toMatchObject({ starts_on: inDays(3), ends_on: inDays(8) });
    expect(await hold(b.id)).toMatchObject({ starts_on: inDays(9), ends_on: inDays(9) });
    // The delivery a day earlier, then assigned: the pin covers the days the container is out (2–8), not the order's dates (3–5).
    expect((await putJob(w, a.deliveryJobId, { date: inDays(2) })).status).toBe(200);
    const [job] = await assignOrder(t, w, a.id);
    expect(job).toMatchObject({ type: 'delivery', scheduled_date: inDays(2), asset_id: w.assetIds[0] });
    expect(await hold(a.id)).toEqual({ starts_on: inDays(2), ends_on: inDays(8), asset_id: w.assetIds[0] });
    // B's delivery assigned too: the one container is back after day 8, so it goes out again on day 9.
    const [other] = await assignOrder(t, w, b.id);
    expect(other.asset_id).toBe(w.assetIds[0]);
  }, 180_000);

  describe('dispatch reads the calendar', () => {
    let w: DispatchWorld;
    let early: Awaited<ReturnType<typeof approvedOrder>>;
    let overlapping: Awaited<ReturnType<typeof approvedOrder>>;
    let later: Awaited<ReturnType<typeof approvedOrder>>;
    beforeAll(async () => {
      w = await dispatchWorld(t, { name: 'Calendar Reads Co', assets: 2 });
      early = await approvedOrder(t, w, { delivery_date: inDays(3), pickup_date: inDays(5) });
      overlapping = await approvedOrder(t, w, { delivery_date: inDays(4), pickup_date: inDays(6) });
      later = await approvedOrder(t, w, { delivery_date: inDays(7), pickup_date: inDays(8) });
      // The early order's delivery assigned: RO20-001 is pinned on days 3–5 (status reserved).
      await assignOrder(t, w, early.id, { date: inDays(3) });
    }, 180_000);

    const assetsFor = async (orderId: string) => (await t.req('get', `/api/v1/orders/${orderId}/assets-with-availability`, { token: w.company.token }).expect(200)).body.data;

    it('assets with availability: a container pinned on the order\'s days is not free; one reserved for another order on other days is', async () => {
      const [pinned, spare] = w.assetIds;
      const over = await assetsFor(overlapping.id);
      expect(over.date).toBe(inDays(4));
      expect(over.assets.map((x: Row) => [x.id, x.status, x.free])).toEqual([
        [pinned, 'reserved', false],
        [spare, 'available', true],
      ]);
      // Days 7–8: RO20-001 is back after day 5, so both are free (by status it was not).
      const after = await assetsFor(later.id);
      expect(after.assets.map((x: Row) => [x.id, x.free])).toEqual([
        [pinned, true],
        [spare, true],
      ]);
      // And assignment agrees: the later order can have the reserved container.
      const [job] = await assignOrder(t, w, later.id, { asset_id: pinned });
      expect(job.asset_id).toBe(pinned);
      // The context's free assets per day: one on day 4 (RO20-001 pinned), one on day 7 (now pinned for the later order), two on day 6.
      const free = async (day: number) => (await t.req('get', `/api/v1/dispatch/context?date=${inDays(day)}`, { token: w.company.token }).expect(200)).body.data.free_assets;
      expect(await free(4)).toEqual([{ asset_specification_id: w.specId, available: 1, by_home_lot: [{ home_lot_id: w.lotId, available: 1 }] }]);
      expect(await free(6)).toEqual([{ asset_specification_id: w.specId, available: 2, by_home_lot: [{ home_lot_id: w.lotId, available: 2 }] }]);
      expect(await free(7)).toEqual([{ asset_specification_id: w.specId, available: 1, by_home_lot: [{ home_lot_id: w.lotId, available: 1 }] }]);
    });

    it("route collapse loads a delivery's container at its pinned asset's lot, not the nearest lot", async () => {
      // A yard right next to the site, with a container of its own, free on day 4.
      const near = await coPost(t, w, 'lot/create', { name: 'Site-side yard', latitude: 40.17, longitude: -89.0 });
      await coPost(t, w, 'assets', { code: 'RO20-S01', asset_specification_id: w.specId, home_lot_id: near.id });
      // The overlapping order's delivery takes the main yard's spare container (chosen).
      const [job] = await assignOrder(t, w, overlapping.id, { asset_id: w.assetIds[1] });
      expect(job.asset_id).toBe(w.assetIds[1]);
      const plan = (await t.req('put', '/api/v1/order/jobs/route-collapse', { token: w.company.token, body: { driver_id: w.driver.id, date: inDays(4), apply: false } }).expect(200)).body.data;
      const stop = plan.stops.find((s: Row) => s.job_id === overlapping.deliveryJobId);
      expect(stop.legs.map((l: Row) => [l.kind, l.id])).toEqual([
        ['lot', w.lotId],
        ['site', w.addressId],
      ]);
      // Pinned to the site-side yard's container instead, the delivery loads there.
      await t.ds.query(`UPDATE container_reservations SET asset_id = (SELECT id FROM assets WHERE code = 'RO20-S01' AND company_id = $2), lot_id = $3 WHERE order_id = $1 AND released_at IS NULL`, [
        overlapping.id,
        w.company.companyId,
        near.id,
      ]);
      const again = (await t.req('put', '/api/v1/order/jobs/route-collapse', { token: w.company.token, body: { driver_id: w.driver.id, date: inDays(4), apply: false } }).expect(200)).body.data;
      expect(again.stops.find((s: Row) => s.job_id === overlapping.deliveryJobId).legs[0]).toMatchObject({ kind: 'lot', id: near.id });
      expect(again.plan_id).not.toBe(plan.plan_id);
    });
  });

  it('a free-by-status container is not offered when it is pinned: addAsset world sanity', async () => {
    // A container in maintenance counts nowhere: the automatic check then refuses on every day (no container left).
    const w = await dispatchWorld(t, { name: 'Maintenance Co', assets: 1 });
    await coPost(t, w, `assets/${w.assetIds[0]}`, { status: 'maintenance' }, 200, 'put');
    refusedOn(await place(w, { delivery_date: inDays(3), pickup_date: inDays(3) }), [inDays(3)], w.specId);
    const extra = await addAsset(t, w, 'RO20-X01');
    expect((await place(w, { delivery_date: inDays(3), pickup_date: inDays(3) })).status).toBe(201);
    expect(extra).toBeTruthy();
  }, 120_000);
});
