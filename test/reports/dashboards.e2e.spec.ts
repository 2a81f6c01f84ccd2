import { parse } from 'csv-parse/sync';
import { backfillReportRollups } from '../../migrations/1764400006000-Reports';
import { rekeyBilledByFinalDay } from '../../migrations/1764400006731-ReportBillingBasis';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { companyActor, memberActor, MemberActor, PASSWORD, uniqueEmail } from '../support/actors';
import { approvedOrder, assignOrder, coPost, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;

const KEY = 'admin-registration-key-for-reports';
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The haversine of the server (metres, mean Earth radius), to know the km of the points sent. */
const metres = (a: [number, number], b: [number, number]) => {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b[0] - a[0]) / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(rad(b[1] - a[1]) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
};

/**
 * Dashboards, analytics and reports over HTTP, against a world whose numbers are known by construction
 * (company time zone UTC, same-day service). The clock (only `Date`) is moved through today so that the
 * driver's worked time is exact; the only SQL is on dates: one delivery job's scheduled date (a late
 * delivery) and one order's due date (an overdue balance), besides ageing a location point past the
 * one-a-second throttle.
 *
 * Customer 1: O1 delivered and picked up today (ticket 11,400 − 8,900 = 2,500 kg), O2 delivered today
 * (its delivery scheduled yesterday: late; pickup in 2 days; an overfill: 2 points and a fee; 20,000 paid
 * offline; due 45 days ago),
 * O3 pending (in 2 days), O4 rejected (in 3 days). Customer 2: O5 approved (tomorrow).
 * Driver: check-in 06:00, check-out 14:00 (480 min), two location points 20 km apart on O1's delivery.
 */
describe('Dashboards, analytics and reports', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let customer2: MemberActor;
  let admin: string;
  let rival: { token: string; companyId: string };
  const today = new Date().toISOString().slice(0, 10);
  const at = (hhmm: string) => jest.setSystemTime(new Date(`${today}T${hhmm}:00.000Z`));
  const o: Record<string, { id: string; total: number }> = {};
  let km: number;
  const from = today;
  const to = addDays(today, 3);
  const range = `from=${from}&to=${to}`;

  const get = (token: string, path: string, headers: Record<string, string> = {}) => t.req('get', `/api/v1/${path}`, { token, headers });
  const data = async (token: string, path: string) => {
    const r = await get(token, path);
    if (r.status !== 200) throw new Error(`GET ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const totalOf = async (id: string) => (await data(w.company.token, `order/${id}`)).total_amount as number;

  beforeAll(async () => {
    jest.useFakeTimers({
      now: new Date(`${today}T05:00:00.000Z`),
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    t = await startTestApp({ env: { ADMIN_REGISTRATION_KEY: KEY } });
    w = await dispatchWorld(t, { name: 'Report Hauling', assets: 3, settings: { order_lead_time_days: 0 } });
    customer2 = await memberActor(t, w.company, 'customer');
    await t.req('post', '/api/v1/customer/addresses', { token: customer2.token, body: { line1: '9 Mill Rd', city: 'Springfield', latitude: 40.18, longitude: -89.0 } }).expect(201);
    const driver = (method: 'get' | 'post', path: string, body?: unknown) => t.req(method, `/api/v1/${path}`, { token: w.driver.token, body });

    // Orders.
    const o1 = await approvedOrder(t, w, { delivery_date: today, pickup_date: today });
    const o2 = await approvedOrder(t, w, { delivery_date: today, pickup_date: addDays(today, 2) });
    const o3 = await placeOrder(t, w, { delivery_date: addDays(today, 2) });
    const o4 = await placeOrder(t, w, { delivery_date: addDays(today, 3) });
    await coPost(t, w, `reject/order/${o4.id}`, { reason: 'No container free that day.' }, 200, 'patch');
    const c2Address = (await data(customer2.token, 'customer/addresses'))[0].id as string;
    const o5 = await approvedOrder(t, w, { delivery_date: addDays(today, 1), address_id: c2Address }, customer2);

    // O2's delivery was due yesterday (a date shift): it will be late.
    await t.ds.query(`UPDATE jobs SET scheduled_date = $2::date - 1 WHERE id = $1`, [o2.deliveryJobId, today]);

    // The driver's day: 06:00 check-in; O1 delivered with two points 20 km apart; O2 delivered; O1 picked up and weighed; 14:00 check-out.
    at('06:00');
    await driver('post', 'driver/check-in', { lat: 40.0, lng: -89.0, truck_id: w.truckId }).expect(201);
    await assignOrder(t, w, o1.id);
    await driver('post', `driver/jobs/${o1.deliveryJobId}/start`).expect(200);
    at('06:10');
    await driver('post', `driver/send-location/${o1.deliveryJobId}`, { lat: 40.0, lng: -89.0, recorded_at: new Date().toISOString() }).expect(201);
    at('06:40');
    // The server takes one point a second per driver: the first point is made older (as test/dispatch/driver-tracking does).
    await t.ds.query(`UPDATE job_locations SET created_at = created_at - interval '2 seconds' WHERE driver_id = $1`, [w.driver.id]);
    await driver('post', `driver/send-location/${o1.deliveryJobId}`, { lat: 40.18, lng: -89.0, recorded_at: new Date().toISOString() }).expect(201);
    km = Math.round(metres([40.0, -89.0], [40.18, -89.0]) / 100) / 10;
    await driver('post', `driver/jobs/${o1.deliveryJobId}/evidence`, { kind: 'photo', url: 'https://files.example.test/o1.jpg' }).expect(201);
    await driver('post', `driver/jobs/${o1.deliveryJobId}/complete`).expect(200);
    at('08:00');
    await assignOrder(t, w, o2.id);
    await driver('post', `driver/jobs/${o2.deliveryJobId}/start`).expect(200);
    await driver('post', `driver/jobs/${o2.deliveryJobId}/evidence`, { kind: 'photo', url: 'https://files.example.test/o2.jpg' }).expect(201);
    await driver('post', `driver/jobs/${o2.deliveryJobId}/complete`).expect(200);
    at('11:00');
    await assignOrder(t, w, o1.id);
    await driver('post', `driver/jobs/${o1.pickupJobId}/start`).expect(200);
    await driver('post', `driver/jobs/${o1.pickupJobId}/evidence`, { kind: 'ticket', station_id: w.stationId, ticket_number: 'T-1', gross_kg: 11400, tare_kg: 8900 }).expect(201);
    await driver('post', `driver/jobs/${o1.pickupJobId}/complete`).expect(200);
    at('14:00');
    await driver('post', 'driver/check-out', { lat: 40.0, lng: -89.0 }).expect(200);

    // An overfill recorded on O2 (2 demerit points; its fee joins O2's bill).
    const overfill = (await coPost(t, w, 'policies', { name: 'Overfilled container', category: 'overfill', demerit_points: 2, fee_amount: 7500, active: true })).id;
    await coPost(t, w, `orders/${o2.id}/violated-policies`, { policy_ids: [overfill], note: 'Loaded above the rim.' });

    // Money: 20,000 received offline for O2, whose due date is then 45 days ago (a date shift).
    await coPost(t, w, 'customers/orders/payment-received', { order_id: o2.id, method: 'cash', reference: 'R-1', amount: 20000 });
    await t.ds.query(`UPDATE orders SET due_date = $2::date - 45 WHERE id = $1`, [o2.id, today]);

    for (const [k, id] of Object.entries({ o1: o1.id, o2: o2.id, o3: o3.id, o4: o4.id, o5: o5.id })) o[k] = { id, total: await totalOf(id) };

    rival = await companyActor(t, 'Rival Reports');
    const reg = await t.req('post', '/api/v1/admin/auth/register', { body: { name: 'Root', email: uniqueEmail('admin'), password: PASSWORD, registration_key: KEY } }).expect(201);
    admin = reg.body.data.token;

    // The rollups follow the events.
    const relay = t.app.get(OutboxRelay);
    while ((await relay.runOnce()).claimed > 0);
  });
  afterAll(async () => {
    await t?.close();
    jest.useRealTimers();
  });

  it('company dashboard: every figure of the world', async () => {
    const d = (await data(w.company.token, `company/dashboard?${range}`)) as Row;
    const billedToday = o.o1.total + o.o2.total;
    expect(d).toMatchObject({ from, to, currency: 'USD' });
    expect(d.revenue.billed_amount).toBe(billedToday + o.o5.total);
    expect(d.revenue.collected_amount).toBe(20000);
    expect(d.revenue.by_day).toEqual([
      { date: today, billed_amount: billedToday, collected_amount: 20000 },
      { date: addDays(today, 1), billed_amount: o.o5.total, collected_amount: 0 },
      { date: addDays(today, 2), billed_amount: 0, collected_amount: 0 },
      { date: addDays(today, 3), billed_amount: 0, collected_amount: 0 },
    ]);
    expect(Object.fromEntries((d.orders_by_status as Row[]).map((s) => [s.status, s.count]))).toEqual({ pending: 1, approved: 1, rejected: 1, scheduled: 0, delivered: 1, completed: 1, cancelled: 0 });
    expect(Object.fromEntries((d.jobs_by_type as Row[]).map((s) => [s.type, s.count]))).toEqual({ delivery: 2, pickup: 1, swap: 0, dump_return: 0, relocate: 0 });
    expect(d.drivers).toEqual([
      { driver_id: w.driver.id, name: 'A driver', jobs: 3, km, net_kg: 2500, worked_minutes: 480, jobs_per_hour: 0.38, km_per_hour: Math.round((km / 8) * 100) / 100 },
    ]);
    expect(d.tonnage).toEqual([{ waste_type_id: w.wasteId, name: 'General debris', tickets: 1, net_kg: 2500 }]);
    // 3 assets of the 20 yd spec owned over 4 days = 12; O1 on rent today (delivered and picked up), O2 on site today: 2.
    expect(d.asset_utilisation).toEqual([
      { asset_specification_id: w.specId, name: '20 yd roll-off', assets: 3, owned_days: 12, rented_days: 2, utilisation_bps: 1667 },
      { asset_specification_id: w.otherSpecId, name: '30 yd roll-off', assets: 0, owned_days: 0, rented_days: 0, utilisation_bps: 0 },
    ]);
    expect(d.on_time_delivery).toEqual({ completed: 2, on_time: 1, late: 1, on_time_bps: 5000 });
    // Balances: O1, O2 (less 20,000; 45 days overdue), O3 (pending, not yet due), O5 (approved). O4 rejected.
    const o2Balance = o.o2.total - 20000;
    expect(d.dues_ageing).toEqual({
      orders_count: 4,
      total_due_amount: o.o1.total + o2Balance + o.o3.total + o.o5.total,
      not_yet_due_amount: o.o1.total + o.o3.total + o.o5.total,
      overdue_count: 1,
      overdue_amount: o2Balance,
      aged_0_30_amount: 0,
      aged_31_60_amount: o2Balance,
      aged_61_90_amount: 0,
      aged_90_plus_amount: 0,
    });
    expect(d.top_customers).toEqual([
      { customer_id: w.customer.id, name: 'A customer', orders: 2, billed_amount: billedToday },
      { customer_id: customer2.id, name: 'A customer', orders: 1, billed_amount: o.o5.total },
    ]);
    // O1's final bill (overage) is in its total: it was completed after the weighing.
    expect((await data(w.company.token, `order/${o.o1.id}`)).status).toBe('completed');
  });

  it('analytics: a point for every day of every series', async () => {
    const a = (await data(w.company.token, `analytics?${range}`)) as Row;
    const series = Object.fromEntries((a.series as Row[]).map((s) => [s.name, s.points]));
    const days = [0, 1, 2, 3].map((n) => addDays(today, n));
    expect(series).toEqual({
      billed_amount: [[days[0], o.o1.total + o.o2.total], [days[1], o.o5.total], [days[2], 0], [days[3], 0]],
      collected_amount: [[days[0], 20000], [days[1], 0], [days[2], 0], [days[3], 0]],
      orders: [[days[0], 2], [days[1], 1], [days[2], 1], [days[3], 1]],
      jobs_completed: [[days[0], 3], [days[1], 0], [days[2], 0], [days[3], 0]],
      net_kg: [[days[0], 2500], [days[1], 0], [days[2], 0], [days[3], 0]],
    });
  });

  it('reports: tables as JSON, and as CSV (format=csv or Accept: text/csv) parsed back', async () => {
    const revenue = (await data(w.company.token, `reports?${range}`)) as Row;
    expect(revenue).toMatchObject({ report: 'revenue', from, to, columns: ['date', 'billed_amount', 'collected_amount', 'orders_billed'] });
    expect(revenue.rows[0]).toEqual([today, o.o1.total + o.o2.total, 20000, 2]);

    const csv = await get(w.company.token, `reports?${range}&format=csv`).buffer(true).parse((res, cb) => {
      let s = '';
      res.on('data', (c: Buffer) => (s += c.toString()));
      res.on('end', () => cb(null, s));
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="revenue-${from}-to-${to}.csv"`);
    const parsed = parse(csv.body as string, { columns: true }) as Row[];
    expect(parsed).toHaveLength(4);
    expect(parsed[0]).toEqual({ date: today, billed_amount: String(o.o1.total + o.o2.total), collected_amount: '20000', orders_billed: '2' });
    expect(parsed[1]).toEqual({ date: addDays(today, 1), billed_amount: String(o.o5.total), collected_amount: '0', orders_billed: '1' });

    const byAccept = await get(w.company.token, `reports?${range}&report=drivers`, { Accept: 'text/csv' }).buffer(true).parse((res, cb) => {
      let s = '';
      res.on('data', (c: Buffer) => (s += c.toString()));
      res.on('end', () => cb(null, s));
    });
    expect(byAccept.headers['content-disposition']).toBe(`attachment; filename="drivers-${from}-to-${to}.csv"`);
    expect(parse(byAccept.body as string, { columns: true })).toEqual([
      { driver_id: w.driver.id, name: 'A driver', jobs: '3', km: String(km), net_kg: '2500', worked_minutes: '480', jobs_per_hour: '0.38', km_per_hour: String(Math.round((km / 8) * 100) / 100) },
    ]);

    const tables = async (report: string) => ((await data(w.company.token, `reports?${range}&report=${report}`)) as Row).rows;
    expect(await tables('orders')).toContainEqual(['pending', 1]);
    expect(await tables('jobs')).toEqual([['delivery', 2], ['pickup', 1], ['swap', 0], ['dump_return', 0], ['relocate', 0]]);
    expect(await tables('tonnage')).toEqual([[w.wasteId, 'General debris', 1, 2500]]);
    expect((await tables('utilisation'))[0]).toEqual([w.specId, '20 yd roll-off', 3, 12, 2, 1667]);
    expect(await tables('customers')).toEqual([
      [w.customer.id, 'A customer', 2, o.o1.total + o.o2.total],
      [customer2.id, 'A customer', 1, o.o5.total],
    ]);
    expect((await tables('dues'))[2]).toEqual(['31-60', o.o2.total - 20000]);
  });

  it('customer dashboard: on site, next jobs, balance and overdue, demerit, latest orders', async () => {
    const d = (await data(w.customer.token, 'customer/dashboard')) as Row;
    expect(d.currency).toBe('USD');
    expect((d.active_rentals as Row[]).map((r) => [r.id, r.status, r.delivered_on])).toEqual([[o.o2.id, 'delivered', today]]);
    // O2's pickup (in 2 days) is the only unfinished job of my orders.
    expect((d.next_jobs as Row[]).map((j) => [j.order_id, j.type, j.status, j.scheduled_date])).toEqual([[o.o2.id, 'pickup', 'unassigned', addDays(today, 2)]]);
    const o2Balance = o.o2.total - 20000;
    expect(d.balance).toEqual({ orders_count: 3, balance_amount: o.o1.total + o2Balance + o.o3.total, overdue_count: 1, overdue_amount: o2Balance });
    expect(d.demerit).toEqual({ points: 2, blocked: false });
    expect((d.recent_orders as Row[]).map((r) => r.id)).toEqual([o.o4.id, o.o3.id, o.o2.id, o.o1.id]);
    expect(d.recent_orders[0]).toMatchObject({ status: 'rejected', number: expect.stringMatching(/^ORD-\d{6}$/) });
    // Customer 2 sees only their own.
    const d2 = (await data(customer2.token, 'customer/dashboard')) as Row;
    expect((d2.recent_orders as Row[]).map((r) => r.id)).toEqual([o.o5.id]);
    expect(d2.next_jobs).toHaveLength(1);
  });

  it('driver dashboard and report (JSON and CSV)', async () => {
    const d = (await data(w.driver.token, 'driver/dashboard')) as Row;
    // Today: O1's delivery and pickup (O2's delivery was scheduled yesterday).
    expect(d).toMatchObject({ date: today, today: { total: 2, assigned: 0, in_progress: 0, completed: 2, progress_bps: 10000 }, attendance_status: 'checked_out', worked_minutes_today: 480 });
    expect(d.month).toMatchObject({ to: today, jobs: 3, km, net_kg: 2500, worked_minutes: 480 });

    const r = (await data(w.driver.token, `driver/report/get?from=${addDays(today, -1)}&to=${today}`)) as Row;
    expect(r.days).toEqual([
      { date: addDays(today, -1), jobs: 0, km: 0, net_kg: 0, worked_minutes: 0 },
      { date: today, jobs: 3, km, net_kg: 2500, worked_minutes: 480 },
    ]);
    expect(r.totals).toEqual({ jobs: 3, km, net_kg: 2500, worked_minutes: 480 });
    const month = (await data(w.driver.token, 'driver/report/get')) as Row;
    expect(month.from).toBe(`${today.slice(0, 7)}-01`);
    expect(month.totals).toEqual({ jobs: 3, km, net_kg: 2500, worked_minutes: 480 });

    const csv = await get(w.driver.token, `driver/report/download?from=${today}&to=${today}`).buffer(true).parse((res, cb) => {
      let s = '';
      res.on('data', (c: Buffer) => (s += c.toString()));
      res.on('end', () => cb(null, s));
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="driver-report-${today}-to-${today}.csv"`);
    expect(parse(csv.body as string, { columns: true })).toEqual([{ date: today, jobs: '3', km: String(km), net_kg: '2500', worked_minutes: '480' }]);
  });

  it('admin: dashboard, companies and customers reports (JSON and CSV)', async () => {
    const d = (await data(admin, `admin/dashboard?${range}`)) as Row;
    expect(d.companies).toEqual([{ key: 'active', total: 2, created: 2 }]);
    expect(d.users).toContainEqual({ type: 'customer', status: 'active', total: 2, created: 2 });
    expect(d.users).toContainEqual({ type: 'driver', status: 'active', total: 1, created: 1 });
    expect(d.orders).toBe(3);
    expect(d.gmv_amount).toBe(o.o1.total + o.o2.total + o.o5.total);
    expect(d.by_day[0]).toEqual({ date: today, orders: 2, gmv_amount: o.o1.total + o.o2.total });
    expect(d.plans).toEqual([]);

    const companies = await get(admin, `admin/get/companies/report?${range}`).expect(200);
    expect(companies.body.meta).toMatchObject({ total: 2 });
    const mine = (companies.body.data as Row[]).find((c) => c.company_id === w.company.companyId);
    expect(mine).toMatchObject({ name: 'Report Hauling', status: 'active', currency: 'USD', plan: 'free', plan_state: null, orders: 3, revenue_amount: o.o1.total + o.o2.total + o.o5.total, drivers: 1, assets: 3 });
    expect((companies.body.data as Row[]).find((c) => c.company_id === rival.companyId)).toMatchObject({ orders: 0, revenue_amount: 0, drivers: 0, assets: 0 });

    const customers = await get(admin, `admin/get/customers/report?${range}&company_id=${w.company.companyId}`).expect(200);
    const c1 = (customers.body.data as Row[]).find((c) => c.customer_id === w.customer.id);
    const o2Balance = o.o2.total - 20000;
    expect(c1).toMatchObject({ company_id: w.company.companyId, orders: 2, billed_amount: o.o1.total + o.o2.total, balance_amount: o.o1.total + o2Balance + o.o3.total, overdue_amount: o2Balance, demerit_points: 2 });
    expect(customers.body.meta.total).toBe(2);

    const csv = await get(admin, `admin/get/customers/report?${range}&company_id=${w.company.companyId}&format=csv`).buffer(true).parse((res, cb) => {
      let s = '';
      res.on('data', (c: Buffer) => (s += c.toString()));
      res.on('end', () => cb(null, s));
    });
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="customers-report-${from}-to-${to}.csv"`);
    const rows = parse(csv.body as string, { columns: true }) as Row[];
    expect(rows.map((r) => r.customer_id).sort()).toEqual([w.customer.id, customer2.id].sort());
    expect(rows.find((r) => r.customer_id === w.customer.id)).toMatchObject({ orders: '2', billed_amount: String(o.o1.total + o.o2.total), overdue_amount: String(o2Balance) });
    const companiesCsv = await get(admin, `admin/get/companies/report?${range}`, { Accept: 'text/csv' }).buffer(true).parse((res, cb) => {
      let s = '';
      res.on('data', (c: Buffer) => (s += c.toString()));
      res.on('end', () => cb(null, s));
    });
    expect((parse(companiesCsv.body as string, { columns: true }) as Row[]).find((r) => r.company_id === w.company.companyId)).toMatchObject({ orders: '3', assets: '3', plan: 'free', plan_state: '' });
  });

  it('access: each dashboard to its actor only; another company sees none of these figures', async () => {
    await get(w.customer.token, 'company/dashboard').expect(403);
    await get(w.driver.token, 'analytics').expect(403);
    await get(w.company.token, 'customer/dashboard').expect(403);
    await get(w.customer.token, 'driver/dashboard').expect(403);
    await get(w.driver.token, 'admin/dashboard').expect(403);
    await get(admin, 'company/dashboard').expect(403);
    await get(w.company.token, 'admin/get/customers/report').expect(403);
    await get('', 'reports').expect(401);
    const other = (await data(rival.token, `company/dashboard?${range}`)) as Row;
    expect(other.revenue.billed_amount).toBe(0);
    expect(other.top_customers).toEqual([]);
    expect(other.drivers).toEqual([]);
    expect(other.dues_ageing.orders_count).toBe(0);
  });

  it('backfill: the rollups rebuilt from the rows (the migration of an existing install) give the same figures', async () => {
    const paths: [string, string][] = [
      [w.company.token, `company/dashboard?${range}`],
      [w.company.token, `analytics?${range}`],
      [w.company.token, `reports?report=drivers&${range}`],
      [w.company.token, `reports?report=utilisation&${range}`],
      [w.customer.token, 'customer/dashboard'],
      [w.driver.token, 'driver/dashboard'],
      [admin, `admin/dashboard?${range}`],
      [admin, `admin/get/customers/report?${range}&company_id=${w.company.companyId}`],
    ];
    const figures = async () => Promise.all(paths.map(([token, path]) => data(token, path)));
    // A whole month reads the monthly cells of the per-dimension metrics: the same figures as its days so far (all completed today).
    const monthStart = `${today.slice(0, 7)}-01`;
    const monthEnd = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)).toISOString().slice(0, 10);
    for (const report of ['drivers', 'jobs', 'tonnage']) {
      const whole = (await data(w.company.token, `reports?report=${report}&from=${monthStart}&to=${monthEnd}`)) as Row;
      expect(whole.rows).toEqual(((await data(w.company.token, `reports?report=${report}&from=${monthStart}&to=${today}`)) as Row).rows);
      expect(whole.rows.length).toBeGreaterThan(0);
    }
    const before = await figures();
    const cells = await t.ds.query(`SELECT company_id, metric, day::text, dim, count, amount FROM report_daily_counters WHERE count <> 0 OR amount <> 0 ORDER BY 1, 2, 3, 4`);
    expect(await t.ds.query(`SELECT company_id, metric, month::text, dim, count::int, amount::bigint FROM report_monthly_counters WHERE count <> 0 OR amount <> 0 ORDER BY 1, 2, 3, 4`)).toEqual(
      await t.ds.query(`SELECT company_id, metric, date_trunc('month', day)::date::text AS month, dim, sum(count)::int AS count, sum(amount)::bigint AS amount FROM report_daily_counters
                         WHERE metric NOT IN ('dues', 'customer_dues', 'rent') GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0 OR sum(amount) <> 0 ORDER BY 1, 2, 3, 4`),
    );
    await t.ds.query(`TRUNCATE report_daily_counters, report_monthly_counters, report_order_facts`);
    expect(((await data(w.company.token, `company/dashboard?${range}`)) as Row).revenue.billed_amount).toBe(0);
    await backfillReportRollups(t.ds.manager);
    await rekeyBilledByFinalDay(t.ds.manager);
    expect(await figures()).toEqual(before);
    expect(await t.ds.query(`SELECT company_id, metric, day::text, dim, count, amount FROM report_daily_counters WHERE count <> 0 OR amount <> 0 ORDER BY 1, 2, 3, 4`)).toEqual(cells);
    // The monthly cells are the daily ones summed (kept so by the subscribers, and by the backfill).
    const monthly = `SELECT company_id, metric, month::text, dim, count::int, amount::bigint FROM report_monthly_counters WHERE count <> 0 OR amount <> 0 ORDER BY 1, 2, 3, 4`;
    const summed = `SELECT company_id, metric, date_trunc('month', day)::date::text AS month, dim, sum(count)::int AS count, sum(amount)::bigint AS amount FROM report_daily_counters
                     WHERE metric NOT IN ('dues', 'customer_dues', 'rent') GROUP BY 1, 2, 3, 4 HAVING sum(count) <> 0 OR sum(amount) <> 0 ORDER BY 1, 2, 3, 4`;
    expect(await t.ds.query(monthly)).toEqual(await t.ds.query(summed));
  });

  it('a later change moves the figures (last: it changes the world)', async () => {
    // O3 (pending, counted on its date with its balance) is rejected: it leaves pending and the dues.
    await coPost(t, w, `reject/order/${o.o3.id}`, { reason: 'Site not reachable.' }, 200, 'patch');
    const relay = t.app.get(OutboxRelay);
    while ((await relay.runOnce()).claimed > 0);
    const d = (await data(w.company.token, `company/dashboard?${range}`)) as Row;
    expect(Object.fromEntries((d.orders_by_status as Row[]).map((s) => [s.status, s.count]))).toMatchObject({ pending: 0, rejected: 2 });
    expect(d.dues_ageing).toMatchObject({ orders_count: 3, not_yet_due_amount: o.o1.total + o.o5.total });
    expect(d.revenue.billed_amount).toBe(o.o1.total + o.o2.total + o.o5.total);
    expect(((await data(w.customer.token, 'customer/dashboard')) as Row).balance.orders_count).toBe(2);
  });

  it('bad ranges and parameters are 422', async () => {
    const bad = await get(w.company.token, `company/dashboard?from=${today}&to=${addDays(today, -1)}`).expect(422);
    expect(bad.body.errors).toEqual({ to: ['must be on or after from'] });
    // 366 days (both included) is the most: 367 is refused.
    await get(w.company.token, `analytics?from=${addDays(today, -365)}&to=${today}`).expect(200);
    const long = await get(w.company.token, `analytics?from=${addDays(today, -366)}&to=${today}`).expect(422);
    expect(long.body.errors.to).toHaveLength(1);
    expect((await get(w.company.token, 'reports?from=2026-13-01').expect(422)).body.errors).toHaveProperty('from');
    expect((await get(w.company.token, 'reports?report=nope').expect(422)).body.errors).toHaveProperty('report');
    expect((await get(w.company.token, 'reports?format=xml').expect(422)).body.errors).toHaveProperty('format');
    await get(w.driver.token, `driver/report/download?from=${today}&to=${addDays(today, -3)}`).expect(422);
    await get(admin, `admin/get/companies/report?from=${addDays(today, -400)}&to=${today}&format=csv`).expect(422);
    await get(admin, 'admin/get/customers/report?company_id=nope').expect(422);
  });
});
