import { orderWorld, OrderWorld, placeOrder } from '../support/order-fixtures';
import { startStripeStub, StripeStub } from '../support/stripe-stub';
import { startTestApp, TestApp, testDatabaseKind } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any */
jest.setTimeout(180_000);

/** At least how long the stub holds every Stripe answer during the brownout (the issue measured 3 s; 1.5 s makes the same point faster). */
const SLOW_MS = 1500;
const PAYS = 20;

const p99 = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
};

/**
 * Issue #22, the brownout: a slow payment provider must not slow unrelated requests. Card pays reserve a
 * pending row, call Stripe with no transaction or lock open, then settle; so while 20 pays wait 1.5 s on
 * the provider, `GET /auth/me` keeps answering fast, on PostgreSQL (pool of 10) and on the embedded
 * database (one connection). The assertion is on the probes made while every pay waits on the provider
 * (the regime that took the API down: connections and locks held across the call); the figures also
 * give the p99 without the slow provider and through the pays' arrival and settling (CPU-bound on a busy
 * machine, independent of the provider's speed).
 */
describe.each(['postgres', 'embedded'] as const)('Payments: a slow provider does not stall the API (%s)', (db) => {
  let stub: StripeStub;
  let t: TestApp;
  let w: OrderWorld;
  let visa: string;
  let skip = false;

  beforeAll(async () => {
    if (db === 'postgres' && (await testDatabaseKind()) !== 'postgres') {
      skip = true;
      return;
    }
    stub = await startStripeStub();
    t = await startTestApp({ db, env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_stubbed', STRIPE_API_BASE: stub.url, PUBLIC_BASE_URL: 'https://api.haulops.test/' } });
    w = await orderWorld(t, { name: `Brownout ${db}` });
    await t.req('put', '/api/v1/psp/onboarding/tos', { token: w.company.token, body: { version: '2025-06-01' } }).expect(200);
    const account = (await t.req('put', '/api/v1/psp/onboarding/complete', { token: w.company.token }).expect(200)).body.data.provider_reference;
    stub.setAccount(account, 'approved');
    await t.req('post', '/api/v1/psp/onboarding/complete', { token: w.company.token }).expect(200);
    visa = (await t.req('post', '/api/v1/customer/psp/payment-instrument', { token: w.customer.token, body: { token: 'tok_visa' } }).expect(201)).body.data.id;
  });
  afterAll(async () => {
    await t?.close();
    await stub?.close();
  });

  /** Sequential `GET /auth/me` probes until `until` settles (at least `min` of them); their latencies in ms. */
  async function probe(until: Promise<unknown>, min = 20): Promise<number[]> {
    let done = false;
    void until.finally(() => (done = true));
    const ms: number[] = [];
    while (!done || ms.length < min) {
      const started = performance.now();
      await t.req('get', '/api/v1/auth/me', { token: w.company.token }).expect(200);
      ms.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 10));
    }
    return ms;
  }

  it(`keeps GET /auth/me under 200 ms p99 while ${PAYS} card pays wait on the provider (≥ ${SLOW_MS} ms)`, async () => {
    if (skip) return;
    const orders = [];
    for (let i = 0; i < PAYS; i++) orders.push(await placeOrder(t, w));
    const baseline = await probe(Promise.resolve(), 40);

    // The provider answers slowly: every Stripe answer is held until the test releases it (at least SLOW_MS after the pays started).
    stub.hold = true;
    const started = Date.now();
    const pays = Promise.all(orders.map((o) => t.req('post', `/api/v1/customer/orders/${o.id}/pay`, { token: w.customer.token, body: { instrument_id: visa } })));
    // Every pay has reserved its pending row and called the provider: nothing of ours is held now.
    const pending = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM payment_transactions WHERE kind = 'charge' AND status = 'pending'`))[0].n as number;
    while ((await pending()) < PAYS || stub.seen('/v1/payment_intents').length < PAYS) await new Promise((r) => setTimeout(r, 20));
    const reservedAfter = Date.now() - started;
    // Probes while the 20 charges wait on the provider.
    const waiting: number[] = [];
    while (waiting.length < 40 || Date.now() - started < SLOW_MS) {
      const at = performance.now();
      await t.req('get', '/api/v1/auth/me', { token: w.company.token }).expect(200);
      waiting.push(performance.now() - at);
      await new Promise((r) => setTimeout(r, 10));
    }
    stub.release();
    // And through the pays' settling, for the figures.
    const settling = await probe(pays, 0);
    const answers = await pays;
    const elapsed = Date.now() - started;

    expect(answers.map((r) => r.status)).toEqual(orders.map(() => 201));
    expect(answers.every((r) => r.body.data.transaction.status === 'succeeded')).toBe(true);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM payment_transactions WHERE kind = 'charge' AND status = 'succeeded'`);
    expect(n).toBe(PAYS);
    const figures = { db, pays: PAYS, provider_wait_ms: elapsed, all_reserved_after_ms: reservedAfter, baseline_p99_ms: Math.round(p99(baseline)), waiting_p99_ms: Math.round(p99(waiting)), waiting_probes: waiting.length, settling_p99_ms: Math.round(p99(settling)) };
    console.log(`brownout figures: ${JSON.stringify(figures)}`);
    // Under 200 ms (measured alone: tens of ms); on a machine saturated by other work (parallel test
    // files), within twice the baseline measured just before, on the same machine.
    expect(p99(waiting)).toBeLessThan(Math.max(200, 2 * p99(baseline) + 50));
  });
});
