import { todayIn } from '../../src/common/dates';
import { ArrivalTimesService } from '../../src/modules/dispatch/arrival-times.service';
import { TrucksService } from '../../src/modules/fleet';
import { addDriver, approvedOrder, assignOrder, coPost, dispatchWorld, DispatchWorld, inDays, tour } from '../support/dispatch-fixtures';
import { assignJob, type DriverWorld } from '../support/driver-fixtures';
import { relayAll } from '../support/tenant-world';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

const TZ = 'America/Chicago';
const MINUTE = 60_000;
/** Kilometres per degree of latitude (Earth radius 6,371 km). */
const KM_PER_DEGREE = (6371 * Math.PI) / 180;

/** The instant of `time` on `date` in Chicago, found by trying its two offsets (CST, CDT): independent of the code's own conversion. */
function chicago(date: string, time: string): number {
  for (const offset of ['-06:00', '-05:00']) {
    const at = new Date(`${date}T${time}:00${offset}`);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    if (local === time) return at.getTime();
  }
  throw new Error('no offset');
}
const hhmm = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/**
 * Arrival times (issue #26 item 2): a seeded day's planned arrivals against a hand computation (legs as
 * route collapse makes them, average speed, service and station minutes, from the home lot at the shift
 * start in the company's time zone), the order read's window, the dispatch context's arrivals and
 * lateness, and what the customer is told: "on the way" when the driver starts the job, and a slip past
 * `arrival_slip_minutes` once per slip (notification, live push through the notification, and mail).
 */
describe('Arrival times (issue #26)', () => {
  let t: TestApp;
  let w: DispatchWorld;
  const day = inDays(6);
  const lot = { lat: 40, lng: -89 };
  const siteA = { lat: 40.18, lng: -89 }; // the world's customer address
  const siteB = { lat: 40.1, lng: -88.9 };
  const station = { lat: 40.05, lng: -89.05 }; // the world's station (the only one)
  let a: Awaited<ReturnType<typeof approvedOrder>>;
  let b: Awaited<ReturnType<typeof approvedOrder>>;
  let pickupB: string;

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, {
      assets: 6,
      name: 'Arrival Co',
      settings: { timezone: TZ, shift_start_time: '08:00', average_speed_kmh: 40, service_minutes_delivery: 15, service_minutes_pickup: 10, station_minutes: 20, arrival_slip_minutes: 15 },
    });
    const second = await t.req('post', '/api/v1/customer/addresses', { token: w.customer.token, body: { line1: '2 East Rd', city: 'Springfield', latitude: siteB.lat, longitude: siteB.lng } }).expect(201);
    a = await approvedOrder(t, w, { delivery_date: day });
    b = await approvedOrder(t, w, { delivery_date: inDays(3), pickup_date: day, address_id: second.body.data.id });
    await assignOrder(t, w, a.id, { sequence: 1 });
    await assignOrder(t, w, b.id); // B's delivery, another day
    await assignOrder(t, w, b.id, { sequence: 2 }); // B's pickup, on the day after A's delivery
    pickupB = b.pickupJobId!;
    await relayAll(t);
  }, 120_000);
  afterAll(async () => t?.close());

  const context = async (date: string) => (await t.req('get', `/api/v1/dispatch/context?date=${date}`, { token: w.company.token }).expect(200)).body.data;
  const stop = (ctx: Row, jobId: string) => ctx.jobs.assigned.find((j: Row) => j.id === jobId);
  const hours = (km: number) => (km / 40) * 60 * MINUTE;

  it("times a seeded day as hand-computed: legs at the average speed, service and station minutes, from the home lot at the shift start (company time)", async () => {
    const start = chicago(day, '08:00');
    // A: home lot → lot (the same) → site A; 15 minutes there. B's pickup: site A → site B (arrival); then 10 minutes, the station, 20 minutes, the lot.
    const arriveA = start + hours(tour([lot, lot, siteA]));
    const arriveB = arriveA + 15 * MINUTE + hours(tour([siteA, siteB]));
    const ctx = await context(day);
    const [sa, sb] = [stop(ctx, a.deliveryJobId), stop(ctx, pickupB)];
    expect(Math.abs(Date.parse(sa.arrival.planned_at) - arriveA)).toBeLessThan(1000);
    expect(Math.abs(Date.parse(sb.arrival.planned_at) - arriveB)).toBeLessThan(1000);
    // A day in the future: nothing under way, so expected = planned, nobody late.
    expect(sa.arrival).toMatchObject({ expected_at: sa.arrival.planned_at, late_minutes: 0, arrived_at: null });
    expect(sb.arrival).toMatchObject({ expected_at: sb.arrival.planned_at, late_minutes: 0 });
    // The window: 30 minutes centred on the expected arrival.
    expect(Date.parse(sa.arrival.window_end) - Date.parse(sa.arrival.window_start)).toBe(30 * MINUTE);
    expect(Date.parse(sa.arrival.window_start)).toBe(Date.parse(sa.arrival.expected_at) - 15 * MINUTE);
    // Unassigned jobs carry no arrival.
    expect(ctx.jobs.unassigned.every((j: Row) => !('arrival' in j))).toBe(true);
  });

  it("the order read (customer and company) shows its next job's arrival window, in the read's two statements", async () => {
    const ctx = await context(day);
    const expected = stop(ctx, a.deliveryJobId).arrival.expected_at;
    const mine = (await t.req('get', `/api/v1/customer/order/${a.id}`, { token: w.customer.token }).expect(200)).body.data;
    expect(mine.arrival).toEqual({
      job_id: a.deliveryJobId,
      kind: 'delivery',
      expected_at: expected,
      window_start: new Date(Date.parse(expected) - 15 * MINUTE).toISOString(),
      window_end: new Date(Date.parse(expected) + 15 * MINUTE).toISOString(),
      late_minutes: 0,
      arrived_at: null,
    });
    const theirs = (await t.req('get', `/api/v1/order/${a.id}`, { token: w.company.token }).expect(200)).body.data;
    expect(theirs.arrival).toEqual(mine.arrival);
    // B's next job is its delivery (an earlier day), not the pickup.
    expect((await t.req('get', `/api/v1/customer/order/${b.id}`, { token: w.customer.token }).expect(200)).body.data.arrival).toMatchObject({ job_id: b.deliveryJobId, kind: 'delivery' });
    // An order with no job assigned: null.
    const waiting = await approvedOrder(t, w, { delivery_date: inDays(9) });
    expect((await t.req('get', `/api/v1/order/${waiting.id}`, { token: w.company.token }).expect(200)).body.data.arrival).toBeNull();

    // The statement count of the read is unchanged (test/database/statements-per-request.e2e.spec.ts: ≤ 2): the arrival is in its one statement.
    const statements: string[] = [];
    const logger = t.ds.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      return logQuery(query, parameters, runner);
    };
    try {
      await t.req('get', `/api/v1/customer/order/${a.id}`, { token: w.customer.token }).expect(200);
    } finally {
      logger.logQuery = logQuery;
    }
    expect(statements.length).toBeLessThanOrEqual(2);
  });

  it('a sequence change re-times the day in the relay', async () => {
    await coPost(t, w, `order/jobs/${a.deliveryJobId}`, { sequence: 3 }, 200, 'put');
    await relayAll(t);
    const ctx = await context(day);
    const start = chicago(day, '08:00');
    const arriveB = start + hours(tour([lot, siteB]));
    // Then the station (10 + 20 minutes), its nearest lot, and A's delivery from that lot.
    const arriveA = arriveB + 10 * MINUTE + hours(tour([siteB, station])) + 20 * MINUTE + hours(tour([station, lot, siteA]));
    expect(Math.abs(Date.parse(stop(ctx, pickupB).arrival.planned_at) - arriveB)).toBeLessThan(1000);
    expect(Math.abs(Date.parse(stop(ctx, a.deliveryJobId).arrival.planned_at) - arriveA)).toBeLessThan(1000);
  });

  it("a reassignment re-times both drivers' days; an abort takes the job's arrival away", async () => {
    const other = await addDriver(t, w);
    await coPost(t, w, `driver/reassign/${b.id}`, { driver_id: other.id, job_ids: [pickupB] }, 200);
    // The two days of one recomputation share the company's reads (its settings, its truck roster).
    const arrivals = t.app.get(ArrivalTimesService, { strict: false });
    const trucks = t.app.get(TrucksService, { strict: false });
    const calls = { recomputations: 0, days: 0, rosters: 0 };
    const spies = [
      jest.spyOn(arrivals, 'recomputeFor').mockImplementation(function (this: ArrivalTimesService, ...a) {
        calls.recomputations++;
        return ArrivalTimesService.prototype.recomputeFor.apply(this, a);
      }),
      jest.spyOn(arrivals, 'recomputeDay').mockImplementation(function (this: ArrivalTimesService, ...a) {
        calls.days++;
        return ArrivalTimesService.prototype.recomputeDay.apply(this, a);
      }),
      jest.spyOn(trucks, 'roster').mockImplementation(function (this: TrucksService, ...a) {
        calls.rosters++;
        return TrucksService.prototype.roster.apply(this, a);
      }),
    ];
    try {
      await relayAll(t);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(calls.days).toBeGreaterThan(calls.recomputations);
    expect(calls.rosters).toBe(calls.recomputations);
    const ctx = await context(day);
    const start = chicago(day, '08:00');
    // Each is now the first stop of its driver's day.
    expect(Math.abs(Date.parse(stop(ctx, pickupB).arrival.planned_at) - (start + hours(tour([lot, siteB]))))).toBeLessThan(1000);
    expect(Math.abs(Date.parse(stop(ctx, a.deliveryJobId).arrival.planned_at) - (start + hours(tour([lot, siteA]))))).toBeLessThan(1000);
    await coPost(t, w, `order/jobs/${pickupB}/abort`, { reason: 'customer called off' }, 200);
    await relayAll(t);
    expect(await t.ds.query(`SELECT job_id FROM job_arrivals WHERE job_id = $1`, [pickupB])).toEqual([]);
  });

  it('OpenAPI: the order read and the dispatch context document the new fields', async () => {
    const doc = (await t.http.get('/api/documentation-json').expect(200)).body;
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.OrderArrivalDto.properties).sort()).toEqual(['arrived_at', 'expected_at', 'job_id', 'kind', 'late_minutes', 'window_end', 'window_start']);
    expect(JSON.stringify(schemas.OrderWithLinesDto.properties.arrival)).toContain('OrderArrivalDto');
    expect(Object.keys(schemas.StopArrivalDto.properties).sort()).toEqual(['arrived_at', 'expected_at', 'late_minutes', 'planned_at', 'window_end', 'window_start']);
    expect(JSON.stringify(schemas.DispatchDayJobsDto.properties.assigned)).toContain('DispatchStopDto');
  });

  describe('telling the customer', () => {
    let job: string;
    let orderId: string;
    const today = () => todayIn(TZ);

    beforeAll(async () => {
      const checkIn = await t.req('post', '/api/v1/driver/check-in', { token: w.driver.token, body: { lat: lot.lat, lng: lot.lng, truck_id: w.truckId } });
      expect(checkIn.status).toBe(201);
      const c = await approvedOrder(t, w, { delivery_date: inDays(4) });
      orderId = c.id;
      job = c.deliveryJobId;
      // Assigned for today (placement needs a day's lead time), as assignment does: the asset reserved, the order scheduled.
      await assignJob(t, { ...w, today: today() } as unknown as DriverWorld, job);
      await relayAll(t);
    });

    const told = async (type: string) => (await t.ds.query(`SELECT title, body, data FROM notifications WHERE user_id = $1 AND type = $2 AND data->>'job_id' = $3 ORDER BY created_at, id`, [w.customer.id, type, job])) as Row[];
    const mails = async (prefix: string) => (await t.ds.query(`SELECT subject, body FROM mail_messages WHERE lower(to_address) = lower($1) AND subject LIKE $2 ORDER BY created_at`, [w.customer.email, `${prefix}%`])) as Row[];
    const arrival = async () => (await t.req('get', `/api/v1/customer/order/${orderId}`, { token: w.customer.token }).expect(200)).body.data.arrival;
    /** A point `km` south of the site along its meridian, recorded `minute` minutes from now (each in its own sample minute). */
    const point = async (km: number, minute: number) => {
      await new Promise((r) => setTimeout(r, 1100)); // one point a second per driver
      await t
        .req('post', `/api/v1/driver/send-location/${job}`, { token: w.driver.token, body: { lat: siteA.lat - km / KM_PER_DEGREE, lng: siteA.lng, recorded_at: new Date(Date.now() + minute * MINUTE).toISOString() } })
        .expect(201);
      await relayAll(t);
    };

    it('"on the way, about HH:MM" (company time) when the driver starts the job: a notification and a mail, once', async () => {
      expect(await told('job.arrival_on_the_way')).toEqual([]);
      const before = Date.now();
      await t.req('post', `/api/v1/driver/jobs/${job}/start`, { token: w.driver.token }).expect(200);
      await relayAll(t);
      const now = await arrival();
      // From the home lot, now: the lot (the same) → the site, 20 km at 40 km/h.
      const expected = before + hours(tour([lot, siteA]));
      expect(Math.abs(Date.parse(now.expected_at) - expected)).toBeLessThan(30_000);
      const [n, ...more] = await told('job.arrival_on_the_way');
      expect(more).toEqual([]);
      expect(n.title).toBe(`Driver on the way, about ${hhmm(now.expected_at)}`);
      expect(n.body).toContain(`arriving about ${hhmm(now.expected_at)}`);
      expect(n.data).toMatchObject({ order_id: orderId, job_id: job });
      expect((await mails('Driver on the way')).map((m) => m.subject)).toEqual([n.title]);
      // The customer's notification list (what the live push sends is the same row).
      const list = (await t.req('get', '/api/v1/customer/notifications/get', { token: w.customer.token }).expect(200)).body.data;
      expect(list.some((x: Row) => x.type === 'job.arrival_on_the_way' && x.data.job_id === job)).toBe(true);
      // The dispatch context shows the stop under way, late against the plan when the shift started long ago.
      const s = stop(await context(today()), job);
      expect(s.arrival.expected_at).toBe(now.expected_at);
      expect(s.arrival.late_minutes).toBe(Math.max(0, Math.round((Date.parse(now.expected_at) - Date.parse(s.arrival.planned_at)) / MINUTE)));
    });

    it('a slip past arrival_slip_minutes tells the customer once per slip', async () => {
      // 34 km away: 51 minutes from now, about 21 past what they were told (30) → one slip.
      await point(34, -4);
      expect(await told('job.arrival_slipped')).toHaveLength(1);
      const first = await arrival();
      expect((await told('job.arrival_slipped'))[0].title).toBe(`Driver delayed: now about ${hhmm(first.expected_at)}`);
      // 40 km, then 42 km: 9 and 12 minutes past what they were last told (≤ 15) → nothing more.
      await point(40, -3);
      await point(42, -2);
      expect(await told('job.arrival_slipped')).toHaveLength(1);
      expect(Date.parse((await arrival()).expected_at)).toBeGreaterThan(Date.parse(first.expected_at) + 10 * MINUTE);
      // 48 km: 21 minutes past the last slip → one more.
      await point(48, -1);
      const slips = await told('job.arrival_slipped');
      expect(slips).toHaveLength(2);
      expect(slips[1].body).toContain(`(we said ${hhmm(first.expected_at)})`);
      expect(await mails('Driver delayed')).toHaveLength(2);
      expect(await told('job.arrival_on_the_way')).toHaveLength(1);
    });

    it('points within one minute of recorded time recompute once; at the site the arrival stays and nothing more is told', async () => {
      const sampled = async () => Number((await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'job.position_sampled' AND aggregate_id = $1`, [job]))[0].n);
      const before = await sampled();
      const base = Math.floor(Date.now() / MINUTE) * MINUTE + 2 * MINUTE; // a minute slot of its own, ahead of the last point
      for (const s of [5, 25]) {
        await new Promise((r) => setTimeout(r, 1100));
        await t.req('post', `/api/v1/driver/send-location/${job}`, { token: w.driver.token, body: { lat: 39.9, lng: -89, recorded_at: new Date(base + s * 1000).toISOString() } }).expect(201);
      }
      expect((await sampled()) - before).toBe(1);
      await relayAll(t);
      // At the site (within 150 m): arrived now.
      await new Promise((r) => setTimeout(r, 1100));
      await t.req('post', `/api/v1/driver/send-location/${job}`, { token: w.driver.token, body: { lat: siteA.lat + 0.0005, lng: siteA.lng, recorded_at: new Date(base + 70_000).toISOString() } }).expect(201);
      await relayAll(t);
      const there = await arrival();
      expect(there.arrived_at).not.toBeNull();
      expect(there.expected_at).toBe(there.arrived_at);
      const slips = (await told('job.arrival_slipped')).length;
      await point(60, 4); // a stray point far away: the arrival happened, nothing is told
      expect((await arrival()).arrived_at).toBe(there.arrived_at);
      expect(await told('job.arrival_slipped')).toHaveLength(slips);
    });
  });
});
