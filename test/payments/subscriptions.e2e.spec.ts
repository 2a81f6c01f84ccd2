import { SandboxPaymentProvider } from '../../src/modules/payments/provider/sandbox-provider';
import { companyActor, CompanyActor, memberActor, MemberActor, PASSWORD, uniqueEmail } from '../support/actors';
import { orderWorld } from '../support/order-fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
const PSP = '/api/v1/psp';

/**
 * Subscriptions and plans (issue #13): GET /psp/plans, POST /psp/plans/{plan}/trial, GET /psp/subscription,
 * POST /psp/subscription/{plan}/create, DELETE /psp/subscription/{subscriptionId}/cancel (all CO), and the
 * plan limit on drivers (403 PLAN_LIMIT) lifted by a trial of a bigger plan.
 */
describe('Subscriptions and plans', () => {
  let t: TestApp;
  let co: CompanyActor;
  let other: CompanyActor;
  let customer: MemberActor;
  let driver: MemberActor;

  beforeAll(async () => {
    t = await startTestApp();
    co = await companyActor(t, 'Plans Hauling');
    other = await companyActor(t, 'Other Plans Hauling');
    customer = await memberActor(t, co, 'customer');
    driver = await memberActor(t, co, 'driver');
  }, 120_000);
  afterAll(async () => t?.close());

  const newDriver = (c: CompanyActor) => t.req('post', '/api/v1/driver/create', { token: c.token, body: { name: 'A driver', email: uniqueEmail('driver'), password: PASSWORD } });

  it('lists the seeded plans with prices, trials and limits', async () => {
    const plans = (await t.req('get', `${PSP}/plans`, { token: co.token }).expect(200)).body.data;
    expect(plans.map((p: any) => p.code)).toEqual(['free', 'starter', 'pro']);
    expect(plans[0]).toMatchObject({ price: 0, trial_days: 0, interval: 'month', limits: { drivers: 20, assets: 100, monthly_orders: 300 } });
    expect(plans[1]).toMatchObject({ price: 4900, currency: 'USD', trial_days: 14, limits: { drivers: 50, assets: 500 } });
  });

  it("answers the free plan's implied subscription without one", async () => {
    const sub = (await t.req('get', `${PSP}/subscription`, { token: other.token }).expect(200)).body.data;
    expect(sub).toMatchObject({ id: null, state: 'active', trial: false, amount: 0, plan: { code: 'free' } });
  });

  it('refuses customers and drivers (403), unknown plans (404) and bad input (422)', async () => {
    for (const who of [customer, driver]) {
      await t.req('get', `${PSP}/plans`, { token: who.token }).expect(403);
      await t.req('get', `${PSP}/subscription`, { token: who.token }).expect(403);
      await t.req('post', `${PSP}/plans/starter/trial`, { token: who.token }).expect(403);
      await t.req('post', `${PSP}/subscription/starter/create`, { token: who.token, body: { token: 'tok_visa' } }).expect(403);
    }
    await t.req('post', `${PSP}/plans/platinum/trial`, { token: other.token }).expect(404);
    await t.req('post', `${PSP}/subscription/platinum/create`, { token: other.token, body: { token: 'tok_visa' } }).expect(404);
    const missing = await t.req('post', `${PSP}/subscription/starter/create`, { token: other.token, body: {} }).expect(422);
    expect(missing.body.errors.token).toBeDefined();
    await t.req('post', `${PSP}/subscription/starter/create`, { token: other.token, body: { token: 'tok_visa', extra: 1 } }).expect(422);
    const bad = await t.req('post', `${PSP}/subscription/starter/create`, { token: other.token, body: { token: 'tok_nonsense' } }).expect(422);
    expect(bad.body.code).toBe('INVALID_PAYMENT_TOKEN');
    await t.req('delete', `${PSP}/subscription/not-a-uuid/cancel`, { token: other.token }).expect(404);
    const free = await t.req('post', `${PSP}/subscription/free/create`, { token: other.token, body: { token: 'tok_visa' } }).expect(409);
    expect(free.body.code).toBe('PLAN_NOT_PURCHASABLE');
  });

  it('a declined card is 409 PAYMENT_FAILED and records nothing; tok_visa subscribes; cancel at period end', async () => {
    const declined = await t.req('post', `${PSP}/subscription/pro/create`, { token: other.token, body: { token: 'tok_declined' } }).expect(409);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_FAILED', errors: { token: ['card_declined'] } });
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM subscriptions WHERE company_id = $1`, [other.companyId]))[0].n).toBe(0);

    const sub = (await t.req('post', `${PSP}/subscription/pro/create`, { token: other.token, body: { token: 'tok_visa' } }).expect(201)).body.data;
    expect(sub).toMatchObject({ state: 'active', trial: false, amount: 14900, currency: 'USD', cancel_at_period_end: false, plan: { code: 'pro' } });
    expect(new Date(sub.current_period_end).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    expect((await t.req('get', `${PSP}/subscription`, { token: other.token }).expect(200)).body.data.id).toBe(sub.id);
    const again = await t.req('post', `${PSP}/subscription/starter/create`, { token: other.token, body: { token: 'tok_visa' } }).expect(409);
    expect(again.body.code).toBe('SUBSCRIPTION_EXISTS');

    // Another company cannot see or cancel it.
    await t.req('delete', `${PSP}/subscription/${sub.id}/cancel`, { token: co.token }).expect(404);

    const cancelled = (await t.req('delete', `${PSP}/subscription/${sub.id}/cancel`, { token: other.token }).expect(200)).body.data;
    expect(cancelled).toMatchObject({ id: sub.id, state: 'active', cancel_at_period_end: true, current_period_end: sub.current_period_end });
    expect(cancelled.cancelled_at).toEqual(expect.any(String));
    // Still in force until the period ends; asking again answers the same.
    expect((await t.req('get', `${PSP}/subscription`, { token: other.token }).expect(200)).body.data).toMatchObject({ id: sub.id, plan: { code: 'pro' }, cancel_at_period_end: true });
    await t.req('delete', `${PSP}/subscription/${sub.id}/cancel`, { token: other.token }).expect(200);
    await t.req('delete', `${PSP}/subscription/${sub.id}/cancel`, { token: customer.token }).expect(403);
    const events = await t.ds.query(`SELECT type FROM outbox_events WHERE aggregate_id = $1 ORDER BY created_at, id`, [sub.id]);
    expect(events.map((e: any) => e.type)).toEqual(['subscription.activated', 'subscription.cancel_scheduled']);
  });

  it('a company on the free plan gets PLAN_LIMIT on its next driver, starts a trial and can add it; one trial ever', async () => {
    // The free plan allows 20 drivers; `co` has one (beforeAll).
    for (let i = 1; i < 20; i++) await newDriver(co).expect(201);
    const limited = await newDriver(co).expect(403);
    expect(limited.body).toMatchObject({ code: 'PLAN_LIMIT', errors: { limit: ['20'], plan: ['free'] } });

    const trial = (await t.req('post', `${PSP}/plans/starter/trial`, { token: co.token }).expect(201)).body.data;
    expect(trial).toMatchObject({ state: 'trialing', trial: true, amount: 0, plan: { code: 'starter' } });
    expect(new Date(trial.current_period_end).getTime() - new Date(trial.current_period_start).getTime()).toBe(14 * 86_400_000);
    await newDriver(co).expect(201);

    const twice = await t.req('post', `${PSP}/plans/pro/trial`, { token: co.token }).expect(409);
    expect(twice.body.code).toBe('TRIAL_USED');
    // Subscribing replaces the trial; the trial is still the one trial ever.
    const sub = (await t.req('post', `${PSP}/subscription/starter/create`, { token: co.token, body: { token: 'tok_visa' } }).expect(201)).body.data;
    expect(sub).toMatchObject({ state: 'active', trial: false, plan: { code: 'starter' } });
    const states = await t.ds.query(`SELECT state, is_trial FROM subscriptions WHERE company_id = $1 ORDER BY created_at`, [co.companyId]);
    expect(states).toEqual([{ state: 'cancelled', is_trial: true }, { state: 'active', is_trial: false }]);
    expect((await t.req('post', `${PSP}/plans/starter/trial`, { token: co.token }).expect(409)).body.code).toBe('TRIAL_USED');
  });

  it('limits assets too: the free plan allows 100 (403 PLAN_LIMIT on the 101st)', async () => {
    const w = await orderWorld(t, { name: 'Asset Limit Hauling' });
    const asset = (i: number) => t.req('post', '/api/v1/assets', { token: w.company.token, body: { code: `LIM-${String(i).padStart(3, '0')}`, asset_specification_id: w.specId } });
    const have = (await t.ds.query(`SELECT count(*)::int AS n FROM assets WHERE company_id = $1 AND deleted_at IS NULL`, [w.company.companyId]))[0].n;
    for (let i = have; i < 100; i++) await asset(i).expect(201);
    const limited = await asset(100).expect(403);
    expect(limited.body).toMatchObject({ code: 'PLAN_LIMIT', errors: { limit: ['100'], plan: ['free'] } });
  }, 60_000);

  it('two subscribes at once (the provider called with no transaction open): one wins, the other is 409 (pending or exists) and charges nothing', async () => {
    const third = await companyActor(t, 'Racing Plans Hauling');
    const sandbox = t.app.get(SandboxPaymentProvider);
    const before = sandbox.refundsMade().length;
    const answers = await Promise.all([0, 1].map(() => t.req('post', `${PSP}/subscription/starter/create`, { token: third.token, body: { token: 'tok_visa' } })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    // Refused while the winner's charge is pending (reserved first), or once it is active.
    expect(['SUBSCRIPTION_PENDING', 'SUBSCRIPTION_EXISTS']).toContain(answers.find((r) => r.status === 409)!.body.code);
    expect(await t.ds.query(`SELECT state FROM subscriptions WHERE company_id = $1`, [third.companyId])).toEqual([{ state: 'active' }]);
    const charged = sandbox.chargesMade().filter((c) => c.key.startsWith('subscription:') && c.amount === 4900);
    const refunded = sandbox.refundsMade().slice(before);
    // The loser is refused before it charges (the winner's pending subscription blocks it): one charge, nothing to refund.
    expect(refunded).toEqual([]);
    expect(charged.filter((c) => answers.some((r) => r.status === 201 && c.key === `subscription:${r.body.data.id}:period:1`))).toHaveLength(1);
  });
});
