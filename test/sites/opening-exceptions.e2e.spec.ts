import { ABSENT_ID } from '../support/fixtures';
import { approvedOrder, assignOrder, coPost, dispatchWorld, DispatchWorld, inDays } from '../support/dispatch-fixtures';
import { orderBody } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

/** The weekday key (`mon`..`sun`) of a YYYY-MM-DD date. */
const weekdayOf = (date: string) => ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date(date + 'T00:00:00Z').getUTCDay()];

/**
 * Issue #25: a lot's or station's opening changed for one weekday or one date, and the dated exception
 * honoured wherever opening is decided (placement, the dispatch context, route collapse's nearest open station).
 */
describe('Sites: one weekday, one date (opening exceptions)', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let rival: DispatchWorld;
  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { name: 'Hours Co', assets: 4 });
    rival = await dispatchWorld(t, { name: 'Rival Hours Co', assets: 1 });
  });
  afterAll(async () => t?.close());

  const co = (method: 'get' | 'put' | 'delete' | 'post', path: string, body?: unknown, token = w.company.token) => t.req(method, `/api/v1/${path}`, { token, body });

  it("sets one weekday's hours and leaves the other days as they are", async () => {
    const before = (await co('get', `lot/${w.lotId}`).expect(200)).body.data.opening_hours;
    const res = await co('put', `lot/${w.lotId}/opening-hours/sat`, { hours: { open: '08:00', close: '12:00' } }).expect(200);
    expect(res.body.data.opening_hours).toEqual({ ...before, sat: { open: '08:00', close: '12:00' } });
    const closed = await co('put', `lot/${w.lotId}/opening-hours/sat`, { hours: null }).expect(200);
    expect(closed.body.data.opening_hours).toEqual({ ...before, sat: null });
    const [event] = await t.ds.query(`SELECT payload FROM outbox_events WHERE type = 'lot.weekday_hours_set' AND aggregate_id = $1 ORDER BY created_at DESC LIMIT 1`, [w.lotId]);
    expect(event.payload).toEqual({ weekday: 'sat', hours: null });
    // Back to all day, so that later dates are not closed by this test.
    await co('put', `lot/${w.lotId}/opening-hours/sat`, { hours: { open: '00:00', close: '24:00' } }).expect(200);
    const station = await co('put', `station/${w.stationId}/opening-hours/sun`, { hours: { open: '06:00', close: '14:00' } }).expect(200);
    expect(station.body.data.opening_hours.sun).toEqual({ open: '06:00', close: '14:00' });
    expect(station.body.data.waste_type_ids).toEqual([w.wasteId]);
  });

  it('refuses bad input (422), another company\'s site (404), customers and drivers (403)', async () => {
    const bad = async (path: string, body: unknown, field: string) => {
      const res = await co('put', path, body).expect(422);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.body.errors)).toEqual([field]);
    };
    await bad(`lot/${w.lotId}/opening-hours/someday`, { hours: null }, 'weekday');
    await bad(`lot/${w.lotId}/opening-hours/mon`, { hours: { open: '17:00', close: '07:00' } }, 'hours');
    await bad(`lot/${w.lotId}/opening-hours/mon`, {}, 'hours');
    await bad(`lot/${w.lotId}/opening-hours/mon`, { hours: null, extra: 1 }, 'extra');
    await bad(`lot/${w.lotId}/opening-exceptions/2027-02-30`, { hours: null }, 'date');
    await bad(`station/${w.stationId}/opening-exceptions/${inDays(30)}`, { hours: { open: '7:00', close: '12:00' } }, 'hours');
    expect((await co('delete', `lot/${w.lotId}/opening-exceptions/tomorrow`).expect(422)).body.errors).toHaveProperty('date');
    expect((await co('get', `lot/${w.lotId}/opening-exceptions?from=soon`).expect(422)).body.errors).toHaveProperty('from');

    for (const [kind, id] of [['lot', rival.lotId], ['station', rival.stationId], ['lot', ABSENT_ID]]) {
      expect((await co('put', `${kind}/${id}/opening-hours/mon`, { hours: null }).expect(404)).body.code).toBe('NOT_FOUND');
      await co('put', `${kind}/${id}/opening-exceptions/${inDays(30)}`, { hours: null }).expect(404);
      await co('get', `${kind}/${id}/opening-exceptions`).expect(404);
      await co('delete', `${kind}/${id}/opening-exceptions/${inDays(30)}`).expect(404);
    }
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM lot_opening_exceptions WHERE lot_id = $1`, [rival.lotId]);
    expect(n).toBe(0);
    expect((await t.req('get', `/api/v1/lot/${rival.lotId}`, { token: rival.company.token }).expect(200)).body.data.opening_hours.mon).not.toBeNull();
    for (const token of [w.customer.token, w.driver.token]) {
      await co('put', `lot/${w.lotId}/opening-hours/mon`, { hours: null }, token).expect(403);
      await co('put', `lot/${w.lotId}/opening-exceptions/${inDays(30)}`, { hours: null }, token).expect(403);
      await co('get', `lot/${w.lotId}/opening-exceptions`, undefined, token).expect(403);
      await co('delete', `lot/${w.lotId}/opening-exceptions/${inDays(30)}`, undefined, token).expect(403);
    }
  });

  it('a closed date wins over its weekday (placement refused as on a holiday); special hours open a closed weekday; removing it restores the weekday', async () => {
    const closedDate = inDays(20);
    const set = await co('put', `lot/${w.lotId}/opening-exceptions/${closedDate}`, { hours: null, note: 'Stocktaking' }).expect(200);
    expect(set.body.data).toMatchObject({ date: closedDate, hours: null, note: 'Stocktaking' });
    const refused = await t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, { delivery_date: closedDate }) }).expect(422);
    expect(refused.body.code).toBe('HOLIDAY');
    expect(refused.body.errors.delivery_date[0]).toContain('Stocktaking');
    // The same date set again is replaced, not duplicated: special hours, open.
    const reopened = await co('put', `lot/${w.lotId}/opening-exceptions/${closedDate}`, { hours: { open: '07:00', close: '11:00' } }).expect(200);
    expect(reopened.body.data).toMatchObject({ id: set.body.data.id, hours: { open: '07:00', close: '11:00' }, note: null });
    await t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: orderBody(w, { delivery_date: closedDate }) }).expect(201);

    // A weekday closed by the hours, opened on one date by an exception.
    const special = inDays(22);
    const weekday = weekdayOf(special);
    await co('put', `lot/${w.lotId}/opening-hours/${weekday}`, { hours: null }).expect(200);
    const closedDay = await t.req('post', '/api/v1/customer/order/billing', { token: w.customer.token, body: orderBody(w, { delivery_date: special }) }).expect(422);
    expect(closedDay.body.code).toBe('CLOSED_DAY');
    await co('put', `lot/${w.lotId}/opening-exceptions/${special}`, { hours: { open: '09:00', close: '13:00' }, note: 'Open for the spring clean-up' }).expect(200);
    await t.req('post', '/api/v1/customer/order/billing', { token: w.customer.token, body: orderBody(w, { delivery_date: special }) }).expect(200);
    // The dispatch context shows the lot open that day, and closed on the closed weekday a week later.
    const ctx = (date: string) => co('get', `dispatch/context?date=${date}`).expect(200);
    expect((await ctx(special)).body.data.lots.find((l: Row) => l.id === w.lotId)).toMatchObject({ open: true, closed_reason: null });
    expect((await ctx(inDays(29))).body.data.lots.find((l: Row) => l.id === w.lotId)).toMatchObject({ open: false, closed_reason: 'CLOSED_DAY' });

    const list = await co('get', `lot/${w.lotId}/opening-exceptions?from=${inDays(21)}`).expect(200);
    expect(list.body.data.map((e: Row) => [e.date, e.hours, e.note])).toEqual([[special, { open: '09:00', close: '13:00' }, 'Open for the spring clean-up']]);
    expect(list.body.meta.total).toBe(1);
    await co('delete', `lot/${w.lotId}/opening-exceptions/${special}`).expect(200);
    expect((await co('delete', `lot/${w.lotId}/opening-exceptions/${special}`).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await t.req('post', '/api/v1/customer/order/billing', { token: w.customer.token, body: orderBody(w, { delivery_date: special }) }).expect(422)).body.code).toBe('CLOSED_DAY');
    await co('put', `lot/${w.lotId}/opening-hours/${weekday}`, { hours: { open: '00:00', close: '24:00' } }).expect(200);
    const events = await t.ds.query(`SELECT type, payload FROM outbox_events WHERE aggregate_id = $1 AND type LIKE 'lot.opening_exception_%' ORDER BY created_at`, [w.lotId]);
    expect(events.map((e: Row) => [e.type, e.payload.date])).toEqual([
      ['lot.opening_exception_set', closedDate],
      ['lot.opening_exception_set', closedDate],
      ['lot.opening_exception_set', special],
      ['lot.opening_exception_deleted', special],
    ]);
  });

  it("route collapse takes the nearest station open that day: a station closed on the date by an exception is passed over", async () => {
    const day = inDays(15);
    // A second station farther from the site (40.18,-89.00) than the world's (40.05,-89.05).
    const far = await coPost(t, w, 'station/create', { name: 'Far landfill', latitude: 40.6, longitude: -89.6, waste_type_ids: [w.wasteId] });
    const o = await approvedOrder(t, w, { delivery_date: inDays(12), pickup_date: day });
    await assignOrder(t, w, o.id);
    await assignOrder(t, w, o.id);
    const stationOf = async () => {
      const plan = (await t.req('put', '/api/v1/order/jobs/route-collapse', { token: w.company.token, body: { driver_id: w.driver.id, date: day, apply: false } }).expect(200)).body.data;
      return plan.stops[0].legs.find((l: Row) => l.kind === 'station').id;
    };
    expect(await stationOf()).toBe(w.stationId);
    await co('put', `station/${w.stationId}/opening-exceptions/${day}`, { hours: null, note: 'Scale repairs' }).expect(200);
    expect(await stationOf()).toBe(far.id);
    const ctx = (await co('get', `dispatch/context?date=${day}`).expect(200)).body.data;
    expect(ctx.stations.map((s: Row) => s.id)).toEqual([far.id]);
    await co('delete', `station/${w.stationId}/opening-exceptions/${day}`).expect(200);
    expect(await stationOf()).toBe(w.stationId);
  });
});
