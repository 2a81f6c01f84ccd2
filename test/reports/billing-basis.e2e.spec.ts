import { backfillReportRollups } from '../../migrations/1764400006000-Reports';
import { rekeyBilledByFinalDay } from '../../migrations/1764400006731-ReportBillingBasis';
import { OutboxRelay } from '../../src/common/outbox/outbox-relay';
import { approvedOrder, assignOrder, dispatchWorld, DispatchWorld } from '../support/dispatch-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, any>;
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Billing basis `completed_on`: an order's bill counts on the day it became final. An order planned for
 * tomorrow, delivered and picked up today (the driver came a day early), is billed today with its final
 * bill, in the dashboard, the analytics series, the revenue and customers reports and the admin figures;
 * tomorrow shows nothing of it. The migration's re-keying gives the same cells as the subscribers.
 */
describe('Reports: billing counted on the day the bill became final', () => {
  let t: TestApp;
  let w: DispatchWorld;
  let today: string;
  let total: number;
  const data = async (path: string, token = w.company.token) => {
    const r = await t.req('get', `/api/v1/${path}`, { token });
    if (r.status !== 200) throw new Error(`GET ${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const relay = async () => {
    while ((await t.app.get(OutboxRelay).runOnce()).claimed > 0);
  };

  beforeAll(async () => {
    t = await startTestApp();
    w = await dispatchWorld(t, { name: 'Early Bird Hauling', settings: { order_lead_time_days: 0 } });
    today = (await data('company/dashboard')).to; // the company's today
    const driver = (path: string, body?: unknown) => t.req('post', `/api/v1/${path}`, { token: w.driver.token, body });
    const o = await approvedOrder(t, w, { delivery_date: addDays(today, 1), pickup_date: addDays(today, 1) });
    // The crew had room today: both jobs done a day before the planned delivery.
    await t.ds.query(`UPDATE jobs SET scheduled_date = $2 WHERE order_id = $1`, [o.id, today]);
    await driver('driver/check-in', { lat: 40.0, lng: -89.0, truck_id: w.truckId }).expect(201);
    await assignOrder(t, w, o.id);
    await driver(`driver/jobs/${o.deliveryJobId}/start`).expect(200);
    await driver(`driver/jobs/${o.deliveryJobId}/evidence`, { kind: 'photo', url: 'https://files.example.test/early.jpg' }).expect(201);
    await driver(`driver/jobs/${o.deliveryJobId}/complete`).expect(200);
    await assignOrder(t, w, o.id); // the pickup, now that the container is on site
    await driver(`driver/jobs/${o.pickupJobId}/start`).expect(200);
    await driver(`driver/jobs/${o.pickupJobId}/evidence`, { kind: 'ticket', station_id: w.stationId, ticket_number: 'T-EARLY', gross_kg: 11400, tare_kg: 8900 }).expect(201);
    await driver(`driver/jobs/${o.pickupJobId}/complete`).expect(200);
    const order = await data(`order/${o.id}`);
    expect(order.status).toBe('completed');
    expect(order.delivery_date).toBe(addDays(today, 1));
    total = order.total_amount;
    expect(total).toBeGreaterThan(0);
    await relay();
  });
  afterAll(async () => t?.close());

  const figures = async () => {
    const day = await data(`company/dashboard?from=${today}&to=${today}`);
    const next = await data(`company/dashboard?from=${addDays(today, 1)}&to=${addDays(today, 1)}`);
    const revenue = await data(`reports?report=revenue&from=${today}&to=${addDays(today, 1)}`);
    const customers = await data(`reports?report=customers&from=${today}&to=${today}`);
    const analytics = await data(`analytics?from=${today}&to=${addDays(today, 1)}`);
    return { day, next, revenue, customers, analytics };
  };

  it("shows an order completed today, planned for tomorrow, in today's billed amount, and says the basis", async () => {
    const { day, next, revenue, customers, analytics } = await figures();
    expect(day.revenue).toMatchObject({ billing_basis: 'completed_on', billed_amount: total, by_day: [{ date: today, billed_amount: total, collected_amount: 0 }] });
    expect(day.top_customers).toEqual([expect.objectContaining({ customer_id: w.customer.id, orders: 1, billed_amount: total })]);
    expect(next.revenue.billed_amount).toBe(0);
    expect(revenue).toMatchObject({ billing_basis: 'completed_on', rows: [[today, total, 0, 1], [addDays(today, 1), 0, 0, 0]] });
    expect(customers.rows).toEqual([[w.customer.id, expect.any(String), 1, total]]);
    expect(analytics.billing_basis).toBe('completed_on');
    expect(analytics.series.find((s: Row) => s.name === 'billed_amount').points).toEqual([[today, total], [addDays(today, 1), 0]]);
  });

  it('the migration re-keys rollups counted by the planned date to the same cells', async () => {
    const before = await figures();
    const cells = `SELECT metric, day::text, dim, count, amount FROM report_daily_counters WHERE company_id = $1 AND (count <> 0 OR amount <> 0) ORDER BY 1, 2, 3`;
    const kept = await t.ds.query(cells, [w.company.companyId]);
    // The Reports migration's backfill keys billing by the planned date (tomorrow) …
    await t.ds.query(`TRUNCATE report_daily_counters, report_monthly_counters, report_order_facts`);
    await backfillReportRollups(t.ds.manager);
    expect((await figures()).next.revenue.billed_amount).toBe(total);
    // … and the billing basis migration moves it to the day the bill became final, as the subscribers do.
    await rekeyBilledByFinalDay(t.ds.manager);
    expect(await figures()).toEqual(before);
    expect(await t.ds.query(cells, [w.company.companyId])).toEqual(kept);
    await rekeyBilledByFinalDay(t.ds.manager); // again: the same rows
    expect(await t.ds.query(cells, [w.company.companyId])).toEqual(kept);
  });
});
