import { Logger } from '@nestjs/common';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { OverdueOrders } from '../../src/modules/payments/ledger/overdue-orders';
import { MoneyJobs } from '../../src/modules/payments/scheduler/money-jobs';
import { PaymentReconciler } from '../../src/modules/payments/ledger/payment-reconciler';
import { GRACE_DAYS, SubscriptionRenewals } from '../../src/modules/payments/subscriptions/subscription-renewals';
import { companyActor, CompanyActor, PASSWORD, uniqueEmail } from '../support/actors';
import { orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
const PSP = '/api/v1/psp';
const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Money over time (issue #13, README "Scheduled work"): subscription renewals (success, decline → past_due
 * → retries → free plan after the grace period), cancel at period end, trial end, overdue orders (one
 * notice per order, due date and step), the monthly orders limit at placement and `company.plan_limit_near`.
 * Time moves by passing `now` to the jobs' service methods; the scheduler itself is off (startTestApp).
 */
describe('Scheduled money: renewals, overdue orders, monthly order limit', () => {
  let t: TestApp;
  let w: OrderWorld;
  let renewals: SubscriptionRenewals;
  let overdue: OverdueOrders;
  let paying: CompanyActor;
  let cancelling: CompanyActor;
  let trying: CompanyActor;
  let sub: any;
  let cancelled: any;

  beforeAll(async () => {
    t = await startTestApp();
    renewals = t.app.get(SubscriptionRenewals);
    overdue = t.app.get(OverdueOrders);
    [w, paying, cancelling, trying] = await Promise.all([orderWorld(t, { name: 'Overdue Hauling' }), companyActor(t, 'Paying Hauling'), companyActor(t, 'Cancelling Hauling'), companyActor(t, 'Trying Hauling')]);
    // Small free limits in this database: one driver, five orders a month.
    await t.ds.query(`UPDATE plans SET max_drivers = 1, max_monthly_orders = 5 WHERE code = 'free'`);
    [sub, cancelled] = await Promise.all([
      t.req('post', `${PSP}/subscription/starter/create`, { token: paying.token, body: { token: 'tok_visa' } }).expect(201).then((r) => r.body.data),
      t.req('post', `${PSP}/subscription/pro/create`, { token: cancelling.token, body: { token: 'tok_visa' } }).expect(201).then((r) => r.body.data),
      t.req('post', `${PSP}/plans/starter/trial`, { token: trying.token }).expect(201),
    ]);
    await t.req('delete', `${PSP}/subscription/${cancelled.id}/cancel`, { token: cancelling.token }).expect(200);
  }, 120_000);
  afterAll(async () => t?.close());

  const events = async (type: string, aggregateId?: string) =>
    (await t.ds.query(`SELECT aggregate_id, payload FROM outbox_events WHERE type = $1 AND ($2::uuid IS NULL OR aggregate_id = $2) ORDER BY created_at`, [type, aggregateId ?? null])) as { aggregate_id: string; payload: any }[];
  const current = async (c: CompanyActor) => (await t.req('get', `${PSP}/subscription`, { token: c.token }).expect(200)).body.data;
  const newDriver = (c: CompanyActor) => t.req('post', '/api/v1/driver/create', { token: c.token, body: { name: 'A driver', email: uniqueEmail('driver'), password: PASSWORD } });
  const charges = async (subscriptionId: string) =>
    (await t.ds.query(`SELECT period_number, attempt, status, failure_code, idempotency_key, amount FROM subscription_charges WHERE subscription_id = $1 ORDER BY created_at, attempt`, [subscriptionId])) as any[];

  describe('the jobs', () => {
    it('are unscheduled in the app under test (SCHEDULER_ENABLED=false)', () => {
      expect(t.app.get(SchedulerRegistry).getCronJobs().size).toBe(0);
    });

    it('with the scheduler on: the three crons registered; a run calls its service with the time and logs one summary line (or the failure)', async () => {
      const renewalsRun = jest.fn(async (_now: Date) => ({ due: 1, renewed: 1 }));
      const overdueRun = jest.fn(async (_now: Date): Promise<object> => Promise.reject(new Error('database unavailable')));
      const mod = await Test.createTestingModule({
        imports: [ScheduleModule.forRoot()],
        providers: [MoneyJobs, { provide: SubscriptionRenewals, useValue: { run: renewalsRun } }, { provide: OverdueOrders, useValue: { run: overdueRun } }, { provide: PaymentReconciler, useValue: { run: jest.fn(async () => ({ checked: 0 })) } }],
      }).compile();
      await mod.init();
      const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      try {
        expect([...mod.get(SchedulerRegistry).getCronJobs().keys()].sort()).toEqual(['overdue-orders', 'payment-reconciler', 'subscription-renewals']);
        const before = Date.now();
        await mod.get(MoneyJobs).renewSubscriptions();
        await mod.get(MoneyJobs).markOverdueOrders();
        expect(renewalsRun.mock.calls[0][0].getTime()).toBeGreaterThanOrEqual(before);
        expect(log).toHaveBeenCalledWith(expect.objectContaining({ job: 'subscription renewals', due: 1, renewed: 1, duration_ms: expect.any(Number) }));
        expect(error).toHaveBeenCalledWith(expect.objectContaining({ job: 'overdue orders', error: 'database unavailable' }));
      } finally {
        log.mockRestore();
        error.mockRestore();
        await mod.close();
      }
    });
  });

  describe('subscriptions', () => {
    it('at the period end: renews the paid one (period extended, charge recorded), ends the cancelled one and the trial', async () => {
      const end = new Date(sub.current_period_end);
      expect(await charges(sub.id)).toEqual([expect.objectContaining({ period_number: 1, attempt: 1, status: 'succeeded', idempotency_key: `subscription:${sub.id}:period:1` })]);
      // Before the end nothing is due (the trial ends earlier: 14 days).
      expect(await renewals.run(new Date(end.getTime() - DAY))).toMatchObject({ renewed: 0, ended: 1 });
      expect((await events('subscription.cancelled')).map((e) => e.payload.reason)).toEqual(['trial_ended']);
      expect(await current(trying)).toMatchObject({ id: null, plan: { code: 'free' } });

      // Two instances at once: each subscription is claimed by one of them (SKIP LOCKED), charged once.
      const [a, b] = await Promise.all([renewals.run(new Date(end.getTime() + MINUTE)), renewals.run(new Date(end.getTime() + MINUTE))]);
      expect({ renewed: a.renewed + b.renewed, ended: a.ended + b.ended, past_due: a.past_due + b.past_due }).toEqual({ renewed: 1, ended: 1, past_due: 0 });
      const renewed = await current(paying);
      expect(renewed).toMatchObject({ id: sub.id, state: 'active', plan: { code: 'starter' }, current_period_start: sub.current_period_end, grace_ends_at: null });
      expect(new Date(renewed.current_period_end).getTime()).toBeGreaterThan(end.getTime() + 27 * DAY);
      expect((await charges(sub.id))[1]).toMatchObject({ period_number: 2, attempt: 1, status: 'succeeded', amount: 4900, idempotency_key: `subscription:${sub.id}:period:2` });
      const [ev] = await events('subscription.renewed', sub.id);
      expect(ev.payload).toMatchObject({ plan: 'starter', amount: 4900, period: 2, period_end: renewed.current_period_end, attempt: 1 });

      // Cancelled at period end: ended, not charged.
      expect(await current(cancelling)).toMatchObject({ id: null, plan: { code: 'free' } });
      expect(await charges(cancelled.id)).toHaveLength(1);
      expect((await events('subscription.cancelled', cancelled.id))[0].payload).toMatchObject({ plan: 'pro', reason: 'cancel_at_period_end' });

      // A second run at the same time finds nothing.
      expect(await renewals.run(new Date(end.getTime() + MINUTE))).toMatchObject({ due: 0 });
      sub = renewed;
    });

    it('a declined renewal: past_due (plan kept), retried daily with a new key, then the free plan after the grace period', async () => {
      // The card on file now declines (a card that expired, say).
      await t.ds.query(`UPDATE subscriptions SET instrument_reference = 'pm_sbx_tok_declined_0123abcd' WHERE id = $1`, [sub.id]);
      await newDriver(paying).expect(201); // the starter plan allows it (free: 1)
      const end = new Date(sub.current_period_end);

      expect(await renewals.run(new Date(end.getTime() + MINUTE))).toMatchObject({ past_due: 1, renewed: 0 });
      const pastDue = await current(paying);
      expect(pastDue).toMatchObject({ id: sub.id, state: 'past_due', last_failure_code: 'card_declined', current_period_end: sub.current_period_end });
      expect(new Date(pastDue.grace_ends_at).getTime()).toBe(end.getTime() + GRACE_DAYS * DAY);
      expect((await events('subscription.past_due', sub.id))[0].payload).toMatchObject({ plan: 'starter', failure_code: 'card_declined', grace_ends_at: pastDue.grace_ends_at });
      await newDriver(paying).expect(201); // still the starter plan during the grace period

      // Not again before the next day; then a retry with its own key, still declined (no new event).
      expect(await renewals.run(new Date(end.getTime() + 2 * MINUTE))).toMatchObject({ due: 0 });
      expect(await renewals.run(new Date(end.getTime() + DAY + 2 * MINUTE))).toMatchObject({ retries_failed: 1 });
      expect((await charges(sub.id)).slice(2)).toEqual([
        expect.objectContaining({ period_number: 3, attempt: 1, status: 'failed', failure_code: 'card_declined', idempotency_key: `subscription:${sub.id}:period:3` }),
        expect.objectContaining({ period_number: 3, attempt: 2, status: 'failed', idempotency_key: `subscription:${sub.id}:period:3:retry:1` }),
      ]);
      expect(await events('subscription.past_due', sub.id)).toHaveLength(1);

      // The grace period runs out: cancelled, the free plan's limits (one driver) apply.
      expect(await renewals.run(new Date(end.getTime() + GRACE_DAYS * DAY + MINUTE))).toMatchObject({ ended: 1 });
      expect(await current(paying)).toMatchObject({ id: null, plan: { code: 'free' } });
      expect((await events('subscription.cancelled', sub.id))[0].payload).toMatchObject({ plan: 'starter', reason: 'grace_expired' });
      const limited = await newDriver(paying).expect(403);
      expect(limited.body).toMatchObject({ code: 'PLAN_LIMIT', errors: { limit: ['1'], plan: ['free'] } });
      expect(await renewals.run(new Date(end.getTime() + 40 * DAY))).toMatchObject({ due: 0 });
    });

    it('a past_due company pays by subscribing again with another card (the past_due one is replaced), or cancels (ended at once)', async () => {
      const rescuing = await companyActor(t, 'Rescuing Hauling');
      const first = (await t.req('post', `${PSP}/subscription/starter/create`, { token: rescuing.token, body: { token: 'tok_visa' } }).expect(201)).body.data;
      await t.ds.query(`UPDATE subscriptions SET instrument_reference = 'pm_sbx_tok_insufficient_funds_0123abcd' WHERE id = $1`, [first.id]);
      expect(await renewals.run(new Date(new Date(first.current_period_end).getTime() + MINUTE))).toMatchObject({ due: 1, past_due: 1 });
      expect(await current(rescuing)).toMatchObject({ id: first.id, state: 'past_due', last_failure_code: 'insufficient_funds' });
      const again = (await t.req('post', `${PSP}/subscription/pro/create`, { token: rescuing.token, body: { token: 'tok_visa' } }).expect(201)).body.data;
      expect(again).toMatchObject({ state: 'active', plan: { code: 'pro' } });
      expect(await current(rescuing)).toMatchObject({ id: again.id, state: 'active' });
      expect((await t.ds.query(`SELECT state FROM subscriptions WHERE id = $1`, [first.id]))[0].state).toBe('cancelled');

      // Cancelling a past_due subscription ends it at once (its period is over): the free plan.
      await t.ds.query(`UPDATE subscriptions SET instrument_reference = 'pm_sbx_tok_declined_0123abcd' WHERE id = $1`, [again.id]);
      expect(await renewals.run(new Date(new Date(again.current_period_end).getTime() + MINUTE))).toMatchObject({ due: 1, past_due: 1 });
      const ended = (await t.req('delete', `${PSP}/subscription/${again.id}/cancel`, { token: rescuing.token }).expect(200)).body.data;
      expect(ended).toMatchObject({ id: again.id, state: 'cancelled', cancel_at_period_end: true });
      expect((await events('subscription.cancelled', again.id))[0].payload).toMatchObject({ plan: 'pro', reason: 'cancelled_past_due' });
      expect(await current(rescuing)).toMatchObject({ id: null, plan: { code: 'free' } });
    });
  });

  describe('orders', () => {
    let orders: any[];

    it('monthly orders: company.plan_limit_near at 80 %, then 403 PLAN_LIMIT at placement', async () => {
      orders = [];
      for (let i = 0; i < 5; i++) orders.push(await placeOrder(t, w));
      const near = await events('company.plan_limit_near', w.company.companyId);
      expect(near).toHaveLength(1);
      expect(near[0].payload).toEqual({ resource: 'monthly_orders', used: 4, limit: 5, plan: 'free' });
      const refused = await t.req('post', '/api/v1/customer/orders', { token: w.customer.token, body: { address_id: w.addressId, asset_specification_id: w.specId, waste_type_id: w.wasteId, delivery_date: orders[0].delivery_date } }).expect(403);
      expect(refused.body).toMatchObject({ code: 'PLAN_LIMIT', errors: { limit: ['5'], plan: ['free'] } });
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM orders WHERE company_id = $1`, [w.company.companyId]))[0].n).toBe(5);
    });

    it('overdue: one order.overdue per unpaid order and due date, reminders at 7 and 30 days, never twice', async () => {
      // One order is settled offline: never overdue.
      await t.req('post', '/api/v1/customers/orders/payment-received', { token: w.company.token, body: { order_id: orders[0].id, method: 'cash', reference: 'R-1' } }).expect(201);
      const due = new Date(`${orders[1].due_date}T12:00:00Z`).getTime();
      const unpaid = orders.slice(1).map((o) => o.id).sort();

      expect(await overdue.run(new Date(due))).toMatchObject({ marked: 0 }); // due today: not yet overdue
      // Two instances at once: every order noticed once.
      const [a, b] = await Promise.all([overdue.run(new Date(due + DAY)), overdue.run(new Date(due + DAY))]);
      expect([a.marked + b.marked, a.reminders + b.reminders]).toEqual([4, 0]);
      let marked = await events('order.overdue');
      expect(marked.map((e) => e.aggregate_id).sort()).toEqual(unpaid);
      expect(marked[0].payload).toMatchObject({ customer_id: w.customer.id, due_date: orders[1].due_date, days_overdue: 1, notice: 1, currency: 'USD' });
      expect(marked.find((e) => e.aggregate_id === orders[1].id)!.payload.balance_amount).toBe(orders[1].total_amount);

      expect(await overdue.run(new Date(due + DAY))).toMatchObject({ marked: 0, reminders: 0 }); // run twice: nothing new
      expect(await overdue.run(new Date(due + 3 * DAY))).toMatchObject({ marked: 0, reminders: 0 });
      expect(await overdue.run(new Date(due + 7 * DAY))).toMatchObject({ reminders: 4 });
      expect(await overdue.run(new Date(due + 45 * DAY))).toMatchObject({ reminders: 4 });
      expect(await overdue.run(new Date(due + 46 * DAY))).toMatchObject({ companies: 0, marked: 0, reminders: 0 });
      marked = await events('order.overdue');
      expect(marked).toHaveLength(12);
      expect(marked.slice(8).map((e) => [e.payload.notice, e.payload.days_overdue])).toEqual(Array(4).fill([3, 45]));
    });
  });
});
