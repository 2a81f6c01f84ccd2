import { OverdueOrders } from '../../src/modules/payments/ledger/overdue-orders';
import { SubscriptionRenewals } from '../../src/modules/payments/subscriptions/subscription-renewals';
import { companyActor, CompanyActor } from '../support/actors';
import { orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
const PSP = '/api/v1/psp';
const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Issue #29 part 4 (docs/fleet.md "Fleet test"): each scheduled job runs once per due item with three
 * schedulers. Three apps on one PostgreSQL database run the scheduled jobs' service methods
 * (src/modules/payments/scheduler/money-jobs.ts: `SubscriptionRenewals.run(now)`, `OverdueOrders.run(now)`)
 * at the same time with the same `now`: every due subscription is charged once and every overdue order
 * noticed once (the services claim rows with `FOR UPDATE SKIP LOCKED`). In-process rather than with built
 * servers: the jobs take their time as an argument, so the test passes the same `now` to all three.
 * PostgreSQL only (the embedded database is one process by construction).
 */
describe('scheduled jobs with three schedulers on one PostgreSQL database', () => {
  let apps: TestApp[] = [];
  let postgres = true;
  let w: OrderWorld;
  let payers: CompanyActor[];
  let subs: any[];
  let orders: any[];

  beforeAll(async () => {
    postgres = (await testDatabaseKind()) === 'postgres';
    if (!postgres) return;
    const a = await startTestApp();
    apps = [a, await startTestApp({ databaseUrl: a.config.databaseUrl }), await startTestApp({ databaseUrl: a.config.databaseUrl })];
    w = await orderWorld(a, { name: 'Fleet Overdue Hauling' });
    payers = await Promise.all([1, 2, 3, 4].map((i) => companyActor(apps[i % 3], `Fleet Payer ${i}`)));
    subs = await Promise.all(
      payers.map(async (c, i) => (await apps[i % 3].req('post', `${PSP}/subscription/starter/create`, { token: c.token, body: { token: 'tok_visa' } }).expect(201)).body.data),
    );
    orders = [];
    for (let i = 0; i < 6; i++) orders.push(await placeOrder(apps[i % 3], w));
  }, 180_000);
  afterAll(async () => {
    // The first app owns (and drops) the database: close it last.
    for (const t of apps.slice().reverse()) await t.close();
  });

  const count = async (type: string) =>
    (await apps[0].ds.query(`SELECT aggregate_id, count(*)::int AS n FROM outbox_events WHERE type = $1 GROUP BY 1 ORDER BY 1`, [type])) as { aggregate_id: string; n: number }[];

  it('overdue orders: three runs at once with the same now notice each order once (order.overdue ×1 per order)', async () => {
    if (!postgres) return;
    const due = new Date(`${orders[0].due_date}T12:00:00Z`).getTime();
    const now = new Date(due + DAY);
    const runs = await Promise.all(apps.map((t) => t.app.get(OverdueOrders).run(now, 2)));
    expect(runs.reduce((s, r) => s + r.marked, 0)).toBe(orders.length);
    expect(await count('order.overdue')).toEqual(orders.map((o) => ({ aggregate_id: o.id, n: 1 })).sort((x, y) => x.aggregate_id.localeCompare(y.aggregate_id)));
    // Again, three at once: nothing new.
    const again = await Promise.all(apps.map((t) => t.app.get(OverdueOrders).run(now, 2)));
    expect(again.reduce((s, r) => s + r.marked + r.reminders, 0)).toBe(0);
    // The 7-day reminder: once per order too.
    const later = await Promise.all(apps.map((t) => t.app.get(OverdueOrders).run(new Date(due + 7 * DAY), 2)));
    expect(later.reduce((s, r) => s + r.reminders, 0)).toBe(orders.length);
    expect((await count('order.overdue')).map((r) => r.n)).toEqual(orders.map(() => 2));
    process.stdout.write(`fleet scheduler: overdue marked per instance ${runs.map((r) => r.marked).join('/')}, reminders ${later.map((r) => r.reminders).join('/')}\n`);
  });

  it('subscription renewals: three runs at once with the same now charge each due subscription once', async () => {
    if (!postgres) return;
    const end = Math.max(...subs.map((s) => new Date(s.current_period_end).getTime()));
    const now = new Date(end + MINUTE);
    const runs = await Promise.all(apps.map((t) => t.app.get(SubscriptionRenewals).run(now)));
    expect(runs.reduce((s, r) => s + r.renewed, 0)).toBe(subs.length);
    expect(runs.reduce((s, r) => s + r.past_due + r.ended + r.skipped, 0)).toBe(0);
    const charges = (await apps[0].ds.query(
      `SELECT subscription_id, period_number, count(*)::int AS n FROM subscription_charges WHERE subscription_id = ANY($1::uuid[]) GROUP BY 1, 2 ORDER BY 1, 2`,
      [subs.map((s) => s.id)],
    )) as { subscription_id: string; period_number: number; n: number }[];
    expect(charges.filter((c) => c.n !== 1)).toEqual([]);
    expect(charges.filter((c) => c.period_number === 2).map((c) => c.subscription_id).sort()).toEqual(subs.map((s) => s.id).sort());
    expect((await count('subscription.renewed')).filter((r) => subs.some((s) => s.id === r.aggregate_id))).toEqual(subs.map((s) => ({ aggregate_id: s.id, n: 1 })).sort((x, y) => x.aggregate_id.localeCompare(y.aggregate_id)));
    const again = await Promise.all(apps.map((t) => t.app.get(SubscriptionRenewals).run(now)));
    expect(again.reduce((s, r) => s + r.due, 0)).toBe(0);
    process.stdout.write(`fleet scheduler: renewals per instance ${runs.map((r) => r.renewed).join('/')}\n`);
  });
});
